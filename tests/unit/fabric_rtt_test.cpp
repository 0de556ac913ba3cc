// The fabric's unloaded round trip against hand-derived sums (docs/nscc.md#the-fabrics-round-trip).
// At 400 Gbps a full data packet (4096 + 106 = 4202 B) takes 84,040 ps and an ACK (78 B)
// 1,560 ps; the PCIe hold of 4096 + 88 = 4184 B at 16 x 31.52 Gbps is 66,370.6 -> 66,371 ps,
// below one 128 ns step, so the ACK reports 0 and all of it stays in the sample; the receive
// stages take 4 cycles (RxParse) at each end, AckBuild 0: uet_nic_config's own latencies. A
// scenario resolves UetNic.SackUpdateCycles: auto to the SACK tracker's 4 cycles, 8 ns more
// (docs/nscc.md's table and tests/system/initial_base_rtt_test.cpp).
#include <gtest/gtest.h>

#include "testbench/elab/fabric_rtt.h"

using namespace uetsim;

namespace {

// The sections at their defaults: 16 hosts, 8 per leaf, 8 spines, 400 Gbps, 500 ns forwarding.
struct fabric_case
{
    topology_config topo;
    link_config link;
    switch_config sw;
    nic_config nic;
    pcie_config pcie;

    fabric_round_trip rtt() const
    {
        return derive_fabric_rtt(build_topology(topo, link), sw, nic, pcie);
    }
};

fabric_case leaf_spine(double link_delay_s)
{
    fabric_case c;
    c.link.nic_delay_s = link_delay_s;
    c.link.switch_delay_s = link_delay_s;
    return c;
}

}  // namespace

