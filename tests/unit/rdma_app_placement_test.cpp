// RDMA application placement and pairing (pure logic), with the page's 16-host examples.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "testbench/traffic/app/placement.h"

using namespace uetsim;

namespace {

placement place16(double ir, double rr, uint64_t seed = 18760)
{
    placement_config c;
    c.initiator_ratio = ir;
    c.responder_ratio = rr;
    c.hosts = 16;
    c.seed = seed;
    return place(c);
}

// Invariants every placement must keep.
void check_invariants(const placement& p, uint32_t hosts)
{
    std::set<uint32_t> ini(p.initiators.begin(), p.initiators.end());
    std::set<uint32_t> res(p.responders.begin(), p.responders.end());
    EXPECT_EQ(ini.size() + res.size(), hosts);  // every host runs exactly one component
    for (uint32_t h : ini) EXPECT_EQ(res.count(h), 0u) << "host " << h << " runs both";
    std::set<uint32_t> paired_ini, paired_res;
    for (auto [i, r] : p.pairs) {
        EXPECT_NE(i, r) << "host pairs with itself";
        EXPECT_EQ(ini.count(i), 1u);
        EXPECT_EQ(res.count(r), 1u);
        paired_ini.insert(i);
        paired_res.insert(r);
    }
    EXPECT_EQ(paired_ini, ini);  // every Initiator has a Responder
    EXPECT_EQ(paired_res, res);  // every Responder has an Initiator
    EXPECT_TRUE(std::is_sorted(p.pairs.begin(), p.pairs.end()));
}

}  // namespace

TEST(rdma_app_placement, even_split_16_hosts)
{
    host_counts n = count_hosts(16, 0.5, 0.5);
    EXPECT_EQ(n.initiators, 8u);
    EXPECT_EQ(n.responders, 8u);
    placement p = place16(0.5, 0.5);
    EXPECT_EQ(p.initiators.size(), 8u);
    EXPECT_EQ(p.responders.size(), 8u);
    ASSERT_EQ(p.pairs.size(), 8u);
    std::set<uint32_t> res;
    for (auto [i, r] : p.pairs) res.insert(r);
    EXPECT_EQ(res.size(), 8u);  // rule 1: each Initiator a different Responder
    check_invariants(p, 16);
}

TEST(rdma_app_placement, top_up_goes_to_the_initiator_first)
{
    // floor(14.4) = 14, floor(1.6) = 1; both below their ratio, the Initiator takes the host.
    host_counts n = count_hosts(16, 0.9, 0.1);
    EXPECT_EQ(n.initiators, 15u);
    EXPECT_EQ(n.responders, 1u);
    placement p = place16(0.9, 0.1);
    ASSERT_EQ(p.pairs.size(), 15u);
    for (auto [i, r] : p.pairs) EXPECT_EQ(r, p.responders[0]);  // rule 2
    check_invariants(p, 16);
}

TEST(rdma_app_placement, more_responders_than_initiators)
{
    host_counts n = count_hosts(16, 0.25, 0.75);
    EXPECT_EQ(n.initiators, 4u);
    EXPECT_EQ(n.responders, 12u);
    placement p = place16(0.25, 0.75);
    ASSERT_EQ(p.pairs.size(), 12u);  // 4 by rule 1, 8 more by rule 3
    check_invariants(p, 16);
}

TEST(rdma_app_placement, at_least_one_host_and_round_robin_top_up)
{
    // floor(0.05 x 10) = 0 -> 1 for a ratio above 0.
    host_counts a = count_hosts(10, 0.95, 0.05);
    EXPECT_EQ(a.initiators, 9u);
    EXPECT_EQ(a.responders, 1u);
    // 7 hosts at 0.5/0.5: floors 3 + 3, the Initiator takes the 7th.
    host_counts b = count_hosts(7, 0.5, 0.5);
    EXPECT_EQ(b.initiators, 4u);
    EXPECT_EQ(b.responders, 3u);
    // 0.7 x 10 is 7.000000000000001 in binary; no top-up beyond the ratio.
    host_counts c = count_hosts(10, 0.7, 0.3);
    EXPECT_EQ(c.initiators, 7u);
    EXPECT_EQ(c.responders, 3u);
    // Two hosts always give one of each.
    host_counts d = count_hosts(2, 0.99, 0.01);
    EXPECT_EQ(d.initiators, 1u);
    EXPECT_EQ(d.responders, 1u);
}

