// context_cache: LRU hits, misses and evictions on hand-derived access sequences.
#include <gtest/gtest.h>

#include "hw/nic/common/context_cache.h"

using namespace uetsim;

TEST(context_cache, first_accesses_miss_and_fill_without_evicting)
{
    context_cache c(2);
    EXPECT_FALSE(c.access(10).hit);
    const auto r = c.access(20);
    EXPECT_FALSE(r.hit);
    EXPECT_FALSE(r.evicted);
    EXPECT_TRUE(c.access(10).hit);
    EXPECT_TRUE(c.access(20).hit);
    EXPECT_EQ(c.hits(), 2u);
    EXPECT_EQ(c.misses(), 2u);
    EXPECT_EQ(c.evictions(), 0u);
    EXPECT_EQ(c.size(), 2u);
}

TEST(context_cache, a_miss_when_full_evicts_the_least_recently_used)
{
    // 3 entries; A B C fill; A is touched, so B is the LRU when D comes; then C, then A.
    context_cache c(3);
    c.access('A');
    c.access('B');
    c.access('C');
    EXPECT_TRUE(c.access('A').hit);  // order (MRU..LRU): A C B
    auto r = c.access('D');          // evicts B: D A C
    EXPECT_FALSE(r.hit);
    ASSERT_TRUE(r.evicted);
    EXPECT_EQ(r.victim, uint64_t('B'));
    EXPECT_FALSE(c.holds('B'));
    r = c.access('B');  // evicts C: B D A
    ASSERT_TRUE(r.evicted);
    EXPECT_EQ(r.victim, uint64_t('C'));
    EXPECT_TRUE(c.access('A').hit);  // A B D
    r = c.access('E');               // evicts D
    EXPECT_EQ(r.victim, uint64_t('D'));
    EXPECT_EQ(c.hits(), 2u);
    EXPECT_EQ(c.misses(), 6u);  // A B C D B E
    EXPECT_EQ(c.evictions(), 3u);
    EXPECT_EQ(c.size(), 3u);
}

TEST(context_cache, a_cyclic_sweep_larger_than_the_cache_always_misses)
{
    // LRU's known worst case: 5 keys round robin through 4 entries, every access a miss.
    context_cache c(4);
    for (int round = 0; round < 3; ++round)
        for (uint64_t k = 0; k < 5; ++k) EXPECT_FALSE(c.access(k).hit);
    EXPECT_EQ(c.misses(), 15u);
    EXPECT_EQ(c.evictions(), 11u);  // 15 misses less the 4 that filled empty entries
}

TEST(context_cache, a_sweep_that_fits_misses_only_once_per_key)
{
    context_cache c(4);
    for (int round = 0; round < 3; ++round)
        for (uint64_t k = 0; k < 4; ++k) c.access(k);
    EXPECT_EQ(c.misses(), 4u);
    EXPECT_EQ(c.hits(), 8u);
    EXPECT_EQ(c.evictions(), 0u);
}

TEST(context_cache, one_entry_keeps_only_the_last_key)
{
    context_cache c(1);
    c.access(7);
    EXPECT_TRUE(c.access(7).hit);
    const auto r = c.access(8);
    EXPECT_EQ(r.victim, 7u);
    EXPECT_TRUE(c.holds(8));
    EXPECT_FALSE(c.holds(7));
}
