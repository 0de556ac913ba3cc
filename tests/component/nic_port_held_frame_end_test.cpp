// A NIC port holds back the end of a control frame when its client's on_sent does nothing for it
// and nothing waits to follow it (nic_port::may_defer_frame_end): no wake-up runs for it, and
// what it does (the control pool's charge released, the transmitter free) is seen at its time by
// whatever uses the port next. The model runs ahead within a horizon, as in a run; no horizon
// (lockstep) holds nothing back.
//
// Timings (400 Gb/s, 100 ns propagation, receive pipeline 4 ns, pools of 3,000 B): a 500 B
// control frame is 10 ns on the wire, a 1,000 B data frame 20 ns.
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
constexpr int control_class = 1;

nic_port_config config(uint32_t host)
{
    nic_port_config c;
    c.host = host;
    c.ip = 0x0a000001 + host;
    c.egress.total_buffer_bytes = 3000;
    c.egress.pool_allocation = {1.0, 1.0};
    c.rx_stages[0].cycles = 4;
    return c;
}

struct port_pair : uetsim::test::nic_port_pair
{
    explicit port_pair(bool silent) : nic_port_pair(config(0), config(1), 1000)
    {
        client_a.silent_control = silent;
    }
    std::vector<uint64_t> starts() const
    {
        std::vector<uint64_t> r;
        for (const auto& f : a_to_b) r.push_back(f.start_ps);
        return r;
    }
};

// At 0 a control frame (0-10 ns); the pool read at 5 and 12 ns; a second control frame at 12 ns.
struct two_control_frames
{
    port_pair& n;
    std::vector<uint32_t> room;
    wakeup start{[this] { n.a.push_control(n.frame(1, control_class, 500)); }};
    wakeup read5{[this] { room.push_back(n.a.pool_room(control_class)); }};
    wakeup at12{[this] {
        room.push_back(n.a.pool_room(control_class));
        n.a.push_control(n.frame(2, control_class, 500));
    }};
    explicit two_control_frames(port_pair& pair) : n(pair)
    {
        start.notify_at_ps(0);
        read5.notify_at_ps(5 * ns);
        at12.notify_at_ps(12 * ns);
    }
};

}  // namespace

TEST(nic_port_held_frame_end, a_silent_control_frames_end_runs_no_wakeup_and_is_seen_at_its_time)
{
    port_pair n(true);
    two_control_frames t(n);
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead();
    // In flight at 5 ns (500 B charged), released by 12 ns; the second frame starts at 12 ns.
    EXPECT_EQ(t.room, (std::vector<uint32_t>{2500, 3000}));
    EXPECT_EQ(n.starts(), (std::vector<uint64_t>{0, 12 * ns}));
    ASSERT_EQ(n.client_b.received.size(), 2u);
    EXPECT_EQ(n.client_b.received[1].at_ps, 126 * ns);  // 12 + 10 + 100 + 4
    // The model's wake-ups (the test's own are not counted): at B one arrival and one pipeline
    // exit per frame, and no frame end of A's.
    EXPECT_EQ(activity::count() - before, 4u);
    EXPECT_EQ(n.a.pool_room(control_class), 3000u);  // the second end settled by the run's end
}

TEST(nic_port_held_frame_end, a_client_that_acts_on_sent_keeps_every_frame_end)
{
    port_pair n(false);
    two_control_frames t(n);
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead();
    EXPECT_EQ(t.room, (std::vector<uint32_t>{2500, 3000}));
    EXPECT_EQ(n.starts(), (std::vector<uint64_t>{0, 12 * ns}));
    EXPECT_EQ(n.client_a.sent_psns, (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(activity::count() - before, 4u + 2u);  // and A's two frame ends
}

TEST(nic_port_held_frame_end, nothing_is_held_back_in_lockstep)
{
    port_pair n(true);
    two_control_frames t(n);
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead(true);
    EXPECT_EQ(t.room, (std::vector<uint32_t>{2500, 3000}));
    EXPECT_EQ(n.starts(), (std::vector<uint64_t>{0, 12 * ns}));
    EXPECT_EQ(activity::count() - before, 4u + 2u);
}

TEST(nic_port_held_frame_end, a_frame_queued_before_the_end_starts_at_the_end_in_its_place)
{
    port_pair n(true);
    wakeup start{[&] { n.a.push_control(n.frame(1, control_class, 500)); }};
    wakeup data{[&] { n.a.push_data(n.frame(7), sim_now_ps()); }};
    start.notify_at_ps(0);
    data.notify_at_ps(4 * ns);  // fetched at once: queued while the control frame is on the wire
    const uint64_t before = activity::count();
    uetsim::test::run_model_ahead();
    // The held-back end is queued (kick) and pulls the data frame at 10 ns.
    EXPECT_EQ(n.starts(), (std::vector<uint64_t>{0, 10 * ns}));
    EXPECT_EQ(n.client_a.sent_psns, (std::vector<uint32_t>{7}));  // the control frame's is silent
    ASSERT_EQ(n.client_b.received.size(), 2u);
    EXPECT_EQ(n.client_b.received[1].at_ps, 134 * ns);  // 10 + 20 + 100 + 4
    // The fetch line, the control frame's end (queued after all), the data frame's end, and at
    // B two arrivals and two pipeline exits.
    EXPECT_EQ(activity::count() - before, 1u + 1u + 1u + 4u);
}
