// pipeline_stage: a NIC stage's latency, initiation interval, input FIFO and back-pressure as
// arithmetic, against times worked out by hand (1 cycle = 1,000 ps).
#include <gtest/gtest.h>

#include "hw/nic/common/pipeline_stage.h"

using namespace uetsim;

namespace {
constexpr uint64_t k_cycle = 1000;
}

TEST(pipeline_stage, the_interval_spaces_starts_and_the_latency_follows_each_start)
{
    pipeline_stage s({3, 2, 0}, k_cycle);
    // Three items at 0: they start 2 cycles apart and are done 3 cycles after starting.
    stage_pass a = s.enter(0);
    s.leave(a, a.done);
    stage_pass b = s.enter(0);
    s.leave(b, b.done);
    stage_pass c = s.enter(0);
    s.leave(c, c.done);
    EXPECT_EQ(a.start, 0u);
    EXPECT_EQ(a.done, 3000u);
    EXPECT_EQ(b.start, 2000u);
    EXPECT_EQ(b.done, 5000u);
    EXPECT_EQ(c.start, 4000u);
    EXPECT_EQ(c.done, 7000u);
    EXPECT_EQ(s.next_free_ps(), 6000u);
    EXPECT_EQ(s.stats().items, 3u);
    EXPECT_EQ(s.stats().busy_ps, 6000u);  // 3 intervals of 2 cycles
    EXPECT_EQ(s.stats().stall_ps, 0u);
    EXPECT_EQ(s.stats().max_queue, 2u);  // the third waited behind the second
}

TEST(pipeline_stage, no_interval_means_a_pure_delay)
{
    pipeline_stage s({4, 0, 0}, k_cycle);
    for (uint64_t at : {0u, 0u, 500u}) {
        const stage_pass p = s.enter(at);
        s.leave(p, p.done);
        EXPECT_EQ(p.start, at);
        EXPECT_EQ(p.done, at + 4000);
    }
    EXPECT_EQ(s.stats().max_queue, 0u);
}

TEST(pipeline_stage, a_full_fifo_has_room_when_the_item_depth_places_back_starts)
{
    pipeline_stage s({0, 10, 1}, k_cycle);
    stage_pass a = s.enter(0);  // starts at once: the FIFO stays empty
    s.leave(a, a.done);
    EXPECT_TRUE(s.has_room(0));
    stage_pass b = s.enter(0);  // waits in the FIFO until 10 cycles
    s.leave(b, b.done);
    EXPECT_EQ(b.start, 10000u);
    EXPECT_FALSE(s.has_room(0));
    EXPECT_EQ(s.room_at(0), 10000u);
    EXPECT_EQ(s.room_at(10000), 10000u);
}

TEST(pipeline_stage, a_slow_stage_stalls_the_one_upstream_and_nothing_is_lost)
{
    // A: 1 cycle, no interval, FIFO unbounded; B: 10-cycle interval, a FIFO of one.
    pipeline_stage st[2] = {pipeline_stage({1, 0, 0}, k_cycle),
                            pipeline_stage({0, 10, 1}, k_cycle)};
    // Four items at 0. B starts them at 1, 11, 21, 31 cycles: #3 waits in A (done at 1 cycle,
    // B's FIFO holds #2 until 11), #4 waits in A's FIFO until A is free at 10.
    EXPECT_EQ(pass_through(st, 2, 0), 1000u);
    EXPECT_EQ(pass_through(st, 2, 0), 11000u);
    EXPECT_EQ(pass_through(st, 2, 0), 21000u);
    EXPECT_EQ(pass_through(st, 2, 0), 31000u);
    EXPECT_EQ(st[0].stats().items, 4u);
    EXPECT_EQ(st[1].stats().items, 4u);
    EXPECT_EQ(st[0].stats().stall_ps, 20000u);  // #3 from 1 to 11, #4 from 11 to 21
    EXPECT_EQ(st[0].stats().max_queue, 1u);     // #4 waited for A
    EXPECT_EQ(st[1].stats().busy_ps, 40000u);
    EXPECT_EQ(st[1].stats().stall_ps, 0u);
}

