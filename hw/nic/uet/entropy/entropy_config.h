// Attributes of a UET NIC's packet spraying (PacketSprayingType and the DefaultPacketSpraying and
// RecycledEntropyPacketSpraying groups), with the NIC values the load balancer derives from.
// Defaults and ranges are the configuration page's; docs/spraying.md explains each one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace uetsim {

enum class packet_spraying_type { none, default_spraying, reps };

// The page's spellings: "None", "Default Packet Spraying", "Recycled Entropy Packet Spraying".
const char* spraying_type_name(packet_spraying_type t);
std::optional<packet_spraying_type> parse_spraying_type(std::string_view name);

struct entropy_config
{
    packet_spraying_type type = packet_spraying_type::default_spraying;

    // Default Packet Spraying.
    uint32_t entropy_mask_bits = 7;       // 0..8: 2^bits ports in turn
    uint32_t starting_port_offset = 256;  // 0..65,535: first port of the range

    // Recycled Entropy Packet Spraying.
    uint32_t reps_buffer_size_mask_bits = 3;        // 0..16: 2^bits cache entries
    uint32_t entropy_value_set_size = 65536;        // 1..65,536: explore draws from [0, size)
    double freezing_timeout_s = 100e-6;             // >= 0: shortest freezing
    uint32_t failure_detection_rtt_multiplier = 3;  // x base RTT; 0 turns detection off

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
