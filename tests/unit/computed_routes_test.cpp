// Computed routes (leaf-spine, fat-tree) against the breadth-first build they replace: the same
// sets, numbered alike, the same members in the same order, the same set for every host. The
// records (scala-switch-load-balancing-stats) name sets and members by these numbers.
#include <gtest/gtest.h>

#include <string>

#include "testbench/elab/computed_routes.h"
#include "testbench/elab/topology.h"

using namespace uetsim;

namespace {

// Adds the number of (switch, host) routes compared to `compared`.
void expect_same_routes(const topology_config& c, size_t& compared)
{
    const topology t = build_topology(c, link_config{});
    EXPECT_TRUE(has_computed_routes(t));
    const std::vector<routing_table> bfs = build_routes_bfs(t);
    const std::vector<routing_table> computed = build_routes(t);
    EXPECT_EQ(computed.size(), bfs.size());
    for (size_t s = 0; s < bfs.size() && s < computed.size(); ++s) {
        const routing_table& a = bfs[s];
        const routing_table& b = computed[s];
        const std::string where = t.devices[t.hosts + s].name;
        EXPECT_TRUE(b.computed()) << where;
        EXPECT_FALSE(a.computed()) << where;
        ASSERT_EQ(b.set_count(), a.set_count()) << where;
        EXPECT_EQ(b.member_slots(), a.member_slots()) << where;
        for (int32_t set = 0; set < int32_t(a.set_count()); ++set) {
            ASSERT_EQ(b.set_size(set), a.set_size(set)) << where << " set " << set;
            for (size_t m = 0; m < a.set_size(set); ++m) {
                EXPECT_EQ(b.member_port(set, m), a.member_port(set, m))
                    << where << " set " << set << " member " << m;
                EXPECT_EQ(b.member_slot(set, m), a.member_slot(set, m)) << where;
            }
        }
        for (uint32_t h = 0; h < t.hosts + 3; ++h) {
            EXPECT_EQ(b.set_of(h), a.set_of(h)) << where << " host " << h;
            ++compared;
        }
        EXPECT_EQ(b.set_of(UINT32_MAX), routing_table::no_route) << where;
    }
}

topology_config leaf_spine(uint32_t hosts, uint32_t per_leaf, uint32_t spines, uint32_t ups)
{
    topology_config c;
    c.kind = topology_kind::leaf_spine;
    c.hosts = hosts;
    c.hosts_per_leaf = per_leaf;
    c.spines = spines;
    c.uplinks_per_spine = ups;
    return c;
}

topology_config fat_tree(uint32_t k)
{
    topology_config c;
    c.kind = topology_kind::fat_tree;
    c.k = k;
    c.hosts = k * k * k / 4;
    return c;
}

}  // namespace

TEST(computed_routes, leaf_spine_equals_the_breadth_first_build)
{
    // One leaf (no uplink set), leaves of one host, parallel uplinks, more spines than hosts.
    const topology_config shapes[] = {
        leaf_spine(16, 8, 8, 1),   leaf_spine(8, 8, 4, 1),   leaf_spine(1, 1, 1, 1),
        leaf_spine(6, 1, 3, 2),    leaf_spine(24, 4, 2, 4),  leaf_spine(60, 12, 5, 3),
        leaf_spine(64, 16, 16, 1), leaf_spine(32, 2, 1, 16), leaf_spine(96, 32, 7, 2),
    };
    size_t compared = 0;
    for (const auto& c : shapes) expect_same_routes(c, compared);
    EXPECT_GT(compared, 1000u);  // the loops ran
}

TEST(computed_routes, fat_tree_equals_the_breadth_first_build)
{
    size_t compared = 0;
    for (uint32_t k : {2u, 4u, 6u, 8u, 16u}) expect_same_routes(fat_tree(k), compared);
    EXPECT_GT(compared, 320u * (1024u + 3u));  // K = 16: 320 switches
}

TEST(computed_routes, single_switch_keeps_the_table_per_host)
{
    topology_config c;
    c.kind = topology_kind::single_switch;
    c.hosts = 5;
    const topology t = build_topology(c, link_config{});
    EXPECT_FALSE(has_computed_routes(t));
    const auto routes = build_routes(t);
    ASSERT_EQ(routes.size(), 1u);
    EXPECT_FALSE(routes[0].computed());
    EXPECT_EQ(routes[0].set_count(), 5u);
}

TEST(computed_routes, a_switch_holds_its_sets_not_a_word_per_host)
{
    // K = 16: an edge switch has 8 host sets and one uplink set of 8 (16 members), a core one
    // set per pod: the table no longer grows with the 1,024 hosts.
    const topology t = build_topology(fat_tree(16), link_config{});
    const routing_table edge = computed_routes(t, 0);
    EXPECT_EQ(edge.set_count(), 9u);
    EXPECT_EQ(edge.member_slots(), 16u);
    EXPECT_LT(edge.bytes(), 256u);  // against 4 KB for the table per host
    const routing_table core = computed_routes(t, 16 * 8 * 2);
    EXPECT_EQ(core.set_count(), 16u);
    EXPECT_EQ(core.set_of(1023), 15);
    EXPECT_EQ(core.set_of(1024), routing_table::no_route);
    EXPECT_GE(build_routes_bfs(t)[0].bytes(), 1024u * sizeof(int32_t));
}