TEST(pipeline_stage, enter_now_does_not_wait_for_the_stage_itself)
{
    pipeline_stage s({2, 5, 0}, k_cycle);
    stage_pass a = s.enter_now(0);
    s.leave(a, a.done);
    const stage_pass b = s.enter_now(1000);  // woken early by its own kernel event
    EXPECT_EQ(b.start, 1000u);
    EXPECT_EQ(b.done, 3000u);
    EXPECT_EQ(s.next_free_ps(), 5000u);
}

TEST(pipeline_stage, delay_only_stages_pass_as_the_sum_of_their_latencies)
{
    pipeline_stage full[2] = {pipeline_stage({4, 0, 0}, k_cycle),
                              pipeline_stage({3, 0, 0}, k_cycle)};
    pipeline_stage fast[2] = {pipeline_stage({4, 0, 0}, k_cycle),
                              pipeline_stage({3, 0, 0}, k_cycle)};
    EXPECT_TRUE(full[0].delay_only());
    EXPECT_FALSE(pipeline_stage({4, 1, 0}, k_cycle).delay_only());
    EXPECT_FALSE(pipeline_stage({4, 0, 2}, k_cycle).delay_only());
    for (uint64_t at : {0u, 0u, 2500u, 9000u}) {
        EXPECT_EQ(pass_through(full, 2, at), at + 7000);
        EXPECT_EQ(pass_through_delays(fast, 2, at, 7000), at + 7000);
    }
    EXPECT_EQ(fast[1].stats().items, full[1].stats().items);
    EXPECT_EQ(fast[0].stats().items, 4u);
}

TEST(pipeline_stage, an_item_waiting_in_service_holds_the_stage_and_keeps_the_order)
{
    // Latency 2 cycles, no interval: a waits for a context until 10 cycles (8 beyond its
    // latency); b, arriving at 1 cycle, cannot start before 8 cycles and is done at 10, not
    // before a.
    pipeline_stage s({2, 0, 0}, k_cycle);
    stage_pass a = s.enter(0);
    s.wait_in_service(a, 10000);
    EXPECT_EQ(a.done, 10000u);
    EXPECT_EQ(a.wait, 8000u);
    s.leave(a, a.done);
    EXPECT_EQ(s.next_free_ps(), 8000u);
    stage_pass b = s.enter(1000);
    s.wait_in_service(b, 0);  // already there: no wait
    s.leave(b, b.done);
    EXPECT_EQ(b.start, 8000u);
    EXPECT_EQ(b.done, 10000u);
    EXPECT_EQ(s.stats().busy_ps, 8000u);  // a's wait; b none
    EXPECT_EQ(s.stats().max_queue, 1u);
}

TEST(pipeline_stage, pass_through_waiting_waits_at_the_named_stage_only)
{
    // Two 1-cycle stages; at stage 1 every item needs something 5 cycles after its start.
    pipeline_stage st[2] = {pipeline_stage({1, 0, 0}, k_cycle), pipeline_stage({1, 0, 0}, k_cycle)};
    const auto ready = [](uint64_t start) { return start + 5000; };
    // a: stage 0 0..1, stage 1 starts at 1, done at 6. b: stage 1 is held until 5 (a's start
    // plus its 4-cycle wait), so b starts there and is done at 10.
    EXPECT_EQ(pass_through_waiting(st, 2, 0, 1, ready), 6000u);
    EXPECT_EQ(pass_through_waiting(st, 2, 0, 1, ready), 10000u);
    EXPECT_EQ(st[0].stats().busy_ps, 0u);
    EXPECT_EQ(st[1].stats().busy_ps, 8000u);
}

TEST(pipeline_stage, the_fifo_p99_weighs_the_time_items_waited)
{
    // As in the first test: b waits 0..2 cycles, c 0..4: 2 items for 2,000 ps, 1 for 2,000 ps.
    pipeline_stage s({3, 2, 0}, k_cycle);
    for (int i = 0; i < 3; ++i) {
        stage_pass p = s.enter(0);
        s.leave(p, p.done);
    }
    EXPECT_EQ(s.fifo_p99(4000), 2u);
    // By 100,000 ps: 96% of the time empty, 98% at most 1: p99 = 2.
    EXPECT_EQ(s.fifo_p99(100000), 2u);
    // By 200,000 ps: 98% empty, 99% at most 1: p99 = 1.
    EXPECT_EQ(s.fifo_p99(200000), 1u);
    // By 1,000,000 ps: 99.6% empty.
    EXPECT_EQ(s.fifo_p99(1000000), 0u);
}
