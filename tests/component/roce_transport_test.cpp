// The RoCE NIC transport end to end through the fabric (default topology: 16 hosts, two
// leaves), in process: Flows messages each on a queue pair of their own, judged by the
// scoreboard (every message completes, every byte written exactly once) and flow-perf.
#include <gtest/gtest.h>

#include <algorithm>

#include "testbench/run/simulation.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

scenario base()
{
    scenario sc;
    sc.simulation.name = "roce";
    sc.simulation.stop_time_s = 0.05;
    sc.nic.type = nic_kind::roce;
    return sc;
}

void add(scenario& sc, uint32_t src, uint32_t dst, uint64_t bytes, double start = 0)
{
    flow_spec f;
    f.src = src;
    f.dst = dst;
    f.bytes = bytes;
    f.start_s = start;
    sc.flows.messages.push_back(f);
}

struct outcome
{
    run_summary summary;
    test::csv perf;
};

outcome run(const scenario& sc)
{
    const std::string dir = test::scratch_dir("roce");
    run_options o;
    o.out_dir = dir;
    outcome r;
    r.summary = run_simulation(sc, o);
    EXPECT_TRUE(r.summary.scoreboard_ok) << r.summary.scoreboard_message;
    EXPECT_EQ(r.summary.flows_completed, sc.flows.messages.size());
    r.perf = test::read_csv(dir + "/roce-flow-perf-0.csv");
    return r;
}

}  // namespace

TEST(roce_transport, one_16_mib_message_is_within_2_percent_of_ideal)
{
    scenario sc = base();
    add(sc, 0, 8, 16u << 20);
    outcome r = run(sc);
    ASSERT_EQ(r.perf.rows.size(), 1u);
    // 4,096 packets of 4,154 B at 400 Gbps, generation's 80 ns, and one round trip: the data
    // path (100 + 500 + 500 + 100 ns of propagation, three switches of 500 ns and 83.08 ns) and
    // the 126-byte ACK's way back.
    const double serialization_us = 4096 * 4154 * 8 / 400e3;
    const double data_way_us = 1.2 + 3 * (0.5 + 0.08308);
    const double ack_way_us = 1.2 + 3 * (0.5 + 126 * 8 / 400e3) + 126 * 8 / 400e3;
    const double ideal_us = 0.08 + serialization_us + data_way_us + ack_way_us;
    const double fct = r.perf.num(0, "fct_usec");
    EXPECT_GT(fct, ideal_us * 0.999);
    EXPECT_LT(fct, ideal_us * 1.02) << "ideal " << ideal_us << " us";
    EXPECT_EQ(r.summary.data_packets_sent, 4096u);
}

TEST(roce_transport, permutation_across_leaves_and_an_incast_complete)
{
    scenario sc = base();
    for (uint32_t h = 0; h < 16; ++h) add(sc, h, (h + 8) % 16, 2u << 20);
    for (uint32_t s = 1; s <= 8; ++s) add(sc, s, 0, 1u << 20, 0.001);
    outcome r = run(sc);
    EXPECT_EQ(r.perf.rows.size(), 24u);
}

TEST(roce_transport, random_loss_both_ways_is_recovered_by_naks_and_timers)
{
    // 2% of the frames on host 0's link lost, data and ACKs, NAKs and CNPs alike: gaps draw NAKs,
    // lost NAKs, lost last packets and lost ACKs of last packets wait for the transport timer
    // (shortened from 64 ms so the run stays short; it has no retry limit).
    scenario sc = base();
    sc.nic.roce.retransmit_timeout_s = 50e-6;
    add(sc, 0, 8, 4u << 20);
    add(sc, 8, 0, 4u << 20);
    for (int i = 0; i < 20; ++i) add(sc, 0, 9, 3 * 4096, i * 5e-6);
    fault_spec f;
    f.at_s = 0;
    f.link = "host0-leaf0";
    f.action = fault_action::loss;
    f.loss = 0.02;
    sc.faults.push_back(f);
    const std::string dir = test::scratch_dir("roce-loss");
    run_options o;
    o.out_dir = dir;
    const run_summary s = run_simulation(sc, o);
    EXPECT_TRUE(s.scoreboard_ok) << s.scoreboard_message;
    EXPECT_EQ(s.flows_completed, sc.flows.messages.size());
    // 2% of about 2,100 data packets each way: retransmissions happened.
    EXPECT_GT(s.data_packets_sent, 2 * 1024u + 60);
}
