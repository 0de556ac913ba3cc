// DSCP codepoints. The UET specification names codepoint roles (no-trim, trimmable, trimmable
// retransmission, trimmed, trimmed on the last hop, control) but not their numbers. uetsim puts
// the role in the low three bits and the traffic class in the high three, so a switch without
// the UET policy still finds the class as DSCP / 8 (docs/packet.md).
#pragma once

#include <cstdint>

namespace uetsim::dscp {

enum class role : uint8_t {
    no_trim = 0,
    trimmable = 1,
    trimmable_rtx = 2,
    trimmed = 3,
    trimmed_last_hop = 4,
    control = 5,
};

constexpr uint8_t make(uint8_t traffic_class, role r)
{
    return static_cast<uint8_t>(((traffic_class & 7u) << 3) | static_cast<uint8_t>(r));
}
constexpr uint8_t traffic_class(uint8_t dscp)
{
    return static_cast<uint8_t>((dscp >> 3) & 7u);
}
constexpr role role_of(uint8_t dscp)
{
    return static_cast<role>(dscp & 7u);
}
constexpr bool is_trimmable(uint8_t dscp)
{
    return role_of(dscp) == role::trimmable || role_of(dscp) == role::trimmable_rtx;
}
constexpr bool is_trimmed(uint8_t dscp)
{
    return role_of(dscp) == role::trimmed || role_of(dscp) == role::trimmed_last_hop;
}

}  // namespace uetsim::dscp

namespace uetsim::ecn {
// IP ECN field values (RFC 3168).
inline constexpr uint8_t not_ect = 0, ect1 = 1, ect0 = 2, ce = 3;
}  // namespace uetsim::ecn
