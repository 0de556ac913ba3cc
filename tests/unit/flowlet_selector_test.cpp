// Flowlet member selection (the switch pages' "Dynamic load balancing (flowlet)"), by hand: one
// set of 4 members on ports 1..4, occupancies and pauses set by the test. The flows use the
// unsalted `hash` method so their slots can be worked out on paper: 10.0.0.1 -> 10.0.0.2, UDP
// destination port 4793 (0x12B9), source port S: h = fold16(0x00000003 ^ (S << 16 | 0x12B9))
// = S ^ 0x12BA; slot = h mod 512. S = 0x1000 gives h 0x02BA, slot 186; S = 0x1200 gives h 0x00BA,
// also slot 186 (a collision); S = 0x1001 gives h 0x02BB, slot 187. No kernel.
#include <gtest/gtest.h>

#include <array>
#include <set>

#include "hw/switch/flowlet_selector.h"

using namespace uetsim;

namespace {

constexpr uint64_t us = 1'000'000;  // ps
constexpr uint64_t gap = 100 * us;

class fake_view : public member_view
{
public:
    // Ports up to 130: the 128-set test's members (UBSan caught an 8-port view read out of range).
    std::array<uint64_t, 256> bytes{};
    std::array<bool, 256> paused_port{};
    uint64_t egress_bytes(uint16_t port) const override { return bytes[port]; }
    bool paused(uint16_t port, uint8_t tc) const override
    {
        EXPECT_EQ(tc, 3);  // the packet's class is what the query names
        return paused_port[port];
    }
    void set(std::array<uint64_t, 4> b)
    {
        for (size_t i = 0; i < 4; ++i) bytes[i + 1] = b[i];
    }
};

packet flow(uint16_t sport)
{
    packet p;
    p.ip.protocol = 17;
    p.ip.src = 0x0A000001u;
    p.ip.dst = 0x0A000002u;
    p.udp.src_port = sport;
    p.udp.dst_port = 4793;
    return p;
}

struct bench
{
    routing_table routes;
    fake_view view;
    flowlet_selector sel;

    explicit bench(flowlet_config cfg = {gap, true}, uint64_t seed = 1)
        : routes(make_routes()), sel(ecmp_hash_method::hash, 0, cfg, routes, view, {seed, "t"})
    {
    }
    static routing_table make_routes()
    {
        routing_table r;
        r.add_route(0, {1, 2, 3, 4});
        return r;
    }
    // A packet of flow `sport` at `t_ps`, admitted.
    size_t send(uint16_t sport, uint64_t t_ps)
    {
        const size_t m = sel.select(flow(sport), 3, 0, 4, t_ps);
        sel.admitted(t_ps);
        return m;
    }
    const flowlet_selector::member_stats& stats(size_t member) const
    {
        return sel.stats(routes.member_slot(0, member));
    }
};

const uint16_t flow_a = 0x1000, flow_b = 0x1200, flow_c = 0x1001;

}  // namespace

TEST(flowlet_selector, the_hand_computed_slots)
{
    EXPECT_EQ(flow_hash16(ecmp_hash_method::hash, flow_key_of(flow(flow_a)), 0), 0x02BA);
    EXPECT_EQ(flow_hash16(ecmp_hash_method::hash, flow_key_of(flow(flow_b)), 0), 0x00BA);
    EXPECT_EQ(flow_hash16(ecmp_hash_method::hash, flow_key_of(flow(flow_c)), 0), 0x02BB);
    EXPECT_EQ(0x02BA % 512, 0x00BA % 512);
}

TEST(flowlet_selector, an_empty_slot_takes_the_least_occupied_member)
{
    bench b;
    EXPECT_EQ(b.sel.flow_table_slots(0), 0u);  // not seen yet
    b.view.set({300, 100, 200, 400});
    EXPECT_EQ(b.send(flow_a, 0), 1u);  // port 2, 100 bytes
    EXPECT_EQ(b.sel.flow_table_slots(0), 512u);
    EXPECT_EQ(b.stats(1).assignments, 1u);
    EXPECT_EQ(b.stats(0).assignments + b.stats(2).assignments + b.stats(3).assignments, 0u);
}

