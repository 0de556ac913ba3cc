// The Chakra records of transfers and ranks: chakra-perf (a row per acknowledged transfer),
// chakra-completion-stats (a row per rank as it ends, with its annotated trace) and chakra-cdf
// (the run's progress every BeaconReportInterval).
#include "testbench/records/chakra_records.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hw/kernel/sim_clock.h"
#include "testbench/records/record_clock.h"
#include "testbench/records/chakra_record_base.h"
#include "testbench/traffic/chakra/chakra_replay.h"
#include "testbench/traffic/chakra/chakra_workload.h"

namespace uetsim {

namespace {

using namespace chakra;
using namespace chakra_records;

struct chakra_perf_row
{
    std::string time_utc;
    acked_transfer t;
    std::string path;
    int64_t aggregation = -1;
    int64_t group_size = -1;
};

const column_table<chakra_perf_row>& chakra_perf_columns()
{
    using row = chakra_perf_row;
    static const column_table<row> c = {
        {"time_utc",
         "`Simulation.EpochUtc` plus `sim_time_sec` (simulated, so runs are "
         "reproducible)",
         UETSIM_CELL(row, r.time_utc)},
        {"metric_name", "`ChakraFCT`", UETSIM_CELL(row, "ChakraFCT")},
        {"sim_time_sec", "when the acknowledgment reached the sender", UETSIM_CELL(row, r.t.ack_s)},
        {"perf_metric_usec", "from the send's start to its acknowledgment, µs",
         UETSIM_CELL(row, (r.t.ack_s - r.t.start_s) * 1e6)},
        {"metric_path",
         "`ChakraFCT.<collective type>.GroupSize<N>.CommSize<S>Bytes` for a collective's "
         "transfer (its process group's size and its size in the trace), "
         "`ChakraFCT.Send.GroupSize0.CommSize<bytes>Bytes` for a trace send",
         UETSIM_CELL(row, r.path)},
        {"metric_aggregation_id",
         "the collective's `collective_hash`, shared by all its transfers; -1 for a trace send",
         UETSIM_CELL(row, r.aggregation)},
        {"start_time_sec", "when the send started (a collective's: when its step issued it)",
         UETSIM_CELL(row, r.t.start_s)},
        {"is_added_synchronization_flow",
         "`true` for a transfer of the zero-byte barrier of `Chakra.CommCollectiveSynchronization`",
         UETSIM_CELL(row, yes(r.t.synchronization))},
        {"comm_tag",
         "the trace's `comm_tag`; for a collective's transfer uetsim's own tag: (collective << 24) "
         "| (phase << 23) | (lane << 22) | step",
         UETSIM_CELL(row, r.t.tag)},
        {"group_size", "the collective's process group size; -1 for a trace send",
         UETSIM_CELL(row, r.group_size)},
        {"flow_comm_size", "the transfer's bytes", UETSIM_CELL(row, r.t.bytes)},
        {"sending_app_name", "`ChakraApp-<rank>` of the sender",
         UETSIM_CELL(row, app_name(r.t.src))},
        {"receiving_app_name", "`ChakraApp-<rank>` of the receiver",
         UETSIM_CELL(row, app_name(r.t.dst))},
    };
    return c;
}

class chakra_perf_open : public open_record
{
public:
    chakra_perf_open(record_context& ctx, const std::string& path)
        : m_csv(path, chakra_perf_columns()), m_epoch(ctx.sc.simulation.epoch_utc)
    {
        const prepared_workload& w = ctx.chakra->workload();
        ctx.chakra->on_acked([this, &w](const acked_transfer& t) {
            chakra_perf_row r;
            r.t = t;
            r.time_utc = utc_after(m_epoch, t.ack_s);
            if (t.collective == k_none) {
                r.path = fmt::format("ChakraFCT.Send.GroupSize0.CommSize{}Bytes", t.bytes);
            } else {
                const collective_instance& c = w.collectives[t.collective];
                r.group_size = int64_t(w.groups[c.group].ranks.size());
                r.aggregation = c.id;
                r.path = fmt::format("ChakraFCT.{}.GroupSize{}.CommSize{}Bytes",
                                     collective_name(c.type), r.group_size, c.comm_size);
            }
            m_csv.write(r);
        });
    }
    void finish() override { m_csv.close(); }

private:
    record_csv<chakra_perf_row> m_csv;
    std::string m_epoch;
};

struct completion_row
{
    uint32_t rank;
    double time_us;
    rank_progress p;
    std::string annotated;
};

const column_table<completion_row>& completion_columns()
{
    using row = completion_row;
    static const column_table<row> c = {
        {"metric_path", "`ChakraGenerator.ChakraApp`",
         UETSIM_CELL(row, "ChakraGenerator.ChakraApp")},
        {"chakra_app_logical_id", "the rank", UETSIM_CELL(row, r.rank)},
        {"chakra_trace_completion_time_us",
         "from the rank's start (`Simulation.StartTime`) to its end, or to the stop, µs",
         UETSIM_CELL(row, r.time_us)},
        {"chakra_full_payload_bytes_sent", "bytes of the rank's completed sends",
         UETSIM_CELL(row, r.p.bytes_sent)},
        {"chakra_full_payload_bytes_received", "bytes of the rank's completed receives",
         UETSIM_CELL(row, r.p.bytes_received)},
        {"num_chakra_sends_completed",
         "sends (trace sends and collectives' transfers) whose bytes have all been sent",
         UETSIM_CELL(row, r.p.sends_completed)},
        {"num_chakra_receives_completed", "receives that finished",
         UETSIM_CELL(row, r.p.receives_completed)},
        {"num_chakra_sends_fully_acked", "sends whose transfer was acknowledged",
         UETSIM_CELL(row, r.p.sends_acked)},
        {"num_chakra_computations_completed", "`COMP_NODE`s that finished",
         UETSIM_CELL(row, r.p.computations_completed)},
        {"total_chakra_computation_time_us",
         "the sum of the finished `COMP_NODE`s' `durationMicros` (after scaling), µs",
         UETSIM_CELL(row, r.p.computation_time_us)},
        {"post_annotated_results_path",
         "the rank's annotated trace, `post_annotated/<prefix>.<rank>.json` in the output folder",
         UETSIM_CELL(row, r.annotated)},
        {"rank_ended",
         "uetsim's: `true` when the rank ended (every node finished, every transfer "
         "acknowledged), `false` when the run reached its stop time first",
         UETSIM_CELL(row, yes(r.p.ended))},
    };
    return c;
}

const char* type_word(node_type t)
{
    static const char* const names[] = {"INVALID_NODE",   "METADATA_NODE", "MEM_LOAD_NODE",
                                        "MEM_STORE_NODE", "COMP_NODE",     "COMM_SEND_NODE",
                                        "COMM_RECV_NODE", "COMM_COLL_NODE"};
    return names[int(t)];
}

// `s`, `e`, `r` in µs, zero-padded to the width of the placeholder of a node never started.
std::string annotated_time(int64_t ps)
{
    if (ps < 0) return "XXXXXXXXXXXXX";
    return fmt::format("{:013.6f}", double(ps) / 1e6);
}

void write_annotated(const std::string& path, const chakra_replay& replay, uint32_t rank,
                     const rank_trace& trace)
{
    std::ofstream f(path);
    f << "{\n  \"rank\": " << rank << ",\n  \"trace\": \"" << trace.file << "\",\n  \"nodes\": [";
    const int64_t start = int64_t(replay.start_ps());
    for (uint32_t i = 0; i < trace.nodes.size(); ++i) {
        const node& n = trace.nodes[i];
        const int64_t s = replay.node_start_ps(rank, i), e = replay.node_end_ps(rank, i);
        f << (i ? ",\n" : "\n")
          << fmt::format(
                 "    {{\"id\": {}, \"name\": {}, \"type\": \"{}\", \"s\": \"{}\", \"e\": \"{}\", "
                 "\"r\": \"{}\"}}",
                 n.id, nlohmann::json(n.name).dump(), type_word(n.type), annotated_time(s),
                 annotated_time(e), annotated_time(s < 0 ? -1 : s - start));
    }
    f << "\n  ]\n}\n";
}

class completion_open : public open_record
{
public:
    completion_open(record_context& ctx, const std::string& path)
        : m_replay(*ctx.chakra), m_workload(*ctx.workload), m_csv(path, completion_columns())
    {
        namespace fs = std::filesystem;
        m_folder = ctx.out_dir + "/post_annotated";
        fs::create_directories(m_folder);
        m_prefix = fs::path(m_workload.traces.prefix).filename().string();
        m_written.assign(m_replay.ranks(), false);
        m_replay.on_rank_ended([this](uint32_t r) { write(r); });
    }
    void finish() override
    {
        // A rank still running at the stop gets its row with what it completed.
        for (uint32_t r = 0; r < m_replay.ranks(); ++r)
            if (!m_written[r]) write(r);
        m_csv.close();
    }

private:
    void write(uint32_t r)
    {
        m_written[r] = true;
        const rank_progress& p = m_replay.progress(r);
        const uint64_t end_ps = p.ended ? p.end_ps : sim_now_ps();
        const std::string rel = fmt::format("post_annotated/{}.{}.json", m_prefix, r);
        write_annotated(m_folder + fmt::format("/{}.{}.json", m_prefix, r), m_replay, r,
                        m_workload.traces.ranks[r]);
        const uint64_t start_ps = m_replay.start_ps();
        m_csv.write({r, double(end_ps > start_ps ? end_ps - start_ps : 0) / 1e6, p, rel});
    }

