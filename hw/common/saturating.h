// Unsigned arithmetic that stops at the largest value instead of wrapping: times and sizes that
// may be "never" (UINT64_MAX) stay "never" when something is added to or multiplied into them.
#pragma once

#include <cstdint>

namespace uetsim {

constexpr uint64_t saturated_add(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

constexpr uint64_t saturated_mul(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

}  // namespace uetsim
