// The UET NIC transport end to end through the fabric, in process: every test checks the
// scoreboard (every message completes, every byte written exactly once) and reads its outcome
// from the records.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "testbench/run/simulation.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

scenario base()
{
    scenario sc;
    sc.simulation.name = "uet";
    sc.simulation.stop_time_s = 0.05;
    sc.nic.type = nic_kind::uet;
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

void trimming(scenario& sc)
{
    sc.nic.uet.trimming_enabled = true;
    sc.sw.buffer.uet_policy_enabled = true;
    sc.sw.buffer.trimming_enabled = true;
    sc.sw.buffer.enable_pfc.assign(8, 0);  // trimming excludes PFC
}

struct outcome
{
    run_summary summary;
    test::csv perf;
    double rto = 0, rtx = 0, nacks = 0, ooo = 0;
};

// Sums a cumulative uet-transport-stats column over the NICs' last rows.
double last_total(const test::csv& t, const std::string& column)
{
    std::map<std::string, double> last;
    for (size_t i = 0; i < t.rows.size(); ++i) last[t.str(i, "component_name")] = t.num(i, column);
    double sum = 0;
    for (auto& [n, v] : last) sum += v;
    return sum;
}

outcome run(const scenario& sc)
{
    const std::string dir = test::scratch_dir("uet");
    run_options o;
    o.out_dir = dir;
    outcome r;
    r.summary = run_simulation(sc, o);
    EXPECT_TRUE(r.summary.scoreboard_ok) << r.summary.scoreboard_message;
    EXPECT_EQ(r.summary.flows_completed, sc.flows.messages.size());
    r.perf = test::read_csv(dir + "/uet-flow-perf-0.csv");
    test::csv t = test::read_csv(dir + "/uet-uet-transport-stats-0.csv");
    r.rto = last_total(t, "num_rto");
    r.rtx = last_total(t, "num_rtx");
    r.nacks = last_total(t, "nack_pkts_rcvd");
    r.ooo = last_total(t, "num_out_of_order_events_on_nic");
    return r;
}

}  // namespace

TEST(uet_transport, one_16_mib_message_is_within_2_percent_of_ideal)
{
    scenario sc = base();
    add(sc, 0, 8, 16u << 20);
    outcome r = run(sc);
    ASSERT_EQ(r.perf.rows.size(), 1u);
    // 4,096 packets of 4,202 B at 400 Gbps, plus one round trip: the data path
    // (100 + 500 + 500 + 100 ns of propagation, three switches of 500 ns and 84.04 ns) and the
    // 78-byte ACK's way back.
    const double serialization_us = 4096 * 4202 * 8 / 400e3;
    const double data_way_us = 1.2 + 3 * (0.5 + 0.08404);
    const double ack_way_us = 1.2 + 3 * (0.5 + 78 * 8 / 400e3) + 78 * 8 / 400e3;
    const double ideal_us = serialization_us + data_way_us + ack_way_us;
    const double fct = r.perf.num(0, "fct_usec");
    EXPECT_GT(fct, ideal_us * 0.999);
    EXPECT_LT(fct, ideal_us * 1.02) << "ideal " << ideal_us << " us";
    EXPECT_EQ(r.rto, 0);
    EXPECT_EQ(r.rtx, 0);
}

TEST(uet_transport, incast_8_to_1_with_trimming_completes_without_timeouts)
{
    scenario sc = base();
    trimming(sc);
    for (uint32_t s = 1; s <= 8; ++s) add(sc, s, 0, 16u << 20);
    outcome r = run(sc);
    EXPECT_GT(r.summary.packets_trimmed, 0u);
    EXPECT_GT(r.nacks, 0);
    EXPECT_EQ(r.rto, 0);
    // 8 x 16 MiB through host0's 400 Gbps port: at least 8 x 344 us.
    double last = 0;
    for (size_t i = 0; i < r.perf.rows.size(); ++i)
        last = std::max(last, r.perf.num(i, "fct_usec"));
    EXPECT_GT(last, 8 * 344.0);
    EXPECT_LT(last, 8 * 344.0 * 1.25);
}

TEST(uet_transport, permutation_across_leaves)
{
    scenario sc = base();
    for (uint32_t h = 0; h < 16; ++h) add(sc, h, (h + 8) % 16, 2u << 20);
    outcome r = run(sc);
    EXPECT_EQ(r.perf.rows.size(), 16u);
}

TEST(uet_transport, trimming_storm_recovers_every_packet)
{
    scenario sc = base();
    trimming(sc);
    sc.sw.buffer.plane_bdp_bytes = 5 * 4184;  // the trimming limit: a very shallow egress queue
    for (uint32_t s = 1; s < 16; ++s) add(sc, s, 0, 1u << 20);
    outcome r = run(sc);
    EXPECT_GT(r.summary.packets_trimmed, 1000u);
    EXPECT_GE(r.rtx, r.nacks);
}

TEST(uet_transport, link_down_mid_message_completes_through_timeouts)
{
    scenario sc = base();
    add(sc, 0, 8, 8u << 20);
    fault_spec f;
    f.at_s = 20e-6;
    f.link = "leaf0-spine3";
    f.action = fault_action::down;
    sc.faults.push_back(f);
    outcome r = run(sc);
    EXPECT_GT(r.rto, 0);  // packets sprayed onto the dead link are recovered by their timers
    EXPECT_GT(r.rtx, 0);
}

TEST(uet_transport, one_percent_random_loss_on_a_link)
{
    scenario sc = base();
    add(sc, 0, 8, 4u << 20);
    add(sc, 8, 0, 4u << 20);
    fault_spec f;
    f.at_s = 0;
    f.link = "host0-leaf0";
    f.action = fault_action::loss;
    f.loss = 0.01;
    sc.faults.push_back(f);
    outcome r = run(sc);
    EXPECT_GT(r.rto, 5);  // about 1% of 1,024 data packets (and of the ACKs the other way)
    EXPECT_GE(r.rtx, r.rto);
}

TEST(uet_transport, reused_pdc_ids_ignore_late_acks_of_earlier_messages)
{
    // A retransmission timeout below the round trip makes every packet go twice, so duplicate
    // ACKs keep arriving after their message is done and its PDC id has been reused.
    scenario sc = base();
    sc.nic.uet.initial_retransmit_timeout_s = 2e-6;
    sc.nic.uet.max_exponential_rto_backoff_count = 0;
    for (int i = 0; i < 200; ++i) add(sc, 0, 8, 2 * 4096, i * 3e-6);
    outcome r = run(sc);
    EXPECT_GT(r.rtx, 100);  // spurious retransmissions happened
    EXPECT_EQ(r.perf.rows.size(), 200u);
}
