// Building a PDC group's load balancer from the configuration, and the values the
// configuration implies (what `uetsim inspect --json` prints under `spraying`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/entropy/entropy_policy.h"

namespace uetsim {

// One load balancer per PDC group. `seed` (entropy_seed()) matters only for REPS; for None,
// cfg.local_udp_port must be the local port of the PDC creating the group. Throws
// std::invalid_argument with entropy_config_error()'s text for an invalid configuration.
std::unique_ptr<entropy_policy> make_entropy_policy(const entropy_config& cfg, uint64_t seed);

struct reps_derived
{
    uint32_t cache_entries = 0;
    uint32_t explore_lo = 0;  // explore range, inclusive
    uint32_t explore_hi = 0;
    double freezing_timeout_s = 0.0;
    double failure_detection_deadline_s = 0.0;  // at InitialBaseRTT; 0: detection off
    uint64_t bdp_bytes = 0;
    uint32_t nominal_packet_bytes = 0;
    uint64_t exploration_window_packets = 0;
    std::vector<uint64_t> exploring_packets;  // 1-based indices in the window, ascending
};

struct spraying_derived
{
    packet_spraying_type type = packet_spraying_type::default_spraying;
    // None: the one fixed value. Default Packet Spraying: one period of the round robin, in
    // order. REPS: empty (its values have no period).
    std::vector<uint16_t> ports;
    std::optional<reps_derived> reps;  // REPS only: the other types read none of it
};

// Throws std::invalid_argument as make_entropy_policy() does.
spraying_derived derive_spraying(const entropy_config& cfg);

}  // namespace uetsim