    chakra_replay& m_replay;
    const loaded_workload& m_workload;
    record_csv<completion_row> m_csv;
    std::string m_folder, m_prefix;
    std::vector<bool> m_written;
};

struct cdf_row
{
    double t;
    double bytes, sends, receives, acked, computations;
};

const column_table<cdf_row>& cdf_columns()
{
    using row = cdf_row;
    static const column_table<row> c = {
        {"sim_time_sec", "the report time (every `Simulation.BeaconReportInterval`)",
         UETSIM_CELL(row, r.t)},
        {"CDF_send_bytes", "fraction of the run's bytes sent (barriers excluded)",
         UETSIM_CELL(row, r.bytes)},
        {"CDF_chakra_sends_completed", "fraction of the run's sends completed",
         UETSIM_CELL(row, r.sends)},
        {"CDF_chakra_receives_completed", "fraction of the run's receives completed",
         UETSIM_CELL(row, r.receives)},
        {"CDF_chakra_sends_fully_acked", "fraction of the run's sends acknowledged",
         UETSIM_CELL(row, r.acked)},
        {"CDF_chakra_computations_completed", "fraction of the run's `COMP_NODE`s completed",
         UETSIM_CELL(row, r.computations)},
    };
    return c;
}

double fraction(uint64_t done, uint64_t total)
{
    return total ? double(done) / double(total) : 1.0;
}

class cdf_open : public open_record
{
public:
    cdf_open(record_context& ctx, const std::string& path)
        : m_replay(*ctx.chakra)
        , m_csv(path, cdf_columns())
        , m_clock("chakra_cdf_clock", ctx.sc.simulation.beacon_interval_s,
                  ctx.sc.simulation.beacon_interval_s)
    {
        m_clock.follow([this](double now) { row(now); });
    }
    void finish() override
    {
        const double now = double(sim_now_ps()) * 1e-12;
        if (now > m_last) row(now);
        m_csv.close();
    }

private:
    void row(double now)
    {
        m_last = now;
        const prepared_workload& w = m_replay.workload();
        const auto& d = m_replay.completed();
        m_csv.write({now, fraction(d.send_bytes, w.total_send_bytes),
                     fraction(d.sends, w.total_sends), fraction(d.receives, w.total_recvs),
                     fraction(d.acked, w.total_sends),
                     fraction(d.computations, w.total_computations)});
    }

