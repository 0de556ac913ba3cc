// read_tag_pool: reads wait for a free tag and hold it until their completion returns.
#include <gtest/gtest.h>

#include "hw/nic/common/read_tag_pool.h"

using namespace uetsim;

TEST(read_tag_pool, no_tags_never_holds_a_read_back)
{
    read_tag_pool p;
    uint64_t free_at = 99;
    EXPECT_FALSE(p.limited());
    p.earliest(free_at);
    EXPECT_EQ(free_at, 0u);
    EXPECT_EQ(p.hold(0, 10, 1000), 0u);
}

TEST(read_tag_pool, two_tags_and_a_round_trip_of_1000_allow_two_reads_per_1000)
{
    // Reads issued back to back at 0: each takes 1,000 ps from request to completion.
    read_tag_pool p(2);
    uint64_t starts[5];
    for (int i = 0; i < 5; ++i) {
        uint64_t free_at = 0;
        const uint32_t tag = p.earliest(free_at);
        starts[i] = free_at;  // the engine is ready at 0; the tag decides
        p.hold(tag, starts[i], starts[i] + 1000);
    }
    EXPECT_EQ(starts[0], 0u);
    EXPECT_EQ(starts[1], 0u);
    EXPECT_EQ(starts[2], 1000u);
    EXPECT_EQ(starts[3], 1000u);
    EXPECT_EQ(starts[4], 2000u);
    EXPECT_EQ(p.max_in_use(), 2u);
}

TEST(read_tag_pool, in_use_counts_the_tags_still_held_at_the_request)
{
    read_tag_pool p(4);
    EXPECT_EQ(p.hold(0, 0, 500), 1u);
    EXPECT_EQ(p.hold(1, 100, 900), 2u);
    EXPECT_EQ(p.hold(2, 600, 700), 2u);  // tag 0 came back at 500
    EXPECT_EQ(p.max_in_use(), 2u);
}

TEST(read_tag_pool, the_p99_of_tags_in_use_weighs_time)
{
    // Tag timeline: 0..500 one read, 100..900 another, 600..700 a third:
    // 0-100: 1, 100-500: 2, 500-600: 1, 600-700: 2, 700-900: 1, 900-1000: 0.
    // Time at 0: 100, at 1: 100+100+200 = 400, at 2: 400+100 = 500 of 1000.
    read_tag_pool p(4);
    p.hold(0, 0, 500);
    p.hold(1, 100, 900);
    p.hold(2, 600, 700);
    EXPECT_EQ(p.in_use_p99(1000), 2u);
    // 10,000 ps: 9,100 at 0, 400 at 1, 500 at 2 -> 0 and 1 cover 95%: p99 still 2.
    EXPECT_EQ(p.in_use_p99(10000), 2u);
    // 100,000 ps: 0 covers 99,100 of 100,000 = 99.1%.
    EXPECT_EQ(p.in_use_p99(100000), 0u);
}
