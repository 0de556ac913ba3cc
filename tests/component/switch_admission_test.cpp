// A loaded single switch, in process: drop-tail and trimming at an incast egress port, seen
// through the run summary and the nd-stats record.
#include <gtest/gtest.h>

#include "testbench/run/simulation.h"
#include "tests/support/lossy_incast.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

// The fixed 10-packet limit without trimming; under the UET policy with trimming, PlaneBDP.
scenario incast(bool trimming)
{
    scenario sc = test::lossy_incast("incast");
    sc.sw.buffer.uet_policy_enabled = trimming;
    sc.sw.buffer.trimming_enabled = trimming;
    return sc;
}

uint64_t port0_tx_packets(const std::string& dir)
{
    auto nd = test::read_csv(dir + "/incast-nd-stats-0.csv");
    double v = -1;
    for (size_t i = 0; i < nd.rows.size(); ++i)
        if (nd.str(i, "component_name") == "switch0" && nd.str(i, "ifid") == "0")
            v = nd.num(i, "total_packets_tx");  // the last row is the end of the run
    return uint64_t(v);
}

}  // namespace

TEST(switch_admission, drop_tail_without_trimming)
{
    const std::string dir = test::scratch_dir("droptail");
    run_options o;
    o.out_dir = dir;
    run_summary s = run_simulation(incast(false), o);
    // 4 x 64 packets converge on one 400 Gbps port: 3/4 of what arrives beyond the queue is lost.
    EXPECT_GT(s.packets_dropped, 100u);
    EXPECT_EQ(s.packets_trimmed, 0u);
    EXPECT_EQ(port0_tx_packets(dir), 256u - s.packets_dropped);
    EXPECT_FALSE(s.scoreboard_ok);  // NIC-less flows cannot recover lost packets
    EXPECT_NE(s.scoreboard_message.find("bytes arrived"), std::string::npos);
}

TEST(switch_admission, trimming_forwards_headers_instead_of_dropping)
{
    const std::string dir = test::scratch_dir("trim");
    run_options o;
    o.out_dir = dir;
    run_summary s = run_simulation(incast(true), o);
    EXPECT_GT(s.packets_trimmed, 100u);
    EXPECT_EQ(s.packets_dropped, 0u);
    // Every packet leaves the port, whole or as a 62-byte trimmed header.
    EXPECT_EQ(port0_tx_packets(dir), 256u);
}
