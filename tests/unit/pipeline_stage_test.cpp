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
