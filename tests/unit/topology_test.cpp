// Topology builders and routing tables, without the kernel.
#include <gtest/gtest.h>

#include "testbench/elab/topology.h"

using namespace uetsim;

TEST(topology, leaf_spine_devices_links_and_names)
{
    topology_config c;  // 16 hosts, 8 per leaf, 8 spines
    topology t = build_topology(c, link_config{});
    EXPECT_EQ(t.hosts, 16u);
    EXPECT_EQ(t.switch_count(), 10u);      // 2 leaves + 8 spines
    EXPECT_EQ(t.links.size(), 16u + 16u);  // host links + 2 x 8 uplinks
    EXPECT_EQ(t.devices[16].name, "leaf0");
    EXPECT_EQ(t.devices[18].name, "spine0");
    EXPECT_GE(t.find_link("host3-leaf0"), 0);
    EXPECT_GE(t.find_link("leaf1-spine7"), 0);
    EXPECT_EQ(t.find_link("leaf0-host3"), -1);  // lower tier first
    EXPECT_DOUBLE_EQ(t.links[size_t(t.find_link("host3-leaf0"))].delay_s, 100e-9);
    EXPECT_DOUBLE_EQ(t.links[size_t(t.find_link("leaf0-spine2"))].delay_s, 500e-9);
}

TEST(topology, leaf_spine_routes_spread_over_every_spine)
{
    topology_config c;
    topology t = build_topology(c, link_config{});
    auto routes = build_routes(t);
    const routing_table& leaf0 = routes[0];
    // Local hosts: one port each. Remote hosts: the 8 uplinks, as one shared set.
    EXPECT_EQ(leaf0.set_size(leaf0.set_of(3)), 1u);
    EXPECT_EQ(leaf0.member_port(leaf0.set_of(3), 0), 3u);
    const int32_t remote = leaf0.set_of(8);
    EXPECT_EQ(leaf0.set_size(remote), 8u);
    EXPECT_EQ(leaf0.set_of(15), remote);
    for (size_t m = 0; m < 8; ++m) EXPECT_EQ(leaf0.member_port(remote, m), 8 + m);
    // A spine reaches each host through the one leaf above it.
    const routing_table& spine0 = routes[2];
    EXPECT_EQ(spine0.set_size(spine0.set_of(0)), 1u);
    EXPECT_EQ(spine0.member_port(spine0.set_of(0), 0), 0u);
    EXPECT_EQ(spine0.member_port(spine0.set_of(9), 0), 1u);
}

TEST(topology, parallel_uplinks_are_named_and_routed)
{
    topology_config c;
    c.spines = 2;
    c.uplinks_per_spine = 2;
    topology t = build_topology(c, link_config{});
    EXPECT_GE(t.find_link("leaf0-spine1.1"), 0);
    auto routes = build_routes(t);
    EXPECT_EQ(routes[0].set_size(routes[0].set_of(8)), 4u);
    EXPECT_EQ(routes[2].set_size(routes[2].set_of(8)), 2u);  // spine0 down to leaf1: 2 links
}

TEST(topology, fat_tree_k4)
{
    topology_config c;
    c.kind = topology_kind::fat_tree;
    c.k = 4;
    topology t = build_topology(c, link_config{});
    EXPECT_EQ(t.hosts, 16u);
    EXPECT_EQ(t.switch_count(), 8u + 8u + 4u);
    EXPECT_EQ(t.links.size(), 16u + 16u + 16u);
    auto routes = build_routes(t);
    // edge0 (hosts 0,1): host 2 is in the same pod -> 2 aggs; host 15 elsewhere -> 2 aggs.
    EXPECT_EQ(routes[0].set_size(routes[0].set_of(2)), 2u);
    EXPECT_EQ(routes[0].set_size(routes[0].set_of(1)), 1u);
    // agg0 towards another pod: 2 cores; towards its own pod's host: 1 edge.
    const routing_table& agg0 = routes[8];
    EXPECT_EQ(agg0.set_size(agg0.set_of(15)), 2u);
    EXPECT_EQ(agg0.set_size(agg0.set_of(0)), 1u);
    // core0 reaches every pod through one agg.
    EXPECT_EQ(routes[16].set_size(routes[16].set_of(15)), 1u);
    EXPECT_EQ(t.devices[t.hosts + 16].name, "core0");
    EXPECT_EQ(t.devices[t.hosts + 16].tier, tier_spine);
}

TEST(topology, single_switch)
{
    topology_config c;
    c.kind = topology_kind::single_switch;
    c.hosts = 5;
    topology t = build_topology(c, link_config{});
    EXPECT_EQ(t.switch_count(), 1u);
    EXPECT_EQ(t.devices[5].name, "switch0");
    EXPECT_GE(t.find_link("host4-switch0"), 0);
    auto routes = build_routes(t);
    for (uint32_t h = 0; h < 5; ++h) EXPECT_EQ(routes[0].member_port(routes[0].set_of(h), 0), h);
}

TEST(routing_table, identical_port_lists_share_one_set)
{
    routing_table rt;
    rt.add_route(0, {3, 1, 2});
    rt.add_route(1, {1, 2, 3});
    rt.add_route(2, {4});
    EXPECT_EQ(rt.set_of(0), rt.set_of(1));
    EXPECT_NE(rt.set_of(0), rt.set_of(2));
    EXPECT_EQ(rt.set_count(), 2u);
    EXPECT_EQ(rt.member_port(rt.set_of(0), 0), 1u);  // sorted
    EXPECT_EQ(rt.set_of(99), routing_table::no_route);
}
