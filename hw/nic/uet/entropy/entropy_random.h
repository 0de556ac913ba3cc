// The random source of REPS exploration: a 32-bit xorshift (Marsaglia's 13/17/5 triple,
// period 2^32 - 1) and a multiply-shift into the draw range. Chosen so an RTL load balancer
// can reproduce the model's draws bit for bit: three shifts and XORs per draw, a 32 x 17-bit
// multiply for the range, and a 32-bit seed register. docs/spraying.md gives the exact recipe.
#pragma once

#include <cstdint>
#include <string_view>

namespace uetsim {

class entropy_random
{
public:
    // `seed` is any 64-bit value (entropy_seed() below); the constructor turns it into the
    // 32-bit non-zero state an RTL block would be loaded with (seed_state()).
    explicit entropy_random(uint64_t seed) : m_state(seed_state(seed)) {}

    // The 32-bit state for a 64-bit seed: the first splitmix64 output for `seed`, its two
    // halves XORed; a zero result (xorshift's fixed point) becomes 0x9E3779B9.
    static uint32_t seed_state(uint64_t seed);

    // Steps the xorshift once and returns the new state.
    uint32_t next_u32()
    {
        uint32_t x = m_state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        m_state = x;
        return x;
    }

    // Uniform in [0, n) for 1 <= n <= 65,536: the top bits of next_u32() x n, so one step per
    // draw and, for n = 65,536, simply the upper 16 bits.
    uint16_t below(uint32_t n) { return uint16_t((uint64_t(next_u32()) * n) >> 32); }

    uint32_t state() const { return m_state; }

private:
    uint32_t m_state;
};

// The seed of one PDC group's load balancer: RandomSeed, the NIC's stable name and the
// group's serial number at that NIC (0 for the first group it creates, then 1, 2, ...), so
// every group explores its own reproducible sequence.
uint64_t entropy_seed(uint64_t random_seed, std::string_view nic_name, uint64_t group_serial);

}  // namespace uetsim
