// Saturating arithmetic (hw/common/saturating.h): "never" (UINT64_MAX) stays "never".
#include <gtest/gtest.h>

#include <cstdint>

#include "hw/common/saturating.h"

using namespace uetsim;

TEST(saturating, adds_exactly_below_the_top_and_stops_at_it)
{
    EXPECT_EQ(saturated_add(2, 3), 5u);
    EXPECT_EQ(saturated_add(UINT64_MAX - 3, 3), UINT64_MAX);
    EXPECT_EQ(saturated_add(UINT64_MAX - 3, 4), UINT64_MAX);  // would wrap to 0
    EXPECT_EQ(saturated_add(UINT64_MAX, UINT64_MAX), UINT64_MAX);
}

TEST(saturating, multiplies_exactly_below_the_top_and_stops_at_it)
{
    EXPECT_EQ(saturated_mul(0, UINT64_MAX), 0u);
    EXPECT_EQ(saturated_mul(1u << 31, 1u << 31), uint64_t(1) << 62);
    EXPECT_EQ(saturated_mul(uint64_t(1) << 32, uint64_t(1) << 32), UINT64_MAX);  // would be 0
    EXPECT_EQ(saturated_mul(3, UINT64_MAX / 3), UINT64_MAX / 3 * 3);
    EXPECT_EQ(saturated_mul(3, UINT64_MAX / 3 + 1), UINT64_MAX);
}
