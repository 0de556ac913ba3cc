// A NIC port takes the frames coming to it as they start on the link (ahead_receiver.h), when
// their arrival can neither fail nor send anything: the link schedules no wake-up for their
// arrival, and the port applies it at its time, in its place, before anything that could see
// it. What the client receives, and when, is the same as over the wire; a link that goes down
// loses the frames that had not arrived.
//
// Timings (400 Gb/s, 100 ns propagation, receive pipeline 4 ns): a 1,000 B frame is 20 ns on
// the wire; frames started at 0, 20 and 40 ns arrive at 120, 140 and 160 ns and reach the client
// 4 ns later.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "hw/kernel/activity.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/kernel/wakeup.h"
#include "tests/support/nic_port_pair.h"

using namespace uetsim;

namespace {

constexpr uint64_t ns = 1000;  // ps

nic_port_config config(uint32_t host, uint64_t rx_buffer_bytes = 4'000'000)
{
    nic_port_config c;
    c.host = host;
    c.ip = 0x0a000001 + host;
    c.egress.total_buffer_bytes = 30000;
    c.egress.pool_allocation = {1.0, 1.0};
    c.ingress.total_buffer_bytes = rx_buffer_bytes;
    c.rx_stages[0].cycles = 4;
    return c;
}

struct port_pair : uetsim::test::nic_port_pair
{
    explicit port_pair(bool ahead, uint64_t rx_buffer_bytes = 4'000'000)
        : nic_port_pair(config(0), config(1, rx_buffer_bytes), 1000)
    {
        if (ahead) wire.hand_ahead(uetsim::link::a_to_b, &b);
    }
};

// Three frames from A at 0; B's received-frame count read at 119, 121 and 141 ns.
struct three_frames
{
    port_pair& n;
    std::vector<uint64_t> rx_packets;
    wakeup start{[this] {
        for (uint32_t i = 1; i <= 3; ++i) n.a.push_data(n.frame(i), sim_now_ps());
    }};
    wakeup r119{[this] { rx_packets.push_back(n.b.stats().rx_packets); }};
    wakeup r121{[this] { rx_packets.push_back(n.b.stats().rx_packets); }};
    wakeup r141{[this] { rx_packets.push_back(n.b.stats().rx_packets); }};
    explicit three_frames(port_pair& pair) : n(pair)
    {
        start.notify_at_ps(0);
        r119.notify_at_ps(119 * ns);
        r121.notify_at_ps(121 * ns);
        r141.notify_at_ps(141 * ns);
    }
};

std::vector<uint64_t> times(const std::vector<uetsim::test::recording_port_client::arrival>& r)
{
    std::vector<uint64_t> t;
    for (const auto& a : r) t.push_back(a.at_ps);
    return t;
}

}  // namespace

TEST(nic_port_ahead, frames_taken_ahead_arrive_at_their_time_without_a_wakeup_of_the_link)
{
    port_pair n(true);
    three_frames t(n);
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead();
    EXPECT_EQ(times(n.client_b.received), (std::vector<uint64_t>{124 * ns, 144 * ns, 164 * ns}));
    // Each arrival is seen from its time on: none at 119 ns, the first at 121, two at 141.
    EXPECT_EQ(t.rx_packets, (std::vector<uint64_t>{0, 1, 2}));
    EXPECT_EQ(n.b.stats().rx_packets, 3u);
    EXPECT_EQ(n.b.stats().rx_bytes, 3000u);
    // A: the fetch line and three frame ends; B: three pipeline exits. No wire delivery.
    EXPECT_EQ(activity::count() - before, 1u + 3u + 3u);
}

TEST(nic_port_ahead, over_the_wire_the_same_frames_take_a_wakeup_each_at_their_arrival)
{
    port_pair n(false);
    three_frames t(n);
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead();
    EXPECT_EQ(times(n.client_b.received), (std::vector<uint64_t>{124 * ns, 144 * ns, 164 * ns}));
    EXPECT_EQ(t.rx_packets, (std::vector<uint64_t>{0, 1, 2}));
    EXPECT_EQ(activity::count() - before, 1u + 3u + 3u + 3u);
}

TEST(nic_port_ahead, nothing_is_taken_ahead_in_lockstep)
{
    port_pair n(true);
    three_frames t(n);
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead(true);
    EXPECT_EQ(times(n.client_b.received), (std::vector<uint64_t>{124 * ns, 144 * ns, 164 * ns}));
    EXPECT_EQ(activity::count() - before, 1u + 3u + 3u + 3u);
}

TEST(nic_port_ahead, a_frame_the_pool_might_not_hold_and_those_behind_it_go_over_the_wire)
{
    // B's data pool: 90 % of 2,000 B, one frame's charge but not two. Frame 2 is not taken
    // (frame 1 is still ahead of it), and frame 3 follows it on the wire, in order.
    port_pair n(true, 2000);
    three_frames t(n);
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead();
    EXPECT_EQ(times(n.client_b.received), (std::vector<uint64_t>{124 * ns, 144 * ns, 164 * ns}));
    EXPECT_EQ(t.rx_packets, (std::vector<uint64_t>{0, 1, 2}));
    EXPECT_EQ(n.b.rx_buffer().drops(0), 0u);  // frame 1 left the pool at 124 ns
    EXPECT_EQ(activity::count() - before, 1u + 3u + 3u + 2u);
}

TEST(nic_port_ahead, a_link_that_goes_down_loses_the_frames_that_had_not_arrived)
{
    port_pair n(true);
    three_frames t(n);
    wakeup down{[&] { n.wire.set_up(false); }};
    down.notify_at_ps(130 * ns);  // frame 1 arrived at 120; 2 and 3 were due at 140 and 160
    uetsim::test::run_model_ahead();
    EXPECT_EQ(times(n.client_b.received), (std::vector<uint64_t>{124 * ns}));
    EXPECT_EQ(n.wire.frames_lost(uetsim::link::a_to_b), 2u);
    EXPECT_EQ(n.b.stats().rx_packets, 1u);
    EXPECT_EQ(t.rx_packets, (std::vector<uint64_t>{0, 1, 1}));
}