TEST(rdma_app_placement, hosts_are_spread_over_topology_order)
{
    auto [ini, res] = assign_hosts(16, 8);
    EXPECT_EQ(ini, (std::vector<uint32_t>{0, 2, 4, 6, 8, 10, 12, 14}));
    EXPECT_EQ(res, (std::vector<uint32_t>{1, 3, 5, 7, 9, 11, 13, 15}));
    auto [ini4, res4] = assign_hosts(16, 4);
    EXPECT_EQ(ini4, (std::vector<uint32_t>{0, 4, 8, 12}));
    EXPECT_EQ(res4.size(), 12u);
    auto [ini15, res15] = assign_hosts(16, 15);
    EXPECT_EQ(res15, (std::vector<uint32_t>{15}));
}

TEST(rdma_app_placement, pairing_is_deterministic_per_seed)
{
    placement a = place16(0.5, 0.5, 18760);
    placement b = place16(0.5, 0.5, 18760);
    placement c = place16(0.5, 0.5, 1);
    EXPECT_EQ(a.pairs, b.pairs);
    EXPECT_NE(a.pairs, c.pairs);
    placement d = place16(0.25, 0.75, 18760);
    placement e = place16(0.25, 0.75, 18760);
    placement f = place16(0.25, 0.75, 7);
    EXPECT_EQ(d.pairs, e.pairs);
    EXPECT_NE(d.pairs, f.pairs);
}

TEST(rdma_app_placement, invariants_hold_over_many_seeds_and_sizes)
{
    const double ratios[][2] = {{0.5, 0.5}, {0.9, 0.1}, {0.25, 0.75}, {0.1, 0.9}, {0.6, 0.4}};
    for (uint32_t hosts : {2u, 3u, 5u, 16u, 64u}) {
        for (auto& r : ratios) {
            for (uint64_t seed = 0; seed < 20; ++seed) {
                placement_config c{r[0], r[1], hosts, seed};
                placement p = place(c);
                size_t expected = std::max(p.initiators.size(), p.responders.size());
                EXPECT_EQ(p.pairs.size(), expected);
                check_invariants(p, hosts);
            }
        }
    }
}

TEST(rdma_app_placement, bad_ratios_are_rejected_by_key_and_value)
{
    auto errs = validate_placement({0.6, 0.6, 16, 1});
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_NE(errs[0].find("add up to 1"), std::string::npos);
    EXPECT_NE(errs[0].find("1.2"), std::string::npos);

    errs = validate_placement({0.0, 1.0, 16, 1});
    ASSERT_FALSE(errs.empty());
    EXPECT_NE(errs[0].find("RdmaApplication.InitiatorRatio = 0"), std::string::npos);

    errs = validate_placement({1.5, -0.5, 16, 1});
    ASSERT_EQ(errs.size(), 2u);
    EXPECT_NE(errs[0].find("RdmaApplication.InitiatorRatio = 1.5"), std::string::npos);
    EXPECT_NE(errs[1].find("RdmaApplication.ResponderRatio = -0.5"), std::string::npos);

    errs = validate_placement({0.5, 0.5, 1, 1});
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_NE(errs[0].find("Topology.Hosts = 1"), std::string::npos);

    // Within 1e-9 of 1 is accepted.
    EXPECT_TRUE(validate_placement({0.3, 0.7 + 5e-10, 16, 1}).empty());
    EXPECT_TRUE(validate_placement({0.1 + 0.2, 0.7, 16, 1}).empty());

    EXPECT_THROW(place({0.5, 0.4, 16, 1}), std::invalid_argument);
}
