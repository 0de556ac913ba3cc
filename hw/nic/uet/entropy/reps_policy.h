// Recycled Entropy Packet Spraying (REPS): reuse the entropy values that acknowledgements
// reported uncongested, explore random ones when none is cached, freeze on a path failure
// (reuse what is held, explore nothing) and explore on a fixed pattern in the window after.
// The rules, and the choices this model makes where the page is silent, are in
// docs/spraying.md.
#pragma once

#include "hw/nic/uet/entropy/entropy_policy.h"
#include "hw/nic/uet/entropy/entropy_random.h"
#include "hw/nic/uet/entropy/reps_cache.h"

namespace uetsim {

// Packets in the exploration window after freezing: one bandwidth-delay product (link rate x
// InitialBaseRTT / 8, whole bytes) in nominal packets of RdmaDataMSS + 88 bytes, rounded down.
uint64_t reps_bdp_bytes(const entropy_config& cfg);
uint32_t reps_nominal_packet_bytes(const entropy_config& cfg);
uint64_t reps_exploration_window_packets(const entropy_config& cfg);
// Whether packet `k` (1-based) of a `window`-packet window explores: the last one and every
// `cache_entries`-th before it.
constexpr bool reps_window_packet_explores(uint64_t k, uint64_t window, uint32_t cache_entries)
{
    return k >= 1 && k <= window && (window - k) % cache_entries == 0;
}

class reps_policy : public entropy_policy
{
public:
    // `cfg` must pass entropy_config_error(); `seed` from entropy_seed().
    reps_policy(const entropy_config& cfg, uint64_t seed);

    uint16_t next(double now_s) override;
    void feedback(uint16_t entropy, path_feedback f, double now_s) override;
    packet_spraying_type type() const override { return packet_spraying_type::reps; }
    bool freezing() const override { return m_freezing; }

    const reps_cache& cache() const { return m_cache; }
    bool in_exploration_window() const { return m_window_sent < m_window_open; }
    uint64_t exploration_window_packets() const { return m_window; }
    // Packets sent so far in the open window (0 outside it).
    uint64_t window_packets_sent() const { return in_exploration_window() ? m_window_sent : 0; }
    double freezing_started_s() const { return m_freeze_start_s; }

    struct counters
    {
        uint64_t explored = 0;         // random draws (all reasons)
        uint64_t window_explored = 0;  // of which forced by the exploration window
        uint64_t reused = 0;           // oldest available value taken
        uint64_t frozen_reused = 0;    // held value taken in turn while freezing
        uint64_t recycled = 0;
        uint64_t discarded = 0;
        uint64_t freezes = 0;           // path failures that started freezing
        uint64_t failures_ignored = 0;  // path failures while freezing or in the window
    };
    const counters& stats() const { return m_stats; }

private:
    uint16_t explore();
    void recycle(uint16_t entropy, double now_s);
    void path_failure(double now_s);

    reps_cache m_cache;
    entropy_random m_random;
    uint32_t m_value_set_size;
    double m_freezing_timeout_s;
    uint64_t m_window;  // exploration window length, packets

    bool m_freezing = false;
    double m_freeze_start_s = 0.0;
    // The window is open while m_window_sent < m_window_open (both 0 when closed).
    uint64_t m_window_open = 0;
    uint64_t m_window_sent = 0;
    counters m_stats;
};

}  // namespace uetsim