TEST(fabric_rtt, leaf_spine_with_1us_links)
{
    const fabric_round_trip r = leaf_spine(1e-6).rtt();
    const std::vector<std::string> path{"host0", "leaf0", "spine0", "leaf1", "host8"};
    EXPECT_EQ(r.longest_path, path);
    EXPECT_EQ(r.hops(), 4u);
    EXPECT_EQ(r.propagation_ps, 8'000'000u);                  // 4 links each way
    EXPECT_EQ(r.serialization_ps, 3 * 84'040u + 4 * 1'560u);  // not the sender's own data frame
    EXPECT_EQ(r.forwarding_ps, 6 * 500'000u);                 // 3 switches each way
    EXPECT_EQ(r.nic_stages_ps, 8'000u);
    EXPECT_EQ(r.ack_hold_ps, 66'371u);
    // The 8.34 us is 8 us of propagation plus the data and ACK serialized on all four
    // hops (8,342,400 ps): it leaves out the 3 us of forwarding latency, the NIC stages and the
    // PCIe hold, and counts the sender's own serialization, which a sample does not.
    EXPECT_EQ(r.unloaded_rtt_ps, 8'342'400u + 3'000'000u + 8'000u + 66'371u - 84'040u);
    EXPECT_EQ(r.unloaded_rtt_ps, 11'332'731u);
    EXPECT_DOUBLE_EQ(r.unloaded_rtt_s(), 11.332731e-6);
}

TEST(fabric_rtt, default_leaf_spine_is_below_the_6us_default)
{
    const fabric_round_trip r = fabric_case{}.rtt();
    // Links 100 + 500 + 500 + 100 ns each way.
    EXPECT_EQ(r.propagation_ps, 2'400'000u);
    EXPECT_EQ(r.unloaded_rtt_ps, 2'400'000u + 258'360u + 3'000'000u + 8'000u + 66'371u);
    EXPECT_EQ(r.unloaded_rtt_ps, 5'732'731u);
    EXPECT_FALSE(initial_base_rtt_warning(6e-6, r));
}

TEST(fabric_rtt, single_switch_is_two_hops)
{
    fabric_case sc;
    sc.topo.kind = topology_kind::single_switch;
    sc.topo.hosts = 9;
    const fabric_round_trip r = sc.rtt();
    const std::vector<std::string> path{"host0", "switch0", "host1"};
    EXPECT_EQ(r.longest_path, path);
    // Data: 2 x 100 ns + one switch serialization + 500 ns; ACK: 2 x 100 ns + 2 x 1,560 + 500 ns.
    EXPECT_EQ(r.unloaded_rtt_ps, 784'040u + 703'120u + 8'000u + 66'371u);
}

TEST(fabric_rtt, fat_tree_crosses_the_core)
{
    fabric_case sc;
    sc.topo.kind = topology_kind::fat_tree;
    sc.topo.k = 4;  // 16 hosts, 2 per edge switch, 4 pods
    sc.topo.hosts = 16;
    const fabric_round_trip r = sc.rtt();
    ASSERT_EQ(r.hops(), 6u);  // host, edge, agg, core, agg, edge, host
    EXPECT_EQ(r.longest_path.front(), "host0");
    EXPECT_EQ(r.longest_path[3].rfind("core", 0), 0u);
    // Each way 2 x 100 ns + 4 x 500 ns of links and 5 switches at 500 ns; 5 data and 6 ACK
    // serializations.
    EXPECT_EQ(r.propagation_ps, 4'400'000u);
    EXPECT_EQ(r.forwarding_ps, 5'000'000u);
    EXPECT_EQ(r.serialization_ps, 5 * 84'040u + 6 * 1'560u);
    EXPECT_EQ(r.unloaded_rtt_ps, 4'400'000u + 5'000'000u + 429'560u + 8'000u + 66'371u);
}

TEST(fabric_rtt, a_long_pcie_hold_leaves_only_its_part_below_128ns)
{
    fabric_case sc = leaf_spine(1e-6);
    sc.pcie.nic_side_lanes = 1;  // 4184 B at 31.52 Gbps: 1,061,929 ps, reported as 8 x 128 ns
    EXPECT_EQ(sc.rtt().ack_hold_ps, 1'061'929u - 1'024'000u);
}

TEST(fabric_rtt, stages_mss_and_rate_enter)
{
    fabric_case sc = leaf_spine(1e-6);
    sc.nic.uet.rdma_data_mss = 1024;  // 1130 B data: 22,600 ps; hold 1112 B: 17,640 ps
    sc.nic.uet.pdc_lookup.cycles = 10;
    sc.nic.uet.ack_build.cycles = 3;
    const fabric_round_trip r = sc.rtt();
    EXPECT_EQ(r.serialization_ps, 3 * 22'600u + 4 * 1'560u);
    EXPECT_EQ(r.nic_stages_ps, 2 * 14'000u + 3'000u);
    EXPECT_EQ(r.ack_hold_ps, 17'640u);
}

TEST(fabric_rtt, one_host_has_no_path)
{
    fabric_case sc;
    sc.topo.kind = topology_kind::single_switch;
    sc.topo.hosts = 1;
    const fabric_round_trip r = sc.rtt();
    EXPECT_TRUE(r.longest_path.empty());
    EXPECT_FALSE(initial_base_rtt_warning(1e-9, r));
}

TEST(fabric_rtt, warning_names_the_key_both_values_and_auto)
{
    const fabric_round_trip r = leaf_spine(1e-6).rtt();
    const auto w = initial_base_rtt_warning(6e-6, r);
    ASSERT_TRUE(w);
    EXPECT_NE(w->find("UetNic.InitialBaseRTT: 6us"), std::string::npos) << *w;
    EXPECT_NE(w->find("11.332731us"), std::string::npos) << *w;
    EXPECT_NE(w->find("auto"), std::string::npos) << *w;
    EXPECT_EQ(w->find('\n'), std::string::npos);
    EXPECT_FALSE(initial_base_rtt_warning(11.332731e-6, r));  // equal: no warning
}

// Links of a tier that differ (Link[glob]): the slowest pair of hosts 4 hops apart. From
// leaf_spine_with_1us_links' 11,332,731 ps: host15's link at 3 us adds 2 us each way to every
// pair it ends; host5's link at 200 Gbps adds, as the receiver, its data frame's second half
// (168,080 - 84,040 ps) and its ACK's (3,120 - 1,560 ps), and as the sender only the ACK's
// (its own data serialization is not in a sample).
TEST(fabric_rtt, a_slower_host_link_makes_the_slowest_pair_the_fabrics_round_trip)
{
    const fabric_case c = leaf_spine(1e-6);
    topology t = build_topology(c.topo, c.link);
    t.links[t.devices[15].ports[0].link].delay_s = 3e-6;
    fabric_round_trip r = derive_fabric_rtt(t, c.sw, c.nic, c.pcie);
    EXPECT_EQ(r.propagation_ps, 12'000'000u);
    EXPECT_EQ(r.unloaded_rtt_ps, 11'332'731u + 4'000'000u);
    const std::vector<std::string> delayed{"host15", "leaf1", "spine0", "leaf0", "host0"};
    EXPECT_EQ(r.longest_path, delayed);

    topology u = build_topology(c.topo, c.link);
    u.links[u.devices[5].ports[0].link].rate_bps = 200e9;
    r = derive_fabric_rtt(u, c.sw, c.nic, c.pcie);
    EXPECT_EQ(r.serialization_ps, 3 * 84'040u + 4 * 1'560u + 84'040u + 1'560u);
    EXPECT_EQ(r.unloaded_rtt_ps, 11'332'731u + 85'600u);
    const std::vector<std::string> slow{"host8", "leaf1", "spine0", "leaf0", "host5"};
    EXPECT_EQ(r.longest_path, slow);
}
