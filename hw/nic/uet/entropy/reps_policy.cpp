#include "hw/nic/uet/entropy/reps_policy.h"

#include <algorithm>
#include <cmath>

#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

// Times arrive as doubles from a 1 ps kernel: half a picosecond absorbs their rounding, so a
// recycle exactly FreezingTimeout after the failure counts as "after".
constexpr double time_tolerance_s = 0.5e-12;

}  // namespace

uint64_t reps_bdp_bytes(const entropy_config& cfg)
{
    const double bdp = cfg.link_rate_bps * cfg.initial_base_rtt_s / 8.0;
    // 400e9 x 6e-6 / 8 is 300,000 only up to rounding: snap values within a part in 10^9 of
    // a whole byte before rounding down.
    const double whole = std::round(bdp);
    if (std::abs(bdp - whole) <= 1e-9 * std::max(1.0, bdp)) return uint64_t(whole);
    return uint64_t(std::floor(bdp));
}

uint32_t reps_nominal_packet_bytes(const entropy_config& cfg)
{
    return cfg.rdma_data_mss + wire::uet_nominal_overhead;
}

uint64_t reps_exploration_window_packets(const entropy_config& cfg)
{
    return reps_bdp_bytes(cfg) / reps_nominal_packet_bytes(cfg);
}

reps_policy::reps_policy(const entropy_config& cfg, uint64_t seed)
    : m_cache(cfg.reps_cache_entries())
    , m_random(seed)
    , m_value_set_size(cfg.entropy_value_set_size)
    , m_freezing_timeout_s(cfg.freezing_timeout_s)
    , m_window(reps_exploration_window_packets(cfg))
{
}

uint16_t reps_policy::next(double now_s)
{
    if (in_exploration_window()) {
        const uint64_t k = ++m_window_sent;
        const bool forced = reps_window_packet_explores(k, m_window_open, m_cache.capacity());
        if (m_window_sent == m_window_open) m_window_open = m_window_sent = 0;
        if (forced) {
            ++m_stats.window_explored;
            return explore();
        }
    } else if (m_freezing && m_cache.empty() && m_cache.held() > 0) {
        // Values that might lead back to the failed path are not tried: cycle what is held.
        ++m_stats.frozen_reused;
        m_last_choice = entropy_choice::frozen;
        return m_cache.next_in_turn();
    }
    if (m_cache.empty()) return explore();
    ++m_stats.reused;
    m_last_choice = entropy_choice::reused;
    return m_cache.take_oldest();
}

void reps_policy::feedback(uint16_t entropy, path_feedback f, double now_s)
{
    switch (f) {
        case path_feedback::ack:
        case path_feedback::nack_trimmed_last_hop:  // another path cannot avoid the last hop
            recycle(entropy, now_s);
            break;
        case path_feedback::ack_ecn:
        case path_feedback::nack_trimmed:
            ++m_stats.discarded;  // not added; a copy already cached stays
            break;
        case path_feedback::timeout:
        case path_feedback::failure_detected:
            path_failure(now_s);
            break;
    }
}

uint16_t reps_policy::explore()
{
    ++m_stats.explored;
    m_last_choice = entropy_choice::explored;
    return m_random.below(m_value_set_size);
}

void reps_policy::recycle(uint16_t entropy, double now_s)
{
    ++m_stats.recycled;
    m_cache.recycle(entropy);
    if (m_freezing && now_s >= m_freeze_start_s + m_freezing_timeout_s - time_tolerance_s) {
        m_freezing = false;
        m_window_open = m_window;  // 0 packets: no window
        m_window_sent = 0;
    }
}

void reps_policy::path_failure(double now_s)
{
    if (m_freezing || in_exploration_window()) {
        ++m_stats.failures_ignored;
        return;
    }
    ++m_stats.freezes;
    m_freezing = true;
    m_freeze_start_s = now_s;
    m_cache.restart_turn();
}

}  // namespace uetsim
