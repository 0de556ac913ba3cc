// What the collective records report (pure logic): each instance's start, end and validity from
// its participants' times, nearest-rank percentiles, the percentile rows and their ideal times,
// and bus bandwidth, with the numbers worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "hw/common/nearest_rank.h"
#include "testbench/traffic/chakra/collective_stats.h"

using namespace uetsim::chakra;
using uetsim::nearest_rank;

namespace {

using ct = collective_type;
using al = algorithm;

// A workload of groups and instances only: what collective_results reads.
prepared_workload workload(std::vector<prepared_group> groups,
                           std::vector<collective_instance> instances)
{
    prepared_workload w;
    w.groups = std::move(groups);
    for (uint32_t i = 0; i < instances.size(); ++i) instances[i].id = i;
    w.collectives = std::move(instances);
    return w;
}

collective_instance instance(ct type, al alg, uint64_t size, uint32_t group)
{
    collective_instance c;
    c.type = type;
    c.alg = alg;
    c.comm_size = size;
    c.group = group;
    return c;
}

collective_result result(ct type, al alg, uint64_t size, uint32_t n, double start_s, double end_s,
                         bool valid = true)
{
    collective_result r;
    r.type = type;
    r.alg = alg;
    r.comm_size = size;
    r.pg_size = n;
    r.start_s = start_s;
    r.end_s = end_s;
    r.valid = valid;
    return r;
}

std::vector<collective_result> results_of(const prepared_workload& w,
                                          const std::vector<collective_times>& t, bool use_max)
{
    return collective_results(
        w, [&](uint32_t id) -> const collective_times& { return t.at(id); }, use_max);
}

// ---------------------------------------------------------------------------------------------
// collective_results

TEST(ChakraCollectiveStats, StartIsTheLatestOrTheEarliestParticipantStart)
{
    const prepared_workload w =
        workload({{"", {0, 1, 2, 3}, {0, 1, 2, 3}}, {"7", {2, 0}, {1, -1, 0, -1}}},
                 {instance(ct::all_reduce, al::ring, 1000, 0),
                  instance(ct::broadcast, al::sequential, 64, 1)});
    // Instance 0: starts at 1.0 s and 1.5 s, ends at 3.0 s; instance 1: 2.0 s and 2.25 s, 4 s.
    const std::vector<collective_times> t = {{1.0, 1.5, 3.0, 4}, {2.0, 2.25, 4.0, 1}};

    const auto latest = results_of(w, t, true);
    ASSERT_EQ(latest.size(), 2u);
    EXPECT_EQ(latest[0].id, 0u);
    EXPECT_EQ(latest[0].type, ct::all_reduce);
    EXPECT_EQ(latest[0].alg, al::ring);
    EXPECT_EQ(latest[0].comm_size, 1000u);
    EXPECT_EQ(latest[0].pg_name, "");
    EXPECT_EQ(latest[0].pg_size, 4u);
    EXPECT_DOUBLE_EQ(latest[0].start_s, 1.5);
    EXPECT_DOUBLE_EQ(latest[0].end_s, 3.0);
    EXPECT_DOUBLE_EQ(latest[0].run_s(), 1.5);  // 3.0 - 1.5
    EXPECT_TRUE(latest[0].valid);
    EXPECT_EQ(latest[1].id, 1u);
    EXPECT_EQ(latest[1].pg_name, "7");
    EXPECT_EQ(latest[1].pg_size, 2u);
    EXPECT_DOUBLE_EQ(latest[1].start_s, 2.25);

    const auto earliest = results_of(w, t, false);
    EXPECT_DOUBLE_EQ(earliest[0].start_s, 1.0);
    EXPECT_DOUBLE_EQ(earliest[0].run_s(), 2.0);  // 3.0 - 1.0
    EXPECT_DOUBLE_EQ(earliest[1].start_s, 2.0);
    EXPECT_DOUBLE_EQ(earliest[1].end_s, 4.0);
}

TEST(ChakraCollectiveStats, ValidWhenSomeParticipantFinished)
{
    const prepared_workload w =
        workload({{"", {0, 1}, {0, 1}}}, {instance(ct::all_reduce, al::ring, 10, 0),
                                          instance(ct::all_reduce, al::ring, 10, 0),
                                          instance(ct::all_reduce, al::ring, 10, 0)});
    const std::vector<collective_times> t = {
        {1.0, 1.0, 2.0, 1},  // one of two participants done: valid
        {1.0, 1.2, 1.5, 0},  // started, none done (the run stopped first): not valid
        {-1, -1, -1, 0}};    // never started: not valid, and no negative times
    const auto r = results_of(w, t, true);
    EXPECT_TRUE(r[0].valid);
    EXPECT_FALSE(r[1].valid);
    EXPECT_FALSE(r[2].valid);
    EXPECT_DOUBLE_EQ(r[2].start_s, 0.0);
    EXPECT_DOUBLE_EQ(r[2].end_s, 0.0);
}

TEST(ChakraCollectiveStats, EndIsNeverBeforeStart)
{
    // Started at 2 s on every participant, with no transfer ended yet (end -1).
    const prepared_workload w =
        workload({{"", {0, 1}, {0, 1}}}, {instance(ct::all_gather, al::ring, 10, 0)});
    const std::vector<collective_times> t = {{2.0, 2.0, -1, 0}};
    const auto r = results_of(w, t, true);
    EXPECT_DOUBLE_EQ(r[0].start_s, 2.0);
    EXPECT_DOUBLE_EQ(r[0].end_s, 2.0);
    EXPECT_DOUBLE_EQ(r[0].run_s(), 0.0);
}

// ---------------------------------------------------------------------------------------------
// percentile

TEST(ChakraCollectiveStats, PercentileIsTheNearestRank)
{
    std::vector<double> v;
    for (int i = 1; i <= 100; ++i) v.push_back(i);
    // Nearest rank ceil(p/100 x n): 50 -> 50th, 99 -> 99th, 99.9 -> ceil(99.9) = 100th.
    EXPECT_EQ(nearest_rank(v, 50), 50);
    EXPECT_EQ(nearest_rank(v, 99), 99);
    EXPECT_EQ(nearest_rank(v, 99.9), 100);
    EXPECT_EQ(nearest_rank(v, 100), 100);
    EXPECT_EQ(nearest_rank(v, 0), 1);  // at least the first
    EXPECT_EQ(nearest_rank(v, 0.5), 1);
    EXPECT_EQ(nearest_rank(v, 1.5), 2);  // ceil(1.5) = 2

    // 1..1000: 99.9 % of 1000 is 999, but 99.9 / 100 x 1000 is 999.0000000000001 in doubles,
    // which a plain ceil would make the 1000th.
    v.clear();
    for (int i = 1; i <= 1000; ++i) v.push_back(i);
    EXPECT_EQ(nearest_rank(v, 99.9), 999);
    EXPECT_EQ(nearest_rank(v, 50), 500);

    const std::vector<double> one = {7.5};
    for (double p : {0.0, 50.0, 99.0, 99.9, 100.0}) EXPECT_EQ(nearest_rank(one, p), 7.5) << p;
    EXPECT_TRUE(std::isnan(nearest_rank({}, 50)));
}

// ---------------------------------------------------------------------------------------------
// percentile_rows

TEST(ChakraCollectiveStats, PercentileRowsGroupByTypeAlgorithmSizeAndGroupSize)
{
    const double b = 100e9;  // 100 Gbps
    const std::vector<collective_result> results = {
        // AllReduce ring 1000 B on 4 ranks: 30, 10, 20 us, plus an invalid one of 1000 us.
        result(ct::all_reduce, al::ring, 1000, 4, 0, 30e-6),
        result(ct::all_reduce, al::ring, 1000, 4, 1, 1 + 10e-6),
        result(ct::all_reduce, al::ring, 1000, 4, 0, 1000e-6, false),
        result(ct::all_reduce, al::ring, 1000, 4, 2, 2 + 20e-6),
        // The same on 8 ranks, on tree, and with another size: rows of their own.
        result(ct::all_reduce, al::ring, 1000, 8, 0, 40e-6),
        result(ct::all_reduce, al::tree, 1000, 4, 0, 50e-6),
        result(ct::all_reduce, al::ring, 2000, 4, 0, 60e-6),
        // A Barrier, and a collective left out entirely (its only instance is invalid).
        result(ct::barrier, al::ring, 0, 4, 0, 5e-6),
        result(ct::all_gather, al::ring, 64, 2, 0, 5e-6, false),
    };
    const auto rows = percentile_rows(results, b);
    ASSERT_EQ(rows.size(), 5u);
    // Ordered by type, algorithm (ring < tree), size, group size.
    EXPECT_EQ(rows[0].type, ct::all_reduce);
    EXPECT_EQ(rows[0].alg, al::ring);
    EXPECT_EQ(rows[0].comm_size, 1000u);
    EXPECT_EQ(rows[0].pg_size, 4u);
    EXPECT_EQ(rows[1].pg_size, 8u);
    EXPECT_EQ(rows[2].comm_size, 2000u);
    EXPECT_EQ(rows[3].alg, al::tree);
    EXPECT_EQ(rows[4].type, ct::barrier);

    // Row 0: 10, 20, 30 us (the invalid 1000 us left out): mean 20, p50 the 2nd = 20,
    // p99 and p99.9 the 3rd = 30, p100 30.
    const percentile_row& r = rows[0];
    EXPECT_EQ(r.count, 3u);
    EXPECT_NEAR(r.mean_us, 20, 1e-6);
    EXPECT_NEAR(r.p50_us, 20, 1e-6);
    EXPECT_NEAR(r.p99_us, 30, 1e-6);
    EXPECT_NEAR(r.p999_us, 30, 1e-6);
    EXPECT_NEAR(r.p100_us, 30, 1e-6);
    // Ideal AllReduce ring: 2 S 8 (N-1) / (N B) = 2 x 1000 x 8 x 3 / (4 x 100e9) = 0.12 us.
    EXPECT_NEAR(r.ideal_us, 0.12, 1e-12);
    EXPECT_DOUBLE_EQ(r.ideal_us, ideal_time_s(ct::all_reduce, al::ring, 4, 1000, b) * 1e6);
    // 20 / 0.12 = 166.67.
    EXPECT_NEAR(std::stod(ratio_text(r.mean_us, r.ideal_us)), 166.6666667, 1e-6);
    // 8 ranks: 2 x 1000 x 8 x 7 / (8 x 100e9) = 0.14 us.
    EXPECT_NEAR(rows[1].ideal_us, 0.14, 1e-12);
    EXPECT_EQ(rows[1].count, 1u);
    EXPECT_NEAR(rows[1].p50_us, 40, 1e-6);

    // A Barrier moves no data: its ideal time is NaN and its ratios NA.
    EXPECT_TRUE(std::isnan(rows[4].ideal_us));
    EXPECT_EQ(ratio_text(rows[4].mean_us, rows[4].ideal_us), "NA");
    EXPECT_NEAR(rows[4].mean_us, 5, 1e-6);
}

TEST(ChakraCollectiveStats, PercentileRowOfAThousandRuns)
{
    // Runs of 1..1000 us, given in reverse: mean 500.5, p50 500, p99 990, p99.9 999, p100 1000.
    std::vector<collective_result> results;
    for (int i = 1000; i >= 1; --i)
        results.push_back(result(ct::reduce_scatter, al::ring, 4096, 16, 0, i * 1e-6));
    const auto rows = percentile_rows(results, 400e9);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].count, 1000u);
    EXPECT_NEAR(rows[0].mean_us, 500.5, 1e-6);
    EXPECT_NEAR(rows[0].p50_us, 500, 1e-6);
    EXPECT_NEAR(rows[0].p99_us, 990, 1e-6);
    EXPECT_NEAR(rows[0].p999_us, 999, 1e-6);
    EXPECT_NEAR(rows[0].p100_us, 1000, 1e-6);
    // Ideal ReduceScatter ring: S 8 (N-1) / (N B) = 4096 x 8 x 15 / (16 x 400e9) = 76.8 ns.
    EXPECT_NEAR(rows[0].ideal_us, 0.0768, 1e-12);
}

