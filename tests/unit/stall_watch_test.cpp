// Simulation.StallTimeout's rule: stalled once work has been outstanding with no progress for
// the timeout; idle time with nothing outstanding never counts.
#include <gtest/gtest.h>

#include "testbench/run/stall_watch.h"

namespace uetsim {
namespace {

TEST(stall_watch, stalls_after_the_timeout_of_outstanding_work_without_progress)
{
    stall_watch w(1'000'000'000);  // 1 ms
    EXPECT_FALSE(w.observe(0, 0, true));
    EXPECT_FALSE(w.observe(500'000'000, 100, true));  // progress: the clock restarts at 0.5 ms
    EXPECT_EQ(w.since_ps(), 500'000'000u);
    EXPECT_FALSE(w.observe(1'400'000'000, 100, true));
    EXPECT_TRUE(w.observe(1'500'000'000, 100, true));  // 1 ms after the last progress
    EXPECT_TRUE(w.observe(1'600'000'000, 200, true));  // stays stalled: the run is stopping
}

TEST(stall_watch, nothing_outstanding_is_never_a_stall)
{
    stall_watch w(1'000'000'000);  // 1 ms
    EXPECT_FALSE(w.observe(0, 0, false));
    EXPECT_FALSE(
        w.observe(5'000'000'000, 0, false));  // a message that starts later: idle, not stuck
    EXPECT_FALSE(w.observe(5'000'000'000, 0, true));  // it starts: the clock starts here
    EXPECT_EQ(w.since_ps(), 5'000'000'000u);
    EXPECT_FALSE(w.observe(5'900'000'000, 0, true));
    EXPECT_TRUE(w.observe(6'000'000'000, 0, true));
}

TEST(stall_watch, zero_is_off)
{
    EXPECT_FALSE(stall_watch(0).enabled());
    EXPECT_TRUE(stall_watch(1).enabled());
}

}  // namespace
}  // namespace uetsim