    chakra_replay& m_replay;
    record_csv<cdf_row> m_csv;
    record_clock m_clock;
    double m_last = -1;
};

}  // namespace

const record_def& chakra_perf_record()
{
    static const record_def d = chakra_record(
        "chakra-perf", 19, "with the Chakra workload, a row as each transfer is acknowledged",
        "One row per point-to-point transfer (a trace send, or one transfer of an expanded "
        "collective), written when its acknowledgment reaches the sender. Receives and compute "
        "get no row.",
        column_docs(chakra_perf_columns()), open_as<chakra_perf_open>);
    return d;
}

const record_def& chakra_completion_stats_record()
{
    static const record_def d =
        chakra_record("chakra-completion-stats", 20,
                      "with the Chakra workload, a row as each rank ends (or at the stop)",
                      "One row per rank. The rank's annotated trace is written with its row, to "
                      "`post_annotated/<prefix>.<rank>.json` (docs/collectives.md).",
                      column_docs(completion_columns()), open_as<completion_open>,
                      "A collective synchronization barrier's transfers are not counted.");
    return d;
}

const record_def& chakra_cdf_record()
{
    static const record_def d = chakra_record(
        "chakra-cdf", 21, "with the Chakra workload, every `Simulation.BeaconReportInterval`",
        "The run's progress: each fraction divides what the ranks completed by the run's total "
        "(barriers excluded). A last row at the end of the run.",
        column_docs(cdf_columns()), open_as<cdf_open>);
    return d;
}

}  // namespace uetsim