TEST(ChakraCollectiveStats, OneRankGroupHasNoIdealRatio)
{
    // N = 1 moves nothing: ideal time 0, so the ratio is NA rather than infinite.
    const auto rows = percentile_rows({result(ct::all_reduce, al::ring, 1000, 1, 0, 1e-6)}, 1e9);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].ideal_us, 0);
    EXPECT_EQ(ratio_text(rows[0].p50_us, rows[0].ideal_us), "NA");
    EXPECT_TRUE(percentile_rows({}, 1e9).empty());
}

// ---------------------------------------------------------------------------------------------
// busbw_of, ratio_text

TEST(ChakraCollectiveStats, AllReduceAtItsIdealTimeRunsAtTheLinkRate)
{
    // AllReduce ring of S = 64 MiB = 67,108,864 B over N = 8 ranks at B = 400 Gbps:
    // ideal = 2 S 8 (N-1) / (N B) = 2 x 536,870,912 x 7 / (8 x 400e9) = 2.34881024 ms.
    // algbw = S 8 / t = 536,870,912 / 2.34881024e-3 = 228.571 Gbps (= 400 x 4/7);
    // busbw = algbw x 2(N-1)/N = 228.571 x 14/8 = 400 Gbps, the whole link.
    const double b = 400e9;
    const uint64_t s = uint64_t(64) << 20;
    const double ideal_s = 2.34881024e-3;
    ASSERT_NEAR(ideal_time_s(ct::all_reduce, al::ring, 8, s, b), ideal_s, 1e-15);
    const busbw_row r = busbw_of(result(ct::all_reduce, al::ring, s, 8, 1.0, 1.0 + ideal_s), b);
    EXPECT_NEAR(r.run_us, 2348.81024, 1e-6);
    EXPECT_NEAR(r.ideal_us, 2348.81024, 1e-9);
    EXPECT_NEAR(r.algbw_gbps, 400.0 * 4 / 7, 1e-6);
    EXPECT_NEAR(r.busbw_gbps, 400, 1e-6);
    EXPECT_DOUBLE_EQ(r.link_gbps, 400);
    EXPECT_NEAR(r.link_fraction, 1, 1e-9);
    EXPECT_EQ(r.c.comm_size, s);
    EXPECT_NEAR(std::stod(ratio_text(r.run_us, r.ideal_us)), 1, 1e-9);
}

