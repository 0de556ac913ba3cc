// PSN arithmetic: 32-bit sequence numbers compared by serial-number arithmetic, so windows work
// across the wrap from 2^32 - 1 to 0.
#pragma once

#include <cstdint>

namespace uetsim::psn {

// a - b as a signed distance (valid while |a - b| < 2^31).
constexpr int32_t diff(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b);
}
constexpr bool before(uint32_t a, uint32_t b)
{
    return diff(a, b) < 0;
}
constexpr bool at_or_before(uint32_t a, uint32_t b)
{
    return diff(a, b) <= 0;
}

}  // namespace uetsim::psn
