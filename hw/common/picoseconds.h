// The one conversion from seconds (scenario values, policy results) to the model's integer
// picoseconds, and the serialization time of a frame, both rounded to the nearest picosecond.
// Kernel-free, so plain classes and SystemC modules share the same rule.
#pragma once

#include <cstdint>

namespace uetsim {

// `s` >= 0. Adding one half and truncating is exact below 2^52 ps (about 75 minutes).
inline uint64_t ps_from_seconds(double s)
{
    return uint64_t(s * 1e12 + 0.5);
}

// Picoseconds as seconds, bit for bit what sc_time::to_seconds() gives at the 1 ps resolution
// (it scales by the resolution in femtoseconds, then by 1e-15; `ps * 1e-12` differs in the last
// bit for many values), so kernel-free code hands the policies the seconds they always had.
inline double seconds_from_ps(uint64_t ps)
{
    return double(ps) * 1000.0 * 1e-15;
}

// Time `bytes` occupy a link of `rate_bps`.
inline uint64_t serialization_ps(uint64_t bytes, double rate_bps)
{
    return uint64_t(double(bytes) * 8.0 * 1e12 / rate_bps + 0.5);
}

}  // namespace uetsim