TEST(flowlet_selector, the_same_flowlet_stays_on_its_member)
{
    bench b;
    b.view.set({300, 100, 200, 400});
    b.send(flow_a, 0);
    b.view.set({0, 900, 0, 0});                              // its member is now the busiest
    for (uint64_t t = 60 * us; t < 1000 * us; t += 60 * us)  // never idle for 100 us
        EXPECT_EQ(b.send(flow_a, t), 1u) << t;
    EXPECT_EQ(b.stats(1).assignments, 1u);
    EXPECT_EQ(b.stats(1).movements_out, 0u);
}

TEST(flowlet_selector, a_gap_of_at_least_gap_moves_to_the_least_occupied)
{
    bench b;
    b.view.set({300, 100, 200, 400});
    b.send(flow_a, 0);
    b.view.set({300, 900, 50, 400});
    EXPECT_EQ(b.send(flow_a, gap - 1), 1u);      // 99.999999 us idle: same flowlet
    EXPECT_EQ(b.send(flow_a, 2 * gap - 1), 2u);  // exactly Gap since the last admitted packet
    EXPECT_EQ(b.stats(1).movements_out, 1u);
    EXPECT_EQ(b.stats(2).movements_in, 1u);
    EXPECT_EQ(b.stats(2).assignments, 0u);  // a move, not an assignment
}

TEST(flowlet_selector, a_reselection_keeps_a_current_member_tied_at_the_least)
{
    bench b;
    b.view.set({300, 100, 200, 400});
    b.send(flow_a, 0);
    b.view.set({0, 0, 0, 0});
    EXPECT_EQ(b.send(flow_a, 5 * gap), 1u);
    EXPECT_EQ(b.stats(1).movements_out, 0u);
    for (size_t m = 0; m < 4; ++m) EXPECT_EQ(b.stats(m).movements_in, 0u);
}

TEST(flowlet_selector, a_dropped_packet_leaves_member_and_time_as_they_were)
{
    bench b;
    b.view.set({300, 100, 200, 400});
    // The first packet is dropped: the slot stays empty and the next one is assigned afresh.
    EXPECT_EQ(b.sel.select(flow(flow_a), 3, 0, 4, 0), 1u);
    b.view.set({300, 400, 100, 400});
    EXPECT_EQ(b.send(flow_a, 10 * us), 2u);
    EXPECT_EQ(b.stats(1).assignments, 0u);
    EXPECT_EQ(b.stats(2).assignments, 1u);
    // Admitted at 10 us; a packet at 80 us is dropped, so it does not extend the flowlet: at
    // 110 us the flow has been idle for Gap as far as the table knows, and is selected again.
    b.view.set({0, 400, 900, 400});
    EXPECT_EQ(b.sel.select(flow(flow_a), 3, 0, 4, 80 * us), 2u);
    EXPECT_EQ(b.send(flow_a, 110 * us), 0u);
    EXPECT_EQ(b.stats(2).movements_out, 1u);
    EXPECT_EQ(b.stats(0).movements_in, 1u);
}

TEST(flowlet_selector, flows_that_share_a_slot_move_together)
{
    bench b;
    b.view.set({300, 100, 200, 400});
    b.send(flow_a, 0);
    b.view.set({0, 900, 0, 0});
    // flow_b hashes to the same slot: it takes flow_a's member, and keeps the slot's flowlet
    // alive for both.
    EXPECT_EQ(b.send(flow_b, 50 * us), 1u);
    EXPECT_EQ(b.send(flow_a, 140 * us), 1u);  // 90 us after flow_b's packet
    // flow_c has a slot of its own: a selection of its own.
    b.view.set({0, 900, 10, 10});
    EXPECT_EQ(b.send(flow_c, 140 * us), 0u);
    uint64_t assigned = 0;
    for (size_t m = 0; m < 4; ++m) assigned += b.stats(m).assignments;
    EXPECT_EQ(assigned, 2u);  // flow_a's slot once, flow_c's once
    // After a gap the shared slot moves, and flow_b goes with it.
    b.view.set({500, 900, 20, 0});
    EXPECT_EQ(b.send(flow_a, 400 * us), 3u);
    EXPECT_EQ(b.send(flow_b, 401 * us), 3u);
    EXPECT_EQ(b.stats(1).movements_out, 1u);
}

