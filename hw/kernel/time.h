// Conversions between seconds (scenario values) and SystemC time (1 ps resolution), with the
// rounding rule of picoseconds.h.
#pragma once

#include <cstdint>
#include <systemc>

#include "hw/common/picoseconds.h"

namespace uetsim {

inline sc_core::sc_time seconds(double s)
{
    return sc_core::sc_time::from_value(ps_from_seconds(s));  // resolution is 1 ps
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
    return picoseconds(serialization_ps(bytes, rate_bps));
}

}  // namespace uetsim
