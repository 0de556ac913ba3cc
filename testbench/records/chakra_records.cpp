// The Chakra records: their column tables and registry declarations. Each reads the replay
// (testbench/traffic/chakra/chakra_replay.h) and the loaded workload; none applies without the
// Chakra workload.
#include "testbench/records/chakra_records.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hw/common/sim_clock.h"
#include "testbench/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_clock.h"
#include "testbench/topology.h"
#include "testbench/traffic/chakra/chakra_replay.h"
#include "testbench/traffic/chakra/chakra_workload.h"
#include "testbench/traffic/chakra/collective_stats.h"

namespace uetsim {

namespace {

using namespace chakra;

bool with_chakra(const record_context& ctx)
{
    return ctx.chakra != nullptr;
}

std::string app_name(uint32_t rank)
{
    return "ChakraApp-" + std::to_string(rank);
}

std::string dotted(uint32_t ip)
{
    return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

const char* yes(bool b)
{
    return b ? "true" : "false";
}

// A record whose rows are all written when it is opened (the placement records).
class written_at_open : public open_record
{
public:
    void finish() override {}
};

template <typename Row>
std::unique_ptr<open_record> write_all(const std::string& path, const column_table<Row>& columns,
                                       const std::vector<Row>& rows)
{
    record_csv<Row> csv(path, columns);
    for (const Row& r : rows) csv.write(r);
    csv.close();
    return std::make_unique<written_at_open>();
}

// ---------------------------------------------------------------------------------------------
// Placement

struct capable_row
{
    uint32_t host;
    bool capable;
};

const column_table<capable_row>& capable_columns()
{
    using row = capable_row;
    static const column_table<row> c = {
        {"Host", "the host number (the server id of a mapping file)", UETSIM_CELL(row, r.host)},
        {"ChakraCapable", "`true`: the host has a NIC (UET or RoCE), so a rank can run on it",
         UETSIM_CELL(row, yes(r.capable))},
    };
    return c;
}

struct mapping_row
{
    uint32_t rank;
    std::string hostname;
    uint32_t nic_node, server_node, server;
    uint32_t ip;
    int64_t group, subgroup;
};

const column_table<mapping_row>& mapping_columns(bool scale_up)
{
    using row = mapping_row;
    static const column_table<row> base = {
        {"ChakraId", "the rank", UETSIM_CELL(row, r.rank)},
        {"Hostname", "the host it runs on (`host3`)", UETSIM_CELL(row, r.hostname)},
        {"NicNodeID", "node id of the host's NIC (the NIC records' `node_id`)",
         UETSIM_CELL(row, r.nic_node)},
        {"ServerNodeID", "node id of the host (its topology device)",
         UETSIM_CELL(row, r.server_node)},
        {"ServerID", "the host number", UETSIM_CELL(row, r.server)},
        {"Core", "the simulator process that runs it: 0", UETSIM_CELL(row, 0)},
        {"IPAddress", "the host's IPv4 address", UETSIM_CELL(row, dotted(r.ip))},
    };
    static const column_table<row> with_groups = [] {
        column_table<row> c = base;
        c.push_back({"ScaleUpGroupId",
                     "the rank's scale-up group, -1 for none (only with "
                     "scale-up groups in the mapping file)",
                     UETSIM_CELL(row, r.group)});
        c.push_back(
            {"ScaleUpSubgroupId", "its subgroup, -1 for none", UETSIM_CELL(row, r.subgroup)});
        return c;
    }();
    return scale_up ? with_groups : base;
}

struct app_row
{
    uint32_t rank;
};

const column_table<app_row>& app_columns()
{
    using row = app_row;
    static const column_table<row> c = {
        {"AppName", "`ChakraApp-<rank>`", UETSIM_CELL(row, app_name(r.rank))},
        {"Core", "the simulator process that runs it: 0", UETSIM_CELL(row, 0)},
    };
    return c;
}

// ---------------------------------------------------------------------------------------------
// chakra-perf

struct perf_row
{
    std::string time_utc;
    acked_transfer t;
    std::string path;
    int64_t aggregation = -1;
    int64_t group_size = -1;
};

const column_table<perf_row>& perf_columns()
{
    using row = perf_row;
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

class perf_open : public open_record
{
public:
    perf_open(record_context& ctx, const std::string& path)
        : m_csv(path, perf_columns()), m_epoch(ctx.sc.simulation.epoch_utc)
    {
        const prepared_workload& w = ctx.chakra->workload();
        ctx.chakra->on_acked([this, &w](const acked_transfer& t) {
            perf_row r;
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
    record_csv<perf_row> m_csv;
    std::string m_epoch;
};

// ---------------------------------------------------------------------------------------------
// chakra-completion-stats and the annotated traces

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

// ---------------------------------------------------------------------------------------------
// chakra-cdf

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

// ---------------------------------------------------------------------------------------------
// Collectives: stats, percentiles, busbw

struct collective_row
{
    collective_result c;
    bool use_max;
};

const column_table<collective_row>& collective_columns()
{
    using row = collective_row;
    static const column_table<row> c = {
        {"collective_hash", "the collective's id (the `metric_aggregation_id` of its transfers)",
         UETSIM_CELL(row, r.c.id)},
        {"comm_type", "its type (`AllReduce`, ...)", UETSIM_CELL(row, collective_name(r.c.type))},
        {"comm_size", "its size in the trace (`comm_size`, after scaling), bytes",
         UETSIM_CELL(row, r.c.comm_size)},
        {"pg_name", "its process group (empty: every rank of the traceset)",
         UETSIM_CELL(row, r.c.pg_name)},
        {"pg_size", "its process group's size", UETSIM_CELL(row, r.c.pg_size)},
        {"simulation_start_time_us",
         "the latest (or, with `Chakra.UseMaxAsCommCollectiveStartTime: false`, the earliest) "
         "of its participants' starts, µs",
         UETSIM_CELL(row, r.c.start_s * 1e6)},
        {"simulation_end_time_us", "the latest acknowledgment or receive of its transfers, µs",
         UETSIM_CELL(row, r.c.end_s * 1e6)},
        {"use_max_as_collective_start_time", "`Chakra.UseMaxAsCommCollectiveStartTime` as 1 or 0",
         UETSIM_CELL(row, r.use_max ? 1 : 0)},
        {"is_valid",
         "1 when some participant finished its part before the stop; 0 when none did (the run "
         "reached its stop time first)",
         UETSIM_CELL(row, r.c.valid ? 1 : 0)},
    };
    return c;
}

// Each record of the collectives writes its rows at the end of the run.
class collectives_open : public open_record
{
public:
    enum class which { stats, percentiles, busbw };
    collectives_open(record_context& ctx, const std::string& path, which w)
        : m_ctx(ctx), m_path(path), m_which(w)
    {
    }
    void finish() override;

private:
    record_context& m_ctx;
    std::string m_path;
    which m_which;
};

const column_table<percentile_row>& percentile_columns()
{
    using row = percentile_row;
    static const column_table<row> c = {
        {"comm_type", "the collective type", UETSIM_CELL(row, collective_name(r.type))},
        {"expansion_algo", "the algorithm that expanded it",
         UETSIM_CELL(row, algorithm_name(r.alg))},
        {"comm_size", "its size in the trace, bytes", UETSIM_CELL(row, r.comm_size)},
        {"pg_size", "its process group's size", UETSIM_CELL(row, r.pg_size)},
        {"count", "how many collectives of this type, algorithm, size and group size are valid",
         UETSIM_CELL(row, r.count)},
        {"mean_run_time_us", "mean run time (end − start), µs", UETSIM_CELL(row, r.mean_us)},
        {"p50_run_time_us", "median run time, µs (nearest rank)", UETSIM_CELL(row, r.p50_us)},
        {"p99_run_time_us", "99th percentile, µs", UETSIM_CELL(row, r.p99_us)},
        {"p99_9_run_time_us", "99.9th percentile, µs", UETSIM_CELL(row, r.p999_us)},
        {"p100_run_time_us", "the longest, µs", UETSIM_CELL(row, r.p100_us)},
        {"mean_ideal_ratio",
         "mean run time ÷ the algorithm's ideal time (docs/collectives.md); "
         "`NA` for a Barrier",
         UETSIM_CELL(row, ratio_text(r.mean_us, r.ideal_us))},
        {"p50_ideal_ratio", "the same for the median",
         UETSIM_CELL(row, ratio_text(r.p50_us, r.ideal_us))},
        {"p99_ideal_ratio", "the same for p99", UETSIM_CELL(row, ratio_text(r.p99_us, r.ideal_us))},
        {"p99_9_ideal_ratio", "the same for p99.9",
         UETSIM_CELL(row, ratio_text(r.p999_us, r.ideal_us))},
        {"p100_ideal_ratio", "the same for the longest",
         UETSIM_CELL(row, ratio_text(r.p100_us, r.ideal_us))},
    };
    return c;
}

const column_table<busbw_row>& busbw_columns()
{
    using row = busbw_row;
    static const column_table<row> c = {
        {"collective_hash", "the collective's id", UETSIM_CELL(row, r.c.id)},
        {"comm_type", "its type", UETSIM_CELL(row, collective_name(r.c.type))},
        {"expansion_algo", "its algorithm", UETSIM_CELL(row, algorithm_name(r.c.alg))},
        {"comm_size", "its size S in the trace, bytes", UETSIM_CELL(row, r.c.comm_size)},
        {"pg_size", "its group size N", UETSIM_CELL(row, r.c.pg_size)},
        {"run_time_us", "end − start (as in chakra-comm-collective-stats), µs",
         UETSIM_CELL(row, r.run_us)},
        {"ideal_time_us", "the algorithm's ideal time at the link rate, µs",
         UETSIM_CELL(row, r.ideal_us)},
        {"algbw_gbps",
         "algorithm bandwidth: the collective's data (S; N × S for AllGather and Gather) × 8 ÷ "
         "run time, Gbit/s",
         UETSIM_CELL(row, r.algbw_gbps)},
        {"busbw_gbps",
         "bus bandwidth: algbw × 2(N−1)/N for AllReduce, × (N−1)/N for AllGather, "
         "ReduceScatter, ReduceScatterBlock, AllToAll, Gather and Scatter, × 1 for Broadcast and "
         "Reduce, 0 for Barrier",
         UETSIM_CELL(row, r.busbw_gbps)},
        {"link_rate_gbps", "the NIC's link rate, Gbit/s", UETSIM_CELL(row, r.link_gbps)},
        {"link_fraction", "busbw ÷ link rate", UETSIM_CELL(row, r.link_fraction)},
        {"ideal_ratio", "run time ÷ ideal time (`NA` for a Barrier)",
         UETSIM_CELL(row, ratio_text(r.run_us, r.ideal_us))},
    };
    return c;
}

void collectives_open::finish()
{
    const chakra_replay& replay = *m_ctx.chakra;
    const prepared_workload& w = replay.workload();
    const double link_bps = m_ctx.fab.topo().host_link(0).rate_bps;
    const std::vector<collective_result> results = collective_results(
        w, [&](uint32_t i) -> const collective_times& { return replay.times(i); },
        m_ctx.sc.chakra.use_max_as_comm_collective_start_time);
    switch (m_which) {
        case which::stats: {
            record_csv<collective_row> csv(m_path, collective_columns());
            for (const auto& c : results)
                csv.write({c, m_ctx.sc.chakra.use_max_as_comm_collective_start_time});
            csv.close();
            break;
        }
        case which::percentiles: {
            record_csv<percentile_row> csv(m_path, percentile_columns());
            for (const auto& p : percentile_rows(results, link_bps)) csv.write(p);
            csv.close();
            break;
        }
        case which::busbw: {
            record_csv<busbw_row> csv(m_path, busbw_columns());
            for (const auto& c : results)  // a Barrier moves no data: no bandwidth
                if (c.valid && c.type != collective_type::barrier) csv.write(busbw_of(c, link_bps));
            csv.close();
            break;
        }
    }
}

using opener = std::unique_ptr<open_record> (*)(record_context&, const std::string&);

template <class Open>
std::unique_ptr<open_record> open_as(record_context& ctx, const std::string& path)
{
    return std::make_unique<Open>(ctx, path);
}

template <collectives_open::which W>
std::unique_ptr<open_record> open_collectives(record_context& ctx, const std::string& path)
{
    return std::make_unique<collectives_open>(ctx, path, W);
}

// A Chakra record: listed in Records.Enabled, written only with the Chakra workload, opened
// once the replay exists.
record_def chakra_record(const char* name, int position, const char* when, const char* intro,
                         std::vector<column_doc> columns, opener open, const char* notes = "")
{
    record_def r;
    r.name = name;
    r.enabled_position = position;
    r.when = when;
    r.intro = intro;
    r.columns = std::move(columns);
    r.notes = notes;
    r.applies = with_chakra;
    r.reads_application = true;
    r.open = open;
    return r;
}

const char* const at_start = "with the Chakra workload, at the start";
const char* const at_end = "with the Chakra workload, at the end of the run";

std::unique_ptr<open_record> open_capable_hosts(record_context& ctx, const std::string& path)
{
    std::vector<capable_row> rows;
    for (uint32_t h = 0; h < ctx.fab.host_count(); ++h) rows.push_back({h, true});
    return write_all(path, capable_columns(), rows);
}

std::unique_ptr<open_record> open_mapping(record_context& ctx, const std::string& path)
{
    const auto& pl = ctx.workload->placement;
    const bool groups = ctx.workload->map && ctx.workload->map->has_scale_up();
    std::vector<mapping_row> rows;
    for (uint32_t k = 0; k < pl.host.size(); ++k) {
        const uint32_t h = pl.host[k];
        rows.push_back({k, ctx.fab.topo().devices[h].name, ctx.fab.nic_at(h).node_id(),
                        ctx.fab.topo().devices[h].node_id, h, host_ip(h), pl.group[k],
                        pl.subgroup[k]});
    }
    return write_all(path, mapping_columns(groups), rows);
}

std::unique_ptr<open_record> open_apps(record_context& ctx, const std::string& path)
{
    std::vector<app_row> rows;
    for (uint32_t k = 0; k < ctx.chakra->ranks(); ++k) rows.push_back({k});
    return write_all(path, app_columns(), rows);
}

}  // namespace

const record_def& chakra_capable_hosts_record()
{
    static const record_def d =
        chakra_record("chakra-capable-hosts", 16, at_start, "One row per host with a NIC.",
                      column_docs(capable_columns()), open_capable_hosts);
    return d;
}

const record_def& chakra_mapping_record()
{
    static const record_def d = chakra_record(
        "chakra-mapping", 17, at_start,
        "One row per rank: where it runs. With scale-up groups in the mapping file, two more "
        "columns follow (`ScaleUpGroupId`, `ScaleUpSubgroupId`).",
        column_docs(mapping_columns(true)), open_mapping);
    return d;
}

const record_def& chakra_apps_record()
{
    static const record_def d =
        chakra_record("chakra-apps", 18, at_start, "One row per rank's application.",
                      column_docs(app_columns()), open_apps);
    return d;
}

const record_def& chakra_perf_record()
{
    static const record_def d = chakra_record(
        "chakra-perf", 19, "with the Chakra workload, a row as each transfer is acknowledged",
        "One row per point-to-point transfer (a trace send, or one transfer of an expanded "
        "collective), written when its acknowledgment reaches the sender. Receives and compute "
        "get no row.",
        column_docs(perf_columns()), open_as<perf_open>);
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

const record_def& chakra_collective_stats_record()
{
    static const record_def d = chakra_record(
        "chakra-comm-collective-stats", 22, at_end,
        "One row per collective instance (the k-th collective of a process group on every "
        "member rank), its synchronization barrier excluded.",
        column_docs(collective_columns()), open_collectives<collectives_open::which::stats>);
    return d;
}

const record_def& chakra_collective_percentiles_record()
{
    static const record_def d = chakra_record(
        "chakra-comm-collective-percentiles-stats", 23, at_end,
        "One row per (type, algorithm, size, group size) of the valid collectives: run time "
        "percentiles (nearest rank) and their ratios to the algorithm's ideal time at the NIC's "
        "link rate (docs/collectives.md has every formula).",
        column_docs(percentile_columns()), open_collectives<collectives_open::which::percentiles>);
    return d;
}

const record_def& chakra_busbw_record()
{
    static const record_def d = chakra_record("chakra-busbw", 24, at_end,
                                              "uetsim's own: one row per valid collective instance "
                                              "(Barriers have none) with its algorithm and bus "
                                              "bandwidth by the usual convention (nccl-tests).",
                                              column_docs(busbw_columns()),
                                              open_collectives<collectives_open::which::busbw>);
    return d;
}

}  // namespace uetsim
