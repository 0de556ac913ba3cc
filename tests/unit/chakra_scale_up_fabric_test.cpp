// The scale-up fabric's timing without the kernel, with numbers worked out by hand: packets of
// 4,096 B data + 24 B header (4,120 B) at 800 Gbit/s take 4,120 x 8 / 800e9 s = 41.2 ns; with a
// 100 ns switch hop and 100 ns cable, a packet crosses a subgroup in 100 + 2 x 100 = 300 ns.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "testbench/traffic/chakra/scale_up_fabric.h"

using namespace uetsim::chakra;

namespace {

using kind = scale_up_event_kind;
constexpr uint64_t ns = 1000;  // ps

// Members 0, 1, 2 in subgroup 0 and 3 in subgroup 1 of group 0 (800 Gbit/s, 100 ns, 100 ns);
// 5 and 6 in group 1 (800 Gbit/s, 100 ns hops, 10 ns cables), subgroups 0 and 1; 4 in none.
scale_up_fabric make_fabric(scale_up_config cfg = {})
{
    std::vector<scale_up_member> members = {{0, 0}, {0, 0}, {0, 0}, {0, 1}, {std::nullopt, 0},
                                            {1, 0}, {1, 1}};
    std::vector<scale_up_group_params> groups = {{0, 800.0, 100.0, 100.0}, {1, 800.0, 100.0, 10.0}};
    return scale_up_fabric(members, groups, cfg);
}

// Runs the model from wake-up to wake-up until it has nothing left to do.
std::vector<scale_up_event> drain(scale_up_fabric& f)
{
    std::vector<scale_up_event> out;
    uint64_t last = 0;
    while (auto t = f.next_event_ps()) {
        EXPECT_GE(*t, last);
        last = *t;
        f.run_due(*t, out);
    }
    return out;
}

// The time of `transfer`'s event of kind `k` (UINT64_MAX when it has none, and it must have one).
uint64_t when(const std::vector<scale_up_event>& ev, uint64_t transfer, kind k)
{
    uint64_t at = UINT64_MAX;
    int seen = 0;
    for (const auto& e : ev) {
        if (e.transfer == transfer && e.kind == k) at = e.at_ps, ++seen;
    }
    EXPECT_EQ(seen, 1) << "transfer " << transfer << " kind " << int(k);
    return at;
}

}  // namespace

// One 8,192 B transfer within a subgroup: two packets of 4,120 B.
//   sending:   packet 1 0-41.2 ns, packet 2 41.2-82.4 ns -> sent at 82.4 ns
//   crossing:  300 ns -> packet 1 arrives at 341.2 ns, packet 2 at 382.4 ns
//   receiving: each packet is taken in at the group's bandwidth once it has arrived (one sender:
//              x 1): packet 1 341.2-382.4 ns, packet 2 382.4-423.6 ns -> received at 423.6 ns
//              (= sent + 300 + 41.2)
//   acked:     sent + a round trip of 2 x 300 ns = 682.4 ns
TEST(chakra_scale_up_fabric, one_transfer_within_a_subgroup)
{
    scale_up_fabric f = make_fabric();
    EXPECT_EQ(f.one_way_ps(0, 1), 300 * ns);
    f.send(7, 0, 1, 8192, 0);
    EXPECT_EQ(f.next_event_ps(), 0u);  // the first packet starts at the next run_due()
    std::vector<scale_up_event> none;
    f.run_due(0, none);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(f.next_event_ps(), 41200u);
    const auto ev = drain(f);
    EXPECT_EQ(ev,
              (std::vector<scale_up_event>{
                  {7, kind::sent, 82400}, {7, kind::received, 423600}, {7, kind::acked, 682400}}));
    EXPECT_EQ(f.counters(0).tx_packets, 2u);
    EXPECT_EQ(f.counters(0).tx_bytes, 8240u);
    EXPECT_EQ(f.counters(1).rx_packets, 2u);
    EXPECT_EQ(f.counters(1).rx_bytes, 8240u);
    EXPECT_EQ(f.counters(0).rx_packets, 0u);
    EXPECT_EQ(f.counters(1).tx_packets, 0u);
    EXPECT_EQ(f.transfers_in_flight(), 0u);
    EXPECT_EQ(f.bandwidth_gbps(0), 800.0);
    EXPECT_EQ(f.bandwidth_gbps(4), 0.0);
}