TEST(flowlet_selector, pfc_aware_leaves_out_paused_members_unless_all_are_paused)
{
    bench b;
    b.view.set({300, 100, 200, 400});
    b.view.paused_port[2] = true;      // member 1, the least occupied
    EXPECT_EQ(b.send(flow_a, 0), 2u);  // the least among the others: 200 bytes
    EXPECT_EQ(b.stats(1).paused_skips, 1u);
    EXPECT_EQ(b.stats(2).paused_selections, 0u);
    // Every member paused: the least occupied of all, counted as a selection while paused.
    b.view.paused_port = {false, true, true, true, true};
    EXPECT_EQ(b.send(flow_c, 0), 1u);
    EXPECT_EQ(b.stats(1).paused_selections, 1u);
    EXPECT_EQ(b.stats(1).paused_skips, 1u);  // no member was skipped this time
    // Inside its gap a flow stays on a member PFC has just paused.
    EXPECT_EQ(b.send(flow_a, 50 * us), 2u);
}

TEST(flowlet_selector, without_pfc_aware_a_paused_member_is_a_candidate)
{
    bench b({gap, false});
    b.view.set({300, 100, 200, 400});
    b.view.paused_port[2] = true;
    EXPECT_EQ(b.send(flow_a, 0), 1u);
    EXPECT_EQ(b.stats(1).paused_skips, 0u);
    EXPECT_EQ(b.stats(1).paused_selections, 1u);
}

TEST(flowlet_selector, gap_zero_selects_for_every_packet)
{
    bench b({0, true});
    b.view.set({300, 100, 200, 400});
    EXPECT_EQ(b.send(flow_a, 0), 1u);
    b.view.set({300, 400, 200, 100});
    EXPECT_EQ(b.send(flow_a, 1), 3u);
    b.view.set({10, 400, 200, 100});
    EXPECT_EQ(b.send(flow_a, 2), 0u);
    EXPECT_EQ(b.stats(3).movements_in, 1u);
    EXPECT_EQ(b.stats(3).movements_out, 1u);
}

TEST(flowlet_selector, ties_on_an_empty_slot_are_drawn_from_the_seeded_stream)
{
    // All members empty: each new slot draws among all four. The same seed draws the same.
    auto picks = [](uint64_t seed) {
        bench b({gap, true}, seed);
        std::vector<size_t> out;
        for (uint16_t s = 0; s < 64; ++s) out.push_back(b.send(uint16_t(0x1000 + s), 0));
        return out;
    };
    const auto one = picks(1);
    EXPECT_EQ(one, picks(1));
    EXPECT_NE(one, picks(2));
    EXPECT_EQ(std::set<size_t>(one.begin(), one.end()).size(), 4u);  // not always the lowest
}

TEST(flowlet_selector, only_the_first_128_sets_seen_get_a_flow_table)
{
    routing_table routes;
    for (uint32_t h = 0; h < 130; ++h)
        routes.add_route(h, {uint16_t(h), uint16_t(h + 1)});  // 130 distinct two-member sets
    fake_view view;
    flowlet_selector sel(ecmp_hash_method::hash, 0, {gap, true}, routes, view, {1, "t"});
    // Seen in reverse order: sets 129 .. 2 get tables, 1 and 0 do not.
    for (int32_t set = 129; set >= 0; --set) {
        sel.select(flow(flow_a), 3, set, 2, 0);
        sel.admitted(0);
    }
    EXPECT_EQ(sel.flow_table_slots(2), 512u);
    EXPECT_EQ(sel.flow_table_slots(129), 512u);
    EXPECT_EQ(sel.flow_table_slots(1), 0u);
    EXPECT_EQ(sel.flow_table_slots(0), 0u);
    // A set without a table takes hash mod size whatever the occupancy: 0x02BA mod 2 = 0.
    view.bytes[0] = 1000;
    EXPECT_EQ(sel.select(flow(flow_a), 3, 0, 2, 10 * gap), 0u);
    EXPECT_EQ(sel.select(flow(flow_c), 3, 0, 2, 10 * gap), 1u);  // 0x02BB mod 2
}
