// The REPS random source (hw/nic/uet/entropy/entropy_random.*), no SystemC kernel. Golden
// values were computed independently (a Python transcription of docs/spraying.md's recipe),
// and the xorshift32 ones from state 1 are Marsaglia's published sequence.
#include <gtest/gtest.h>

#include <vector>

#include "hw/nic/uet/entropy/entropy_random.h"

using namespace uetsim;

namespace {

// A generator whose state is exactly `state` (seed_state is tested separately).
struct raw_state_random
{
    uint32_t x;
    uint32_t step()
    {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return x;
    }
};

}  // namespace

TEST(entropy_random, xorshift32_steps_match_the_published_sequence)
{
    // The model's step is the textbook one: check it on a copy that starts from state 1.
    raw_state_random r{1};
    EXPECT_EQ(r.step(), 0x00042021u);
    EXPECT_EQ(r.step(), 0x04080601u);
    EXPECT_EQ(r.step(), 0x9DCCA8C5u);
}

TEST(entropy_random, seed_state_is_folded_splitmix64)
{
    // splitmix64's first output for seed 0 is 0xE220A8397B1DCDAF; 0xE220A839 ^ 0x7B1DCDAF.
    EXPECT_EQ(entropy_random::seed_state(0), 0x993D6596u);
    EXPECT_EQ(entropy_random::seed_state(1), 0x1808712Du);
    EXPECT_EQ(entropy_random::seed_state(2), 0x8BCF6310u);
    EXPECT_EQ(entropy_random::seed_state(0x123456789ABCDEF0ull), 0x53D7722Eu);
    EXPECT_EQ(entropy_random(0).state(), 0x993D6596u);
}

TEST(entropy_random, next_u32_from_seed_0)
{
    entropy_random r(0);
    EXPECT_EQ(r.next_u32(), 0x84785571u);
    EXPECT_EQ(r.next_u32(), 0x5410715Au);
    EXPECT_EQ(r.next_u32(), 0x1D5894A7u);
    EXPECT_EQ(r.next_u32(), 0xF6421B61u);
    EXPECT_EQ(r.next_u32(), 0x10E25F36u);
}

TEST(entropy_random, below_65536_is_the_upper_half)
{
    entropy_random r(0);
    const std::vector<uint16_t> expected{33912, 21520, 7512, 63042, 4322};
    for (uint16_t e : expected) EXPECT_EQ(r.below(65536), e);
}

TEST(entropy_random, below_1000_is_multiply_shift)
{
    entropy_random r(0);
    const std::vector<uint16_t> expected{517, 328, 114, 961, 65};
    for (uint16_t e : expected) EXPECT_EQ(r.below(1000), e);
}

TEST(entropy_random, below_1_is_always_0)
{
    entropy_random r(7);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(r.below(1), 0u);
}

TEST(entropy_random, neighbouring_seeds_are_unrelated)
{
    entropy_random a(1), b(2);
    const std::vector<uint16_t> from_1{54166, 1922, 60132, 53531, 53170};
    const std::vector<uint16_t> from_2{37383, 7153, 20962, 40230, 21639};
    for (size_t i = 0; i < from_1.size(); ++i) {
        EXPECT_EQ(a.below(65536), from_1[i]);
        EXPECT_EQ(b.below(65536), from_2[i]);
    }
}

TEST(entropy_random, same_seed_same_sequence)
{
    entropy_random a(0xABCDEFull), b(0xABCDEFull);
    for (int i = 0; i < 10000; ++i) ASSERT_EQ(a.next_u32(), b.next_u32());
}

TEST(entropy_random, entropy_seed_golden_values)
{
    EXPECT_EQ(entropy_seed(1, "host0", 0), 0x05000657D3AE5BADull);
    EXPECT_EQ(entropy_seed(1, "host0", 1), 0x634848F667A545DAull);
    EXPECT_EQ(entropy_seed(2, "host0", 0), 0x54930A79F86AF873ull);
    EXPECT_EQ(entropy_seed(1, "host1", 0), 0xBCF2227C859809B2ull);
}
