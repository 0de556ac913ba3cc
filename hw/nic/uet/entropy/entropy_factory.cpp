#include "hw/nic/uet/entropy/entropy_factory.h"

#include <stdexcept>

#include "hw/nic/uet/entropy/fixed_entropy.h"
#include "hw/nic/uet/entropy/reps_policy.h"
#include "hw/nic/uet/entropy/round_robin_entropy.h"

namespace uetsim {

std::unique_ptr<entropy_policy> make_entropy_policy(const entropy_config& cfg, uint64_t seed)
{
    if (auto e = entropy_config_error(cfg)) throw std::invalid_argument(*e);
    switch (cfg.type) {
        case packet_spraying_type::none:
            return std::make_unique<fixed_entropy_policy>(cfg.local_udp_port);
        case packet_spraying_type::default_spraying:
            return std::make_unique<round_robin_entropy_policy>(cfg.entropy_mask_bits,
                                                                cfg.starting_port_offset);
        case packet_spraying_type::reps:
            return std::make_unique<reps_policy>(cfg, seed);
    }
    throw std::invalid_argument("unknown PacketSprayingType");
}

spraying_derived derive_spraying(const entropy_config& cfg)
{
    if (auto e = entropy_config_error(cfg)) throw std::invalid_argument(*e);
    spraying_derived d;
    d.type = cfg.type;
    switch (cfg.type) {
        case packet_spraying_type::none:
            d.ports.push_back(cfg.local_udp_port);
            break;
        case packet_spraying_type::default_spraying: {
            // Same arithmetic as the policy, without stepping one.
            const uint32_t n = cfg.default_port_count();
            d.ports.reserve(n);
            for (uint32_t i = 0; i < n; ++i)
                d.ports.push_back(uint16_t(cfg.starting_port_offset + i));
            break;
        }
        case packet_spraying_type::reps: {
            reps_derived r;
            r.cache_entries = cfg.reps_cache_entries();
            r.explore_lo = 0;
            r.explore_hi = cfg.entropy_value_set_size - 1;
            r.freezing_timeout_s = cfg.freezing_timeout_s;
            r.failure_detection_deadline_s =
                failure_detection_deadline_s(cfg, cfg.initial_base_rtt_s);
            r.bdp_bytes = reps_bdp_bytes(cfg);
            r.nominal_packet_bytes = reps_nominal_packet_bytes(cfg);
            r.exploration_window_packets = reps_exploration_window_packets(cfg);
            const uint64_t w = r.exploration_window_packets;
            const uint64_t first = w == 0 ? 0 : (w - 1) % r.cache_entries + 1;
            for (uint64_t k = first; k >= 1 && k <= w; k += r.cache_entries) {
                r.exploring_packets.push_back(k);
            }
            d.reps = std::move(r);
            break;
        }
    }
    return d;
}

}  // namespace uetsim
