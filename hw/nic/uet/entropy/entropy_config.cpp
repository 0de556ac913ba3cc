#include "hw/nic/uet/entropy/entropy_config.h"

#include <cmath>

namespace uetsim {

namespace {

constexpr std::string_view name_none = "None";
constexpr std::string_view name_default = "Default Packet Spraying";
constexpr std::string_view name_reps = "Recycled Entropy Packet Spraying";

std::optional<std::string> outside(const char* attr, uint64_t v, value_range r)
{
    const uint64_t lo = static_cast<uint64_t>(r.lo), hi = static_cast<uint64_t>(r.hi);
    if (v >= lo && v <= hi) return std::nullopt;
    return std::string(attr) + " " + std::to_string(v) + " is outside " + std::to_string(lo) +
           " to " + std::to_string(hi);
}

}  // namespace

const char* spraying_type_name(packet_spraying_type t)
{
    switch (t) {
        case packet_spraying_type::none:
            return name_none.data();
        case packet_spraying_type::default_spraying:
            return name_default.data();
        case packet_spraying_type::reps:
            return name_reps.data();
    }
    return "";
}

std::optional<packet_spraying_type> parse_spraying_type(std::string_view name)
{
    if (name == name_none) return packet_spraying_type::none;
    if (name == name_default) return packet_spraying_type::default_spraying;
    if (name == name_reps) return packet_spraying_type::reps;
    return std::nullopt;
}

std::optional<std::string> entropy_config_error(const entropy_config& cfg)
{
    if (cfg.type == packet_spraying_type::default_spraying) {
        if (auto e = outside("EntropyMaskBits", cfg.entropy_mask_bits,
                             entropy_config::entropy_mask_bits_range))
            return e;
        return outside("StartingPortOffset", cfg.starting_port_offset,
                       entropy_config::starting_port_offset_range);
    }
    if (cfg.type != packet_spraying_type::reps) return std::nullopt;

    if (auto e = outside("REPSBufferSizeMaskBits", cfg.reps_buffer_size_mask_bits,
                         entropy_config::reps_buffer_size_mask_bits_range))
        return e;
    if (auto e = outside("EntropyValueSetSize", cfg.entropy_value_set_size,
                         entropy_config::entropy_value_set_size_range))
        return e;
    if (!(cfg.freezing_timeout_s >= 0) || !std::isfinite(cfg.freezing_timeout_s))
        return std::string("FreezingTimeout must be a time of 0 or more");
    // The window derives from these; the NIC's own checks refuse worse values earlier.
    if (!(cfg.link_rate_bps > 0) || !std::isfinite(cfg.link_rate_bps))
        return std::string("the link rate must be positive");
    if (!(cfg.initial_base_rtt_s >= 0) || !std::isfinite(cfg.initial_base_rtt_s))
        return std::string("InitialBaseRTT must be a time of 0 or more");
    return std::nullopt;
}

double failure_detection_deadline_s(const entropy_config& cfg, double base_rtt_s)
{
    if (cfg.type != packet_spraying_type::reps) return 0.0;
    return double(cfg.failure_detection_rtt_multiplier) * base_rtt_s;
}

}  // namespace uetsim
