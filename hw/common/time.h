// Conversions between seconds (scenario values) and SystemC time (1 ps resolution).
#pragma once

#include <cmath>
#include <cstdint>
#include <systemc>

namespace uetsim {

inline sc_core::sc_time seconds(double s)
{
    return sc_core::sc_time(s, sc_core::SC_SEC);
}
inline sc_core::sc_time picoseconds(uint64_t ps)
{
    return sc_core::sc_time::from_value(ps);  // resolution is 1 ps (set by the testbench)
}
inline uint64_t to_ps(const sc_core::sc_time& t)
{
    return t.value();
}
inline double to_seconds(const sc_core::sc_time& t)
{
    return t.to_seconds();
}

// Serialization time of `bytes` at `rate_bps`, rounded to the nearest picosecond.
inline sc_core::sc_time serialization(uint64_t bytes, double rate_bps)
{
    return picoseconds(static_cast<uint64_t>(std::llround(double(bytes) * 8.0 * 1e12 / rate_bps)));
}

}  // namespace uetsim
