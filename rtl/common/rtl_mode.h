// How a device runs one RTL block (Rtl.FlowHash, Rtl.EntropyLoadBalancer, Rtl.SackTracker):
//   model  the C++ model only (the default; no RTL is built)
//   rtl    the Verilated block's answers are used, nothing is compared; a NIC engine's C++
//          model still runs beside the RTL, because the records and observers read its state
//   both   model and RTL in lockstep: the model's answers are used, every RTL answer is compared
//          with them, and the first mismatch stops the run (rtl_mismatch.h)
// Kernel-free.
#pragma once

#include <optional>
#include <string_view>

namespace uetsim {

enum class rtl_mode { model, rtl, both };

// For messages naming what a key allows.
inline constexpr std::string_view rtl_mode_values = "model, rtl, both";

inline constexpr std::string_view to_string(rtl_mode m)
{
    switch (m) {
        case rtl_mode::model:
            return "model";
        case rtl_mode::rtl:
            return "rtl";
        case rtl_mode::both:
            return "both";
    }
    return "model";
}

// Exact spelling only (the keys' values are lower case); nullopt otherwise.
inline std::optional<rtl_mode> parse_rtl_mode(std::string_view s)
{
    if (s == "model") return rtl_mode::model;
    if (s == "rtl") return rtl_mode::rtl;
    if (s == "both") return rtl_mode::both;
    return std::nullopt;
}

// The RTL is built (rtl or both).
inline constexpr bool uses_rtl(rtl_mode m)
{
    return m != rtl_mode::model;
}

}  // namespace uetsim