// run_due() at an arbitrary later time gives the same events, in time order.
TEST(chakra_scale_up_fabric, late_run_due_gives_the_same_times)
{
    scale_up_fabric f = make_fabric();
    f.send(7, 0, 1, 8192, 0);
    std::vector<scale_up_event> out;
    f.run_due(100 * ns, out);
    EXPECT_EQ(out, (std::vector<scale_up_event>{{7, kind::sent, 82400}}));
    out.clear();
    f.run_due(10'000 * ns, out);
    EXPECT_EQ(out,
              (std::vector<scale_up_event>{{7, kind::received, 423600}, {7, kind::acked, 682400}}));
    EXPECT_FALSE(f.next_event_ps());
    EXPECT_THROW(f.run_due(ns, out), std::invalid_argument);
}

// Member 0 sends 8,192 B to 1 and to 2 at once: 2 receivers, each packet takes 2 x 41.2 ns.
//   sending:   both queues: packet 1 0-82.4 ns, packet 2 82.4-164.8 ns -> both sent at 164.8 ns
//   receiving: arrivals at 382.4 and 464.8 ns, each taken in alone (41.2 ns): 382.4-423.6 and
//              464.8-506.0 ns -> received at 506.0 ns
//   acked:     164.8 + 600 = 764.8 ns
TEST(chakra_scale_up_fabric, sending_to_two_receivers_halves_each)
{
    scale_up_fabric f = make_fabric();
    f.send(1, 0, 1, 8192, 0);
    f.send(2, 0, 2, 8192, 0);
    const auto ev = drain(f);
    for (uint64_t t : {1, 2}) {
        EXPECT_EQ(when(ev, t, kind::sent), 164800u);
        EXPECT_EQ(when(ev, t, kind::received), 506000u);
        EXPECT_EQ(when(ev, t, kind::acked), 764800u);
    }
    EXPECT_EQ(f.counters(0).tx_packets, 4u);
    EXPECT_EQ(f.counters(0).tx_bytes, 4 * 4120u);
    EXPECT_EQ(f.counters(1).rx_bytes, 2 * 4120u);
    EXPECT_EQ(f.counters(2).rx_bytes, 2 * 4120u);
}

// The number of receivers is the one when each packet starts. 0 -> 1 at 0 ns, 0 -> 2 at 20 ns:
//   to 1: packet 1 0-41.2 ns (alone), packet 2 41.2-123.6 ns (x 2) -> sent at 123.6 ns
//   to 2: packet 1 20-102.4 ns (x 2), packet 2 102.4-184.8 ns (x 2: 1's queue is still busy)
//   at 1: arrivals 341.2, 423.6 ns -> taken in 341.2-382.4, 423.6-464.8 -> received 464.8 ns
//   at 2: arrivals 402.4, 484.8 ns -> taken in 402.4-443.6, 484.8-526.0 -> received 526.0 ns
TEST(chakra_scale_up_fabric, sharing_counted_when_each_packet_starts)
{
    scale_up_fabric f = make_fabric();
    f.send(1, 0, 1, 8192, 0);
    f.send(2, 0, 2, 8192, 20 * ns);
    const auto ev = drain(f);
    EXPECT_EQ(when(ev, 1, kind::sent), 123600u);
    EXPECT_EQ(when(ev, 2, kind::sent), 184800u);
    EXPECT_EQ(when(ev, 1, kind::received), 464800u);
    EXPECT_EQ(when(ev, 2, kind::received), 526000u);
    EXPECT_EQ(when(ev, 1, kind::acked), 723600u);
    EXPECT_EQ(when(ev, 2, kind::acked), 784800u);
}

// 1 -> 0 and 2 -> 0, 8,192 B each at 0: each sender alone (sent at 82.4 ns), but member 0 takes
// in from 2 senders, each packet x 2 = 82.4 ns.
//   arrivals from each: 341.2 and 382.4 ns. Both first packets arrive at 341.2 ns, so both are
//   taken in with 2 senders queued: 341.2-423.6 ns; the second ones 423.6-506.0 ns.
TEST(chakra_scale_up_fabric, receiving_from_two_senders_halves_each)
{
    scale_up_fabric f = make_fabric();
    f.send(1, 1, 0, 8192, 0);
    f.send(2, 2, 0, 8192, 0);
    const auto ev = drain(f);
    for (uint64_t t : {1, 2}) {
        EXPECT_EQ(when(ev, t, kind::sent), 82400u);
        EXPECT_EQ(when(ev, t, kind::received), 506000u);
        EXPECT_EQ(when(ev, t, kind::acked), 682400u);
    }
    EXPECT_EQ(f.counters(0).rx_packets, 4u);
    EXPECT_EQ(f.counters(0).rx_bytes, 4 * 4120u);
}

// Group 1 (100 ns hops, 10 ns cables): within a subgroup 100 + 2 x 10 = 120 ns; between
// subgroups 3 x 100 + 4 x 10 = 340 ns. 1,000 B is one packet of 1,024 B: 1,024 x 8 / 800e9 s
// = 10.24 ns. Sent at 10.24 ns, arrives at 350.24 ns, taken in by 360.48 ns, acked at
// 10.24 + 2 x 340 = 690.24 ns. Group 0 between subgroups: 3 x 100 + 4 x 100 = 700 ns.
TEST(chakra_scale_up_fabric, other_subgroup_crosses_three_hops_and_four_cables)
{
    scale_up_fabric f = make_fabric();
    EXPECT_EQ(f.one_way_ps(5, 5), 120 * ns);
    EXPECT_EQ(f.one_way_ps(5, 6), 340 * ns);
    EXPECT_EQ(f.one_way_ps(6, 5), 340 * ns);
    EXPECT_EQ(f.one_way_ps(0, 3), 700 * ns);
    f.send(9, 5, 6, 1000, 0);
    const auto ev = drain(f);
    EXPECT_EQ(ev,
              (std::vector<scale_up_event>{
                  {9, kind::sent, 10240}, {9, kind::received, 360480}, {9, kind::acked, 690240}}));
}

// A zero-byte transfer is one header-only packet of 24 B: 24 x 8 / 800e9 s = 0.24 ns.
TEST(chakra_scale_up_fabric, zero_byte_transfer_is_one_header_packet)
{
    scale_up_fabric f = make_fabric();
    f.send(3, 0, 1, 0, 1000 * ns);
    const auto ev = drain(f);
    EXPECT_EQ(ev, (std::vector<scale_up_event>{{3, kind::sent, 1000240},
                                               {3, kind::received, 1300480},
                                               {3, kind::acked, 1600240}}));
    EXPECT_EQ(f.counters(0).tx_packets, 1u);
    EXPECT_EQ(f.counters(0).tx_bytes, 24u);
    EXPECT_EQ(f.counters(1).rx_packets, 1u);
    EXPECT_EQ(f.counters(1).rx_bytes, 24u);

    // With no header either, it takes no time to send or take in: only the crossing.
    scale_up_fabric bare = make_fabric({4096, 0});
    bare.send(3, 0, 1, 0, 0);
    EXPECT_EQ(drain(bare),
              (std::vector<scale_up_event>{
                  {3, kind::sent, 0}, {3, kind::received, 300 * ns}, {3, kind::acked, 600 * ns}}));
}

// A short last packet: 5,000 B = 4,096 + 904 B of data, 4,120 + 928 B with headers.
//   sending: 0-41.2 ns, 41.2-50.48 ns (928 x 8 / 800e9 s = 9.28 ns) -> sent at 50.48 ns
//   taking in: 341.2-382.4 ns; the second arrived at 350.48 ns and waits: 382.4-391.68 ns
TEST(chakra_scale_up_fabric, short_last_packet)
{
    scale_up_fabric f = make_fabric();
    f.send(1, 0, 1, 5000, 0);
    const auto ev = drain(f);
    EXPECT_EQ(when(ev, 1, kind::sent), 50480u);
    EXPECT_EQ(when(ev, 1, kind::received), 391680u);
    EXPECT_EQ(f.counters(0).tx_bytes, 5048u);
    EXPECT_EQ(f.counters(1).rx_bytes, 5048u);
}

// Transfers to one receiver share its queue, in send order.
//   A (4,096 B) 0-41.2 ns, B (4,096 B) 41.2-82.4 ns; received 382.4 and 423.6 ns.
TEST(chakra_scale_up_fabric, one_queue_per_receiver_in_send_order)
{
    scale_up_fabric f = make_fabric();
    f.send(1, 0, 1, 4096, 0);
    f.send(2, 0, 1, 4096, 0);
    const auto ev = drain(f);
    EXPECT_EQ(when(ev, 1, kind::sent), 41200u);
    EXPECT_EQ(when(ev, 2, kind::sent), 82400u);
    EXPECT_EQ(when(ev, 1, kind::received), 382400u);
    EXPECT_EQ(when(ev, 2, kind::received), 423600u);
}

// A send at the instant another queue of the sender drains: that queue is out first, so the new
// packet is sent alone. 0 -> 1 (4,096 B) is sent at 41.2 ns; 0 -> 2 starts then.
TEST(chakra_scale_up_fabric, send_at_the_instant_a_queue_drains)
{
    scale_up_fabric f = make_fabric();
    f.send(1, 0, 1, 4096, 0);
    f.send(2, 0, 2, 4096, 41200);
    const auto ev = drain(f);
    EXPECT_EQ(when(ev, 1, kind::sent), 41200u);
    EXPECT_EQ(when(ev, 2, kind::sent), 82400u);
}

// 1 GiB in 262,144 packets: sent after 262,144 x 41.2 ns; the last is taken in 341.2 ns later.
TEST(chakra_scale_up_fabric, large_transfer)
{
    scale_up_fabric f = make_fabric();
    f.send(1, 0, 1, 1ull << 30, 0);
    const auto ev = drain(f);
    EXPECT_EQ(when(ev, 1, kind::sent), 262144ull * 41200);
    EXPECT_EQ(when(ev, 1, kind::received), 262144ull * 41200 + 341200u);
    EXPECT_EQ(f.counters(1).rx_packets, 262144u);
}

TEST(chakra_scale_up_fabric, only_within_a_group)
{
    scale_up_fabric f = make_fabric();
    EXPECT_TRUE(f.carries(0, 3));
    EXPECT_TRUE(f.carries(5, 6));
    EXPECT_FALSE(f.carries(0, 5));
    EXPECT_FALSE(f.carries(0, 4));
    EXPECT_FALSE(f.carries(4, 4));
    EXPECT_FALSE(f.carries(0, 99));
    EXPECT_THROW(f.send(1, 0, 5, 10, 0), std::invalid_argument);
    EXPECT_THROW(f.send(1, 4, 0, 10, 0), std::invalid_argument);
    f.send(1, 0, 1, 10, 0);
    EXPECT_THROW(f.send(1, 2, 3, 10, 0), std::invalid_argument);  // id in flight
    EXPECT_THROW(scale_up_fabric({{5, 0}}, {}, {}), std::invalid_argument);
    EXPECT_THROW(make_fabric({0, 24}), std::invalid_argument);
}

TEST(chakra_scale_up_fabric, from_a_mapping)
{
    mapping m = parse_mapping(
        "0,0,0,0\n1,1,0,0\n2,2,0,1\n3,3,1,0\n4,4\n@\n0,800,100,100\n1,400,50,50\n", "f");
    scale_up_fabric f(m, {});
    EXPECT_TRUE(f.carries(0, 1));
    EXPECT_TRUE(f.carries(0, 2));
    EXPECT_FALSE(f.carries(0, 3));
    EXPECT_FALSE(f.carries(0, 4));
    EXPECT_EQ(f.one_way_ps(0, 1), 300 * ns);
    EXPECT_EQ(f.one_way_ps(0, 2), 700 * ns);
    EXPECT_EQ(f.bandwidth_gbps(3), 400.0);
}

// Random traffic among a group's members: every transfer is sent, received and acked once, in
// that order as far as the model fixes it, and every byte sent is received.
TEST(chakra_scale_up_fabric, random_traffic_keeps_its_books)
{
    std::vector<scale_up_member> members;
    for (uint32_t i = 0; i < 16; ++i) members.push_back({0, i / 4});
    scale_up_fabric f(members, {{0, 400.0, 20.0, 5.0}}, {512, 32});
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<uint32_t> who(0, 15);
    std::uniform_int_distribution<uint64_t> size(0, 20000), gap(0, 200 * ns);
    std::map<uint64_t, uint64_t> started, bytes_of;
    std::map<uint64_t, std::pair<uint32_t, uint32_t>> ends;
    std::vector<scale_up_event> ev;
    uint64_t now = 0, wire_bytes = 0;
    for (uint64_t id = 0; id < 2000; ++id) {
        now += gap(rng);
        while (auto t = f.next_event_ps()) {
            if (*t > now) break;
            f.run_due(*t, ev);
        }
        const uint32_t s = who(rng), d = who(rng);
        const uint64_t b = size(rng);
        f.send(id, s, d, b, now);
        started[id] = now;
        bytes_of[id] = b;
        ends[id] = {s, d};
        wire_bytes += b + 32 * (b == 0 ? 1 : (b + 511) / 512);
    }
    const auto rest = drain(f);
    ev.insert(ev.end(), rest.begin(), rest.end());
    EXPECT_EQ(f.transfers_in_flight(), 0u);
    for (uint64_t id = 0; id < 2000; ++id) {
        const uint64_t sent = when(ev, id, kind::sent);
        const uint64_t rtt = 2 * f.one_way_ps(ends[id].first, ends[id].second);
        EXPECT_GT(sent, started[id]) << id;
        EXPECT_GE(when(ev, id, kind::received), sent + rtt / 2) << id;
        EXPECT_EQ(when(ev, id, kind::acked), sent + rtt) << id;
    }
    uint64_t tx = 0, rx = 0;
    for (uint32_t i = 0; i < 16; ++i) tx += f.counters(i).tx_bytes, rx += f.counters(i).rx_bytes;
    EXPECT_EQ(tx, wire_bytes);
    EXPECT_EQ(rx, wire_bytes);
}
