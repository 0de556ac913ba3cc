// PFC's arithmetic and state, kernel-free: the pages' pause-time formula and worked numbers, the
// receive side (pause, restart, resume, expiry, time paused and the longest pause) and the send
// side (one frame per class, no repeat while held, refresh every half pause time), and the XOFF
// time due to egress occupancy (paused with a frame waiting).
#include <gtest/gtest.h>

#include "hw/pfc/pfc_egress_blocking.h"
#include "hw/pfc/pfc_pause_timer.h"
#include "hw/pfc/pfc_requests.h"
#include "hw/pfc/pfc_timing.h"

using namespace uetsim;

namespace {
const uint16_t k_q = 65535;
uint16_t quanta_all(uint16_t q, uint16_t out[8])
{
    for (int i = 0; i < 8; ++i) out[i] = q;
    return q;
}
}  // namespace

TEST(pfc_timing, uet_nic_default_pause_is_83_985_us_refresh_41_99_us)
{
    // UET NIC buffers page: 65,535 x 512 bits / 400 Gbps = 83.885 us, + Delay 100 ns.
    const pfc_link nic{400e9, 100'000};
    EXPECT_EQ(pfc_pause_ps(k_q, nic), 83'984'800u);
    EXPECT_EQ(pfc_refresh_ps(k_q, nic), 41'992'400u);
}

TEST(pfc_timing, switch_default_pause_is_84_4_us_refresh_42_2_us)
{
    // Switch packet-handling page: 400 Gbps and 500 ns: 83.9 + 0.5 us, re-sent about every 42.2.
    const pfc_link sw{400e9, 500'000};
    EXPECT_EQ(pfc_pause_ps(k_q, sw), 84'384'800u);
    EXPECT_EQ(pfc_refresh_ps(k_q, sw), 42'192'400u);
}

TEST(pfc_timing, a_quantum_is_512_bit_times_and_zero_quanta_is_no_pause)
{
    EXPECT_EQ(pfc_pause_ps(1, {100e9, 0}), 5'120u);  // 512 bits at 100 Gbps
    EXPECT_EQ(pfc_pause_ps(0, {400e9, 500'000}), 0u);
}

TEST(pfc_pause_timer, pause_holds_named_classes_for_the_pause_time)
{
    pfc_pause_timer t;
    uint16_t q[8];
    quanta_all(k_q, q);
    const pfc_link l{400e9, 500'000};
    const auto c = t.on_frame(0b0000'0001, q, 1'000, l);
    EXPECT_EQ(c.paused, 1u);
    EXPECT_EQ(t.paused(), 1u);
    EXPECT_EQ(t.next_expiry(), 1'000u + 84'384'800u);
    EXPECT_EQ(t.expire(1'000u + 84'384'799u), 0u);
    EXPECT_EQ(t.expire(1'000u + 84'384'800u), 1u);
    EXPECT_EQ(t.paused(), 0u);
    EXPECT_EQ(t.paused_ps(0, 200'000'000), 84'384'800u);
    EXPECT_EQ(t.xoff_rx(0), 1u);
}

TEST(pfc_pause_timer, a_fresh_pause_restarts_the_time_and_quanta_zero_resumes)
{
    pfc_pause_timer t;
    uint16_t q[8];
    quanta_all(k_q, q);
    const pfc_link l{400e9, 0};
    t.on_frame(0b10, q, 0, l);
    const auto again = t.on_frame(0b10, q, 40'000'000, l);
    EXPECT_EQ(again.paused, 0u);  // already paused: no change, the timer restarts
    EXPECT_EQ(t.until_ps(1), 40'000'000u + 83'884'800u);
    uint16_t zero[8] = {};
    const auto r = t.on_frame(0b10, zero, 50'000'000, l);
    EXPECT_EQ(r.resumed, 0b10u);
    EXPECT_EQ(t.next_expiry(), pfc_pause_timer::never);
    EXPECT_EQ(t.paused_ps(1, 90'000'000), 50'000'000u);
    EXPECT_EQ(t.xoff_rx(1), 2u);
    EXPECT_EQ(t.xon_rx(1), 1u);
}

TEST(pfc_pause_timer, pause_storm_detector_keeps_the_longest_continuous_pause)
{
    pfc_pause_timer t;
    uint16_t q[8], zero[8] = {};
    quanta_all(k_q, q);
    const pfc_link l{400e9, 0};
    t.on_frame(1, q, 0, l);
    t.on_frame(1, zero, 10'000'000, l);  // 10 us
    t.on_frame(1, q, 20'000'000, l);
    t.on_frame(1, zero, 50'000'000, l);  // 30 us
    t.on_frame(1, q, 60'000'000, l);     // running
    EXPECT_EQ(t.longest_ps(0, 65'000'000), 30'000'000u);
    EXPECT_EQ(t.longest_ps(0, 100'000'000), 40'000'000u);  // the running pause is longer now
    EXPECT_EQ(t.paused_ps(0, 100'000'000), 80'000'000u);
}

TEST(pfc_pause_timer, interval_max_counts_only_the_part_inside_the_interval)
{
    pfc_pause_timer t;
    uint16_t q[8], zero[8] = {};
    quanta_all(k_q, q);
    const pfc_link l{400e9, 0};
    t.on_frame(1, q, 0, l);
    EXPECT_EQ(t.take_interval_max_ps(0, 5'000'000), 5'000'000u);  // running: 0..5 us
    t.on_frame(1, zero, 8'000'000, l);                            // ends 3 us into the next
    EXPECT_EQ(t.take_interval_max_ps(0, 10'000'000), 3'000'000u);
    EXPECT_EQ(t.take_interval_max_ps(0, 20'000'000), 0u);
}

TEST(pfc_pause_timer, several_classes_in_one_frame_and_per_class_expiry)
{
    pfc_pause_timer t;
    uint16_t q[8] = {100, 0, 200, 0, 0, 0, 0, 0};
    const pfc_link l{100e9, 0};  // one quantum 5.12 ns
    const auto c = t.on_frame(0b101, q, 0, l);
    EXPECT_EQ(c.paused, 0b101u);
    EXPECT_EQ(t.next_expiry(), 512'000u);
    EXPECT_EQ(t.expire(512'000), 0b001u);
    EXPECT_EQ(t.next_expiry(), 1'024'000u);
    EXPECT_EQ(t.expire(2'000'000), 0b100u);
}

TEST(pfc_requests, one_frame_per_new_class_none_while_held_and_refresh_at_half)
{
    pfc_requests r;
    std::array<uint64_t, 8> refresh{};
    refresh.fill(42'192'400);
    EXPECT_EQ(r.xoff(0b01, 0, refresh), 0b01u);
    EXPECT_EQ(r.xoff(0b11, 1'000, refresh), 0b10u);  // TC0 is held: only TC1 is new
    EXPECT_EQ(r.next_refresh(), 42'192'400u);
    EXPECT_EQ(r.due(42'192'399, refresh), 0u);
    EXPECT_EQ(r.due(42'192'400, refresh), 0b01u);
    EXPECT_EQ(r.due(42'193'400, refresh), 0b10u);
    EXPECT_EQ(r.next_refresh(), 2u * 42'192'400u);
    EXPECT_EQ(r.xon(0b01), 0b01u);
    EXPECT_EQ(r.xon(0b01), 0u);  // not held: no resume frame
    EXPECT_EQ(r.held(), 0b10u);
    EXPECT_EQ(r.xon(0b10), 0b10u);
    EXPECT_EQ(r.next_refresh(), pfc_requests::never);
}

TEST(pfc_egress_blocking, counts_only_the_paused_time_with_a_frame_waiting)
{
    // Class 0 is paused at 100 with nothing queued; a frame waits from 250; the pause ends at
    // 1,000: 750 ps of XOFF due to egress occupancy out of 900 paused.
    pfc_egress_blocking b;
    b.update(0, 100);
    EXPECT_EQ(b.total_ps(0, 200), 0u);
    b.update(0x01, 250);
    EXPECT_TRUE(b.blocked(0));
    EXPECT_EQ(b.total_ps(0, 400), 150u);  // the running stretch counts up to now
    b.update(0, 1'000);
    EXPECT_FALSE(b.blocked(0));
    EXPECT_EQ(b.total_ps(0, 5'000), 750u);
    EXPECT_EQ(b.total_ps(1, 5'000), 0u);
}

TEST(pfc_egress_blocking, interval_max_is_the_longest_stretch_inside_the_interval)
{
    pfc_egress_blocking b;
    b.update(0x02, 0);    // class 1 blocked from 0
    b.update(0, 300);     // 300
    b.update(0x02, 400);  // and again from 400, still running at the interval's end
    EXPECT_EQ(b.take_interval_max_ps(1, 500), 300u);  // 300 beats the running 100
    // The next interval starts at 500: the running stretch counts from there.
    b.update(0, 1'300);
    EXPECT_EQ(b.take_interval_max_ps(1, 2'000), 800u);
    EXPECT_EQ(b.take_interval_max_ps(1, 3'000), 0u);
    EXPECT_EQ(b.total_ps(1, 3'000), 300u + 900u);
}

TEST(pfc_egress_blocking, classes_are_independent)
{
    pfc_egress_blocking b;
    b.update(0x81, 10);  // classes 0 and 7
    b.update(0x80, 20);  // 0 ends, 7 runs on
    b.update(0x00, 50);
    EXPECT_EQ(b.total_ps(0, 100), 10u);
    EXPECT_EQ(b.total_ps(7, 100), 40u);
}