TEST(ChakraCollectiveStats, AlgbwCountsWhatEveryRankEndsUpWith)
{
    // S = 1 MB = 1e6 B in 100 us on N = 4 ranks, link 400 Gbps. S 8 / t = 8e6 / 1e-4 = 80 Gbps.
    const double b = 400e9;
    auto row = [&](ct type, al alg) {
        return busbw_of(result(type, alg, 1000000, 4, 0, 100e-6), b);
    };
    // AllGather and Gather: N S = 4e6 B, algbw 320 Gbps; busbw x (N-1)/N = 240 Gbps.
    for (ct type : {ct::all_gather, ct::gather}) {
        const busbw_row r = row(type, type == ct::gather ? al::direct : al::ring);
        EXPECT_NEAR(r.algbw_gbps, 320, 1e-6) << collective_name(type);
        EXPECT_NEAR(r.busbw_gbps, 240, 1e-6) << collective_name(type);
        EXPECT_NEAR(r.link_fraction, 0.6, 1e-9) << collective_name(type);  // 240 / 400
    }
    // AllReduce: 80 Gbps x 2 x 3/4 = 120 Gbps.
    EXPECT_NEAR(row(ct::all_reduce, al::ring).busbw_gbps, 120, 1e-6);
    // ReduceScatter, AllToAll, Scatter: 80 x 3/4 = 60 Gbps.
    EXPECT_NEAR(row(ct::reduce_scatter, al::ring).algbw_gbps, 80, 1e-6);
    EXPECT_NEAR(row(ct::reduce_scatter, al::ring).busbw_gbps, 60, 1e-6);
    EXPECT_NEAR(row(ct::all_to_all, al::interleaved).busbw_gbps, 60, 1e-6);
    EXPECT_NEAR(row(ct::scatter, al::direct).busbw_gbps, 60, 1e-6);
    // Broadcast and Reduce: factor 1, 80 Gbps.
    EXPECT_NEAR(row(ct::broadcast, al::interleaved).busbw_gbps, 80, 1e-6);
    EXPECT_NEAR(row(ct::reduce, al::ring).busbw_gbps, 80, 1e-6);
}

