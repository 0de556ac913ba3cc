// A loaded single switch, in process: drop-tail and trimming at an incast egress port, seen
// through the run summary and the nd-stats record.
#include <gtest/gtest.h>

#include "testbench/run/simulation.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

scenario incast(bool trimming)
{
    scenario sc;
    sc.simulation.name = "incast";
    sc.simulation.stop_time_s = 200e-6;
    sc.topology.kind = topology_kind::single_switch;
    sc.topology.hosts = 5;
    sc.nic.type = nic_kind::raw;  // no transport: what the switch drops stays lost
    // A fixed egress limit of 10 data packets: QueueDropThreshold 1 x PlaneBDP 41,840 B
    // without trimming, PlaneBDP under the UET policy with trimming; every class lossy.
    sc.sw.buffer.enable_pfc.assign(8, 0);
    sc.sw.buffer.lossy_alpha = 0;
    sc.sw.buffer.queue_drop_threshold_enable = true;
    sc.sw.buffer.queue_drop_threshold = 1;
    sc.sw.buffer.plane_bdp_bytes = 10 * 4184;
    sc.sw.buffer.uet_policy_enabled = trimming;
    sc.sw.buffer.trimming_enabled = trimming;
    for (uint32_t s = 1; s <= 4; ++s) {
        flow_spec f;
        f.src = s;
        f.dst = 0;
        f.bytes = 64 * 4096;
        sc.flows.messages.push_back(f);
    }
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
