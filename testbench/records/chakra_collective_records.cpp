// The Chakra records of collectives, written at the end of the run from the replay's times:
// chakra-comm-collective-stats, chakra-comm-collective-percentiles-stats and chakra-busbw.
#include "testbench/records/chakra_records.h"

#include "testbench/elab/fabric.h"
#include "testbench/elab/topology.h"
#include "testbench/traffic/chakra/collective_stats.h"
#include "testbench/records/chakra_record_base.h"
#include "testbench/traffic/chakra/chakra_replay.h"
#include "testbench/traffic/chakra/chakra_workload.h"

namespace uetsim {

namespace {

using namespace chakra;
using namespace chakra_records;

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

template <collectives_open::which W>
std::unique_ptr<open_record> open_collectives(record_context& ctx, const std::string& path)
{
    return std::make_unique<collectives_open>(ctx, path, W);
}

const char* const at_end = "with the Chakra workload, at the end of the run";

}  // namespace

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
