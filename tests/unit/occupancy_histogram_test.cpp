// occupancy_histogram: time-weighted levels, max and percentiles from hand-built timelines.
#include <gtest/gtest.h>

#include "hw/common/occupancy_histogram.h"

using namespace uetsim;

TEST(occupancy_histogram, an_untouched_histogram_reads_zero)
{
    occupancy_histogram h;
    EXPECT_EQ(h.max(), 0u);
    EXPECT_EQ(h.p99(0), 0u);
    EXPECT_EQ(h.p99(1000), 0u);
}

TEST(occupancy_histogram, percentiles_weigh_levels_by_time_not_by_changes)
{
    // Level 0 for 0..900, 5 for 900..990, 1 for 990..1000 (many changes, little time at 1).
    occupancy_histogram h;
    h.set(900, 5);
    h.set(990, 1);
    // At 1000: 900 ps at 0, 90 at 5, 10 at 1. Cumulative: L0 900 (90%), L1 910 (91%), L5 1000.
    EXPECT_EQ(h.quantile(0.90, 1000), 0u);
    EXPECT_EQ(h.quantile(0.91, 1000), 1u);
    EXPECT_EQ(h.p99(1000), 5u);
    EXPECT_EQ(h.max(), 5u);
    // Level 1 goes on to 10,000: 900 ps at 0, 9,010 at 1, 90 at 5; levels 0 and 1 together
    // cover 9,910 of 10,000 ps = 99.1%: p99 = 1.
    EXPECT_EQ(h.p99(10000), 1u);
}

TEST(occupancy_histogram, a_short_peak_sets_the_max_but_not_the_p99)
{
    occupancy_histogram h;
    h.set(0, 2);
    h.set(995, 40);  // 5 ps of 1000 at 40: 0.5%
    h.set(1000, 2);
    EXPECT_EQ(h.max(), 40u);
    EXPECT_EQ(h.p99(1000), 2u);
    EXPECT_EQ(h.quantile(0.999, 1000), 40u);
}

TEST(occupancy_histogram, add_steps_the_level_and_an_earlier_time_counts_as_the_last)
{
    occupancy_histogram h;
    h.add(100, +1);
    h.add(200, +1);
    h.add(150, -1);  // out of order: applied at 200
    EXPECT_EQ(h.level(), 1u);
    // 0..100 at 0, 100..200 at 1, 200..300 at 1: two thirds at 1.
    EXPECT_EQ(h.quantile(0.33, 300), 0u);
    EXPECT_EQ(h.quantile(0.34, 300), 1u);
    EXPECT_EQ(h.max(), 2u);  // level 2 was reached, for no time
}
