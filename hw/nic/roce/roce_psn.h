// 24-bit packet sequence number arithmetic (the BTH's PSN field wraps at 2^24).
#pragma once

#include <cstdint>

namespace uetsim::roce {

inline constexpr uint32_t psn_mask = 0xFFFFFF;

inline constexpr uint32_t psn_add(uint32_t psn, int64_t n)
{
    return uint32_t(int64_t(psn) + n) & psn_mask;
}
// a - b as a signed distance within half the PSN space (-2^23 .. 2^23 - 1).
inline constexpr int32_t psn_diff(uint32_t a, uint32_t b)
{
    return int32_t(((a - b) & psn_mask) << 8) >> 8;
}

static_assert(psn_add(psn_mask, 1) == 0);
static_assert(psn_diff(0, psn_mask) == 1);
static_assert(psn_diff(psn_mask, 0) == -1);
static_assert(psn_diff(5, 3) == 2);

}  // namespace uetsim::roce
