// Deterministic random streams. Every random choice in the model draws from its own stream,
// seeded from RandomSeed and a stable name (ARCHITECTURE.md, Determinism). xoshiro-class
// quality is not needed; splitmix64 is tiny, fast, and reproducible by an RTL block.
#pragma once

#include <cstdint>
#include <string_view>

namespace uetsim {

// 64-bit FNV-1a of a name: a stable stream id (component names are stable across runs).
constexpr uint64_t name_hash(std::string_view s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
    return h;
}

class random_stream
{
public:
    random_stream() = default;
    random_stream(uint64_t seed, uint64_t stream) : m_state(seed ^ (stream * 0xD1B54A32D192ED03ull))
    {
        next();
    }
    random_stream(uint64_t seed, std::string_view name) : random_stream(seed, name_hash(name)) {}

    uint64_t next()
    {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) (n > 0), by multiply-shift (no modulo bias worth modelling).
    uint64_t below(uint64_t n) { return static_cast<uint64_t>((__uint128_t(next()) * n) >> 64); }
    // Uniform in [0, 1).
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }

private:
    uint64_t m_state = 0;
};

}  // namespace uetsim
