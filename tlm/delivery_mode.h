// UET 1.0 PDS delivery modes, each by the PDS type code of its request (uet_spec_facts.md):
// reliable unordered (RUD), reliable ordered (ROD), reliable unordered for idempotent
// operations (RUDI) and unreliable unordered (UUD). A message is sent in one of them.
#pragma once

#include <cstdint>

namespace uetsim {

enum class delivery_mode : uint8_t { rud = 2, rod = 3, rudi = 4, uud = 6 };

// PDS type codes of the modes' packets (UET 1.0.1): the requests are the modes' values.
namespace pds_type {
inline constexpr uint8_t rud_request = 2;
inline constexpr uint8_t rod_request = 3;
inline constexpr uint8_t rudi_request = 4;
inline constexpr uint8_t rudi_response = 5;
inline constexpr uint8_t uud_request = 6;
}  // namespace pds_type

// The NACK code of a ROD packet that arrived past a gap (UET 1.0.1 ROD_OOO).
inline constexpr uint8_t nack_rod_out_of_order = 0x0D;

inline const char* delivery_mode_name(delivery_mode m)
{
    switch (m) {
        case delivery_mode::rud:
            return "RUD";
        case delivery_mode::rod:
            return "ROD";
        case delivery_mode::rudi:
            return "RUDI";
        case delivery_mode::uud:
            return "UUD";
    }
    return "RUD";
}

}  // namespace uetsim
