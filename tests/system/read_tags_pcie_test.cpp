// Little's law through the real PCIe link: one 4 MiB message (1,024 packets of 4,096 B) from
// host0 to host1 with Pcie.Latency 2 us. A payload read's round trip on the default x16 PCIe 5.0
// link (504.32 Gb/s each way, 512 B transfers with 34 B overhead, a 64 B read request):
//   request (64 + 34) B = 1.555 ns, completions 8 x (512 + 34) B = 69.289 ns, latency 2 x 2 us:
//   R = 4,070.84 ns.
// 8 read tags: 8 x 4,096 B per R = 8.0495 GB/s (64.4 Gb/s, far below the 400 Gb/s wire), so the
// message takes 1,024 / 8 x R = 521.07 us and the host side of the link carries 8.05 GB/s of
// completions. With 64 tags (line rate, 389.9 Gb/s of payload, needs 389.9e9 x R / (4,096 x 8)
// = 48.4) the wire binds again. NSCC is told to pass through, so only the fetch path and the
// wire decide (the window's own limit at this round trip is the congestion controller's story).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

constexpr double round_trip_ns = 4000.0 + 98 * 8 / 504.32 + 8 * 546 * 8 / 504.32;
constexpr double fetch_bytes_per_s = 8 * 4096 / (round_trip_ns * 1e-9);

struct run_result
{
    csv perf, pcie, nd, stats;
};

run_result run(int tags)
{
    const std::string dir = scratch_dir("lt-" + std::to_string(tags));
    const std::string text =
        "Simulation: {Name: lt, NDStatsReportInterval: 20us}\n"
        "Records: {Enabled: [nd-stats, flow-perf, pcie-stats, nic-pipeline-stats]}\n"
        "Topology: {Kind: single-switch, Hosts: 2}\n"
        // The receiving host's posted credits unlimited: this test is about the sender's read
        // tags, and 2 us of latency would make the writes at the receiver credit-bound.
        "Pcie: {Latency: 2us, HostSidePostedHeaderCredits: infinite, "
        "HostSidePostedDataCredits: infinite}\n"
        "UetNic: {PassThrough: true, MaxOutstandingReads: " +
        std::to_string(tags) +
        "}\n"
        "Flows:\n"
        "  - {Src: 0, Dst: 1, Bytes: 4MiB}\n";
    const std::string file = write_file(dir + "/lt.yaml", text);
    const command_result r = run_uetsim({"run", file, "--quiet", "--out", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    return {read_csv(dir + "/lt-flow-perf-0.csv"), read_csv(dir + "/lt-pcie-stats-0.csv"),
            read_csv(dir + "/lt-nd-stats-0.csv"), read_csv(dir + "/lt-nic-pipeline-stats-0.csv")};
}

// The row of `component` (and `key` = `value`) at `t` seconds, or -1.
int row_at(const csv& c, double t, const std::string& component, const std::string& key,
           const std::string& value)
{
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (std::abs(c.num(i, "sim_time_sec") - t) < 1e-9 &&
            c.str(i, "component_name") == component && c.str(i, key) == value)
            return int(i);
    return -1;
}

}  // namespace

TEST(read_tags_pcie, eight_tags_bound_fetch_and_completion_by_tags_times_bytes_over_round_trip)
{
    const run_result r = run(8);
    ASSERT_EQ(r.perf.rows.size(), 1u);
    const double expected_us = 1024.0 / 8 * round_trip_ns * 1e-3;  // 521.07 us
    EXPECT_NEAR(r.perf.num(0, "fct_usec"), expected_us, 0.05 * expected_us);

    // Fetch throughput: the completions the host side sends in full intervals mid-message.
    for (double t : {0.0002, 0.0003, 0.0004}) {
        const int i = row_at(r.pcie, t, "host0", "side", "host");
        ASSERT_GE(i, 0) << t;
        const double rate = r.pcie.num(size_t(i), "ivl_payload_bytes_tx") / 20e-6;
        EXPECT_NEAR(rate, fetch_bytes_per_s, 0.05 * fetch_bytes_per_s) << t;
    }
    // Every tag busy nearly all the time.
    const int last = int(r.stats.rows.size()) - 1;
    int i = last;
    while (i >= 0 && !(r.stats.str(size_t(i), "component_name") == "host0")) --i;
    ASSERT_GE(i, 0);
    EXPECT_EQ(r.stats.num(size_t(i), "read_tags_in_use_max"), 8);
    EXPECT_EQ(r.stats.num(size_t(i), "read_tags_in_use_p99"), 8);
    // The wire idles: host0's port runs at about 64.4 x 4,202 / 4,096 = 66 Gb/s of 400.
    const int nd = row_at(r.nd, 0.0002, "host0", "uldl", "ul");
    ASSERT_GE(nd, 0);
    EXPECT_LT(r.nd.num(size_t(nd), "tx_link_percent_util"), 20);
}

TEST(read_tags_pcie, with_enough_tags_the_wire_binds_again)
{
    const run_result r = run(64);
    // Full intervals mid-message at line rate; the tags in use stay below 64.
    for (double t : {0.00006, 0.00008}) {
        const int i = row_at(r.nd, t, "host0", "uldl", "ul");
        ASSERT_GE(i, 0) << t;
        EXPECT_GT(r.nd.num(size_t(i), "tx_link_percent_util"), 95) << t;
    }
    int i = int(r.stats.rows.size()) - 1;
    while (i >= 0 && !(r.stats.str(size_t(i), "component_name") == "host0")) --i;
    ASSERT_GE(i, 0);
    EXPECT_LT(r.stats.num(size_t(i), "read_tags_in_use_max"), 64);
    EXPECT_GE(r.stats.num(size_t(i), "read_tags_in_use_max"), 48);  // 48.4 needed
    // 1,024 frames of 4,202 B at 400 Gb/s take 86.05 us; the message adds about one read round
    // trip before and the last ACK's way back after.
    EXPECT_LT(r.perf.num(0, "fct_usec"), 86.05 * 1.12);
}
