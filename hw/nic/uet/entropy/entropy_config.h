// Attributes of a UET NIC's packet spraying (PacketSprayingType and the DefaultPacketSpraying and
// RecycledEntropyPacketSpraying groups), with the NIC values the load balancer derives from.
// Defaults and ranges are the configuration page's; docs/spraying.md explains each one. The
// *_range constants are the one statement of each range (the scenario keys and
// entropy_config_error read them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hw/common/value_range.h"

namespace uetsim {

enum class packet_spraying_type { none, default_spraying, reps };

// The page's spellings: "None", "Default Packet Spraying", "Recycled Entropy Packet Spraying".
const char* spraying_type_name(packet_spraying_type t);
std::optional<packet_spraying_type> parse_spraying_type(std::string_view name);

// The local UDP port of PDC `pdc_id`: the fixed entropy value of a group under None.
inline uint16_t none_port(uint16_t pdc_id)
{
    return uint16_t(0xC000 | (pdc_id & 0x3FFF));
}

struct entropy_config
{
    packet_spraying_type type = packet_spraying_type::default_spraying;

    // Default Packet Spraying.
    uint32_t entropy_mask_bits = 7;  // 2^bits ports in turn
    static constexpr value_range entropy_mask_bits_range{0, 8};
    uint32_t starting_port_offset = 256;  // first port of the range
    static constexpr value_range starting_port_offset_range{0, 65535};

    // Recycled Entropy Packet Spraying.
    uint32_t reps_buffer_size_mask_bits = 3;  // 2^bits cache entries
    static constexpr value_range reps_buffer_size_mask_bits_range{0, 16};
    uint32_t entropy_value_set_size = 65536;  // explore draws from [0, size)
    static constexpr value_range entropy_value_set_size_range{1, 65536};
    double freezing_timeout_s = 100e-6;  // shortest freezing
    static constexpr value_range freezing_timeout_range{0, 1};
    uint32_t failure_detection_rtt_multiplier = 3;  // x base RTT; 0 turns detection off
    static constexpr value_range failure_detection_rtt_multiplier_range{0, 1000};

    // NIC values, not spraying attributes: they size the exploration window (REPS) and give
    // the fixed value (None).
    double link_rate_bps = 400e9;      // the NIC's link rate
    double initial_base_rtt_s = 6e-6;  // InitialBaseRTT
    uint32_t rdma_data_mss = 4096;     // RdmaDataMSS
    uint16_t local_udp_port = 0;       // None: local UDP port of the PDC that created the group

    uint32_t default_port_count() const { return 1u << entropy_mask_bits; }
    uint32_t reps_cache_entries() const { return 1u << reps_buffer_size_mask_bits; }
};

// The first attribute outside its range, as "EntropyMaskBits 9 is outside 0 to 8"; nullopt
// when every attribute is valid. Only the attributes the selected type reads are checked.
std::optional<std::string> entropy_config_error(const entropy_config& cfg);

// Early failure detection (REPS only): the time after a data packet is sent at which the NIC
// reports a path failure for it if it is still unacknowledged, for the base RTT congestion
// control currently holds. 0 means "do not arm": FailureDetectionRTTMultiplier is 0 or the
// type is not REPS.
double failure_detection_deadline_s(const entropy_config& cfg, double base_rtt_s);

}  // namespace uetsim
