#include "hw/nic/uet/entropy/entropy_random.h"

#include "hw/common/random.h"

namespace uetsim {

uint32_t entropy_random::seed_state(uint64_t seed)
{
    // One splitmix64 step decorrelates neighbouring seeds (group 0, 1, 2, ...), which
    // xorshift alone would not: its first outputs for small seeds are small.
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const uint32_t s = uint32_t(z) ^ uint32_t(z >> 32);
    return s != 0 ? s : 0x9E3779B9u;
}

uint64_t entropy_seed(uint64_t random_seed, std::string_view nic_name, uint64_t group_serial)
{
    // Golden-ratio spacing keeps the group streams of one NIC apart.
    const uint64_t stream = name_hash(nic_name) + group_serial * 0x9E3779B97F4A7C15ull;
    return random_stream(random_seed, stream).next();
}

}  // namespace uetsim