TEST(ChakraCollectiveStats, BarrierAndZeroRunTimeHaveNoBandwidth)
{
    const busbw_row barrier = busbw_of(result(ct::barrier, al::tree, 0, 4, 0, 10e-6), 400e9);
    EXPECT_TRUE(std::isnan(barrier.ideal_us));
    EXPECT_EQ(barrier.algbw_gbps, 0);
    EXPECT_EQ(barrier.busbw_gbps, 0);
    EXPECT_EQ(ratio_text(barrier.run_us, barrier.ideal_us), "NA");
    // Run time 0 (end == start): algbw 0, not infinite.
    const busbw_row instant = busbw_of(result(ct::all_reduce, al::ring, 100, 4, 3, 3), 400e9);
    EXPECT_EQ(instant.algbw_gbps, 0);
    EXPECT_EQ(instant.busbw_gbps, 0);
    EXPECT_EQ(instant.link_fraction, 0);
}

TEST(ChakraCollectiveStats, RatioTextDividesOrSaysNA)
{
    EXPECT_EQ(ratio_text(3, 2), "1.5");
    EXPECT_EQ(ratio_text(10, 4), "2.5");
    EXPECT_EQ(ratio_text(1, 0), "NA");
    EXPECT_EQ(ratio_text(1, std::nan("")), "NA");
}

}  // namespace
