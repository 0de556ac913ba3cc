#include "hw/nic/uet/nscc.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace uetsim {

namespace {

// The page counts the link rate in whole Gbps; the epsilon keeps 400e9 from becoming 399.
double whole_gbps(double bps)
{
    return std::floor(bps / 1e9 + 1e-9) * 1e9;
}

constexpr double max_window_limit_bytes = 4294967295.0;  // a 32-bit byte count
constexpr double full_penalty = 127.0;

template <typename T>
void check_range(std::vector<std::string>& errs, const char* name, T v, value_range r)
{
    const T lo = static_cast<T>(r.lo), hi = static_cast<T>(r.hi);
    if (v >= lo && v <= hi) return;
    std::ostringstream os;
    os << name << ": " << v << " is out of range " << lo << ".." << hi;
    errs.push_back(os.str());
}

}  // namespace

std::vector<std::string> nscc_config_errors(const nscc_config& c)
{
    std::vector<std::string> errs;
    using cfg = nscc_config;
    check_range(errs, "QuickAdaptGate", c.quick_adapt_gate, cfg::quick_adapt_gate_range);
    check_range(errs, "MaxCongestionWindow", c.max_congestion_window,
                cfg::max_congestion_window_range);
    check_range(errs, "ReceiverCongestionLowThreshold", c.receiver_congestion_low_threshold,
                cfg::receiver_congestion_threshold_range);
    check_range(errs, "ReceiverCongestionHighThreshold", c.receiver_congestion_high_threshold,
                cfg::receiver_congestion_threshold_range);
    check_range(errs, "MaxMultiplicativeDecreaseJump", c.max_multiplicative_decrease_jump,
                cfg::max_multiplicative_decrease_jump_range);
    check_range(errs, "AlphaMultiplier", c.alpha_multiplier, cfg::alpha_multiplier_range);
    check_range(errs, "FairIncreaseMultiplier", c.fair_increase_multiplier,
                cfg::fair_increase_multiplier_range);
    check_range(errs, "FastIncreaseMultiplier", c.fast_increase_multiplier,
                cfg::fast_increase_multiplier_range);
    check_range(errs, "EtaMultiplier", c.eta_multiplier, cfg::eta_multiplier_range);
    check_range(errs, "Gamma", c.gamma, cfg::gamma_range);
    check_range(errs, "DelayAlpha", c.delay_alpha, cfg::delay_alpha_range);

    auto negative = [&](const char* name, double v) {
        if (v < 0.0) errs.push_back(std::string(name) + ": a time cannot be negative");
    };
    negative("InitialBaseRTT", c.initial_base_rtt_s);
    negative("ReferenceNetworkRTT", c.reference_network_rtt_s);
    negative("TargetQueueDelay", c.target_queue_delay_s);
    negative("TargetQueueDelayMargin", c.target_queue_delay_margin_s);
    negative("QuickAdaptThreshold", c.quick_adapt_threshold_s);

    // The rules the NIC checks when it opens its first connection.
    if (!c.override_spec_target_queue_delay && c.initial_base_rtt_s <= 0.0)
        errs.push_back("InitialBaseRTT: 0 makes the target queue delay 0");
    if (c.override_spec_target_queue_delay && c.target_queue_delay_s <= 0.0)
        errs.push_back("TargetQueueDelay: 0 makes the target queue delay 0");
    const double link = whole_gbps(c.link_rate_bps);
    if (link < 1e9) errs.push_back("link rate: below 1 Gbps");
    const double max_window = 1.5 * link * c.initial_base_rtt_s / 8.0;
    if (!c.override_uet_spec_max_cwnd && max_window < c.nominal_packet_bytes())
        errs.push_back(
            "InitialBaseRTT: 1.5 x link rate x InitialBaseRTT / 8 is below one nominal "
            "packet");
    if (max_window > max_window_limit_bytes)
        errs.push_back(
            "InitialBaseRTT: 1.5 x link rate x InitialBaseRTT / 8 is above 4294967295 "
            "bytes");
    if (c.reference_network_rtt_s <= 0.0) errs.push_back("ReferenceNetworkRTT: must not be 0");
    if (c.reference_network_link_speed_bps < 1e9)
        errs.push_back("ReferenceNetworkLinkSpeed: below 1 Gbps");
    if (c.reference_network_link_speed_bps * c.reference_network_rtt_s / 8.0 >
        max_window_limit_bytes)
        errs.push_back("ReferenceNetworkRTT: the reference BDP is above 4294967295 bytes");
    return errs;
}

uint8_t receiver_penalty(double occupancy, double low, double high)
{
    if (!(occupancy >= low)) return 0;  // also catches NaN
    if (occupancy >= high) return 127;
    const double p = full_penalty * (occupancy - low) / (high - low);
    return static_cast<uint8_t>(std::clamp(std::floor(p), 0.0, full_penalty));
}

nscc::nscc(const nscc_config& cfg) : m_cfg(cfg)
{
    m_link_bps = whole_gbps(cfg.link_rate_bps);
    m_min_cwnd = cfg.nominal_packet_bytes();
    m_bdp = m_link_bps * cfg.initial_base_rtt_s / 8.0;
    if (cfg.override_spec_target_queue_delay)
        m_target = cfg.target_queue_delay_s;
    else
        m_target = cfg.trimming_enabled ? 0.75 * cfg.initial_base_rtt_s : cfg.initial_base_rtt_s;

    // Gains after htsim's initNsccParams, with Scala's multipliers and reference BDP. They keep
    // these InitialBaseRTT-based values when a lower base RTT is measured.
    const double ref_bdp = cfg.reference_network_link_speed_bps * cfg.reference_network_rtt_s / 8.0;
    const double mss = cfg.rdma_data_mss;
    m_gains.scale_a = ref_bdp > 0.0 ? m_bdp / ref_bdp : 0.0;
    m_gains.scale_b =
        cfg.reference_network_rtt_s > 0.0 ? m_target / cfg.reference_network_rtt_s : 0.0;
    m_gains.alpha = m_target > 0.0
                        ? cfg.alpha_multiplier * mss * m_gains.scale_a * m_gains.scale_b / m_target
                        : 0.0;
    m_gains.fair = cfg.fair_increase_multiplier * mss * m_gains.scale_a;
    m_gains.eta = cfg.eta_multiplier * mss * m_gains.scale_a;
    // The page names only proportional, fair and eta as normalized by the reference BDP, so the
    // fast gain is htsim's 0.25 times FastIncreaseMultiplier without scale_a.
    m_gains.fast = 0.25 * cfg.fast_increase_multiplier;
    m_gains.adjust_period_s = cfg.initial_base_rtt_s;
    m_gains.adjust_bytes = 8.0 * m_min_cwnd;

    m_base_rtt = cfg.initial_base_rtt_s;
    m_delay_ref = cfg.initial_base_rtt_s;
    if (cfg.override_uet_spec_max_cwnd)
        m_max_cwnd = double(cfg.max_congestion_window) * m_min_cwnd;
    else
        m_max_cwnd = derive_max_cwnd(m_base_rtt);
    m_max_cwnd = std::max(m_max_cwnd, m_min_cwnd);
    m_cwnd = m_max_cwnd;  // no slow start
}

double nscc::derive_max_cwnd(double base_rtt_s) const
{
    // Whole bytes: keeps 1.5 x 400 Gbps x 5 us / 8 at 375,000 rather than 375,000.00000000006.
    return std::max(std::round(1.5 * m_link_bps * base_rtt_s / 8.0), m_min_cwnd);
}

double nscc::quick_adapt_gate_bytes() const
{
    return std::ldexp(m_max_cwnd, -int(m_cfg.quick_adapt_gate));
}

bool nscc::window_allows(uint64_t inflight_bytes, uint32_t nominal_bytes) const
{
    if (m_cfg.pass_through) return true;
    return double(inflight_bytes) + double(nominal_bytes) <= m_cwnd;
}

bool nscc::fetch_allows(uint64_t fetched_unacked_bytes) const
{
    if (m_cfg.pass_through) return true;
    return double(fetched_unacked_bytes) <= m_cwnd;
}

void nscc::bound()
{
    m_cwnd = std::clamp(m_cwnd, m_min_cwnd, m_max_cwnd);
}

void nscc::fold_delay(double sample_s)
{
    m_avg_delay = m_cfg.delay_alpha * sample_s + (1.0 - m_cfg.delay_alpha) * m_avg_delay;
}

void nscc::offer_rtt(double rtt_s)
{
    // Only a clear improvement counts, and the base keeps the margin above the sample, so jitter
    // around the unloaded RTT does not ratchet it down.
    if (!(rtt_s < m_base_rtt - m_cfg.base_rtt_margin_s)) return;
    m_base_rtt = rtt_s + m_cfg.base_rtt_margin_s;
    m_delay_ref = rtt_s;
    m_max_cwnd = derive_max_cwnd(m_base_rtt);  // OverrideUetSpecMaxCWind no longer applies
    m_cwnd = std::min(m_cwnd, m_max_cwnd);
    ++m_counters.base_rtt_updates;
}

void nscc::on_probe_rtt(double rtt_s)
{
    offer_rtt(rtt_s);
}

void nscc::open_first_observation_window(double now_s)
{
    if (m_qa_open || m_cfg.disable_quick_adapt) return;
    m_qa_open = true;
    m_qa_acked_bytes = 0;
    m_qa_end = now_s + quick_adapt_window_s();
}

bool nscc::apply_receiver_penalty(const nscc_ack_info& ack)
{
    if (ack.receiver_penalty == 0) {
        if (m_saved_cwnd && ack.restore_cwnd) {
            m_cwnd = std::min(*m_saved_cwnd, m_max_cwnd);  // the max may have fallen since
            ++m_counters.cwnd_restores;
        }
        m_saved_cwnd.reset();  // the episode is over either way
        return false;
    }
    const double pen = std::min(double(ack.receiver_penalty), full_penalty);
    if (!m_saved_cwnd) m_saved_cwnd = m_cwnd;
    m_cwnd = std::min(m_cwnd, double(ack.inflight_bytes));
    m_cwnd -= double(ack.acked_bytes) * pen / full_penalty;
    m_cwnd = std::max(m_cwnd, m_min_cwnd);
    ++m_counters.penalized_acks;
    return true;
}

bool nscc::quick_adapt(double now_s, bool ignorable, uint64_t inflight_bytes)
{
    if (m_cfg.disable_quick_adapt) return false;
    if (ignorable && ignoring_signals()) {
        // Marks and trims of packets sent before the cut must not cut again.
        m_last_action = nscc_action::signal_ignored;
        ++m_counters.ignored_signals;
        return true;
    }
    if (!(now_s > m_qa_end)) return false;

    const bool trigger =
        m_qa_trim_seen || (!m_cfg.trimming_enabled && m_avg_delay > m_cfg.quick_adapt_threshold_s);
    const bool fire = trigger && double(m_qa_acked_bytes) < quick_adapt_gate_bytes();
    if (fire) {
        m_cwnd = std::max(double(m_qa_acked_bytes), m_min_cwnd);
        bound();
        m_bytes_to_ignore = inflight_bytes;
        m_ignored_bytes = 0;
        m_qa_trim_seen = false;
        // Increases earned before the cut no longer apply.
        m_inc_bytes = 0.0;
        m_adjust_acked_bytes = 0;
        m_last_action = nscc_action::quick_adapt;
        ++m_counters.quick_adapts;
    }
    m_qa_acked_bytes = 0;
    m_qa_end = now_s + quick_adapt_window_s();
    return fire;
}

bool nscc::fast_increase(uint64_t acked_bytes, double delay_s)
{
    if (delay_s < m_cfg.target_queue_delay_margin_s) {
        m_fast_count += acked_bytes;
        if (double(m_fast_count) > m_cwnd || m_fast_increase) {
            m_cwnd = std::min(m_cwnd + double(acked_bytes) * m_gains.fast, m_max_cwnd);
            m_fast_increase = true;
            return true;
        }
    } else {
        m_fast_count = 0;  // a sample between the margin and the target restarts the count
    }
    m_fast_increase = false;
    return false;
}

void nscc::multiplicative_decrease(double now_s)
{
    m_fast_increase = false;
    m_fast_count = 0;
    if (!(m_avg_delay > m_target)) return;
    if (m_decreased && !(now_s - m_last_decrease > m_base_rtt)) return;
    const double factor = std::max(1.0 - m_cfg.gamma * (m_avg_delay - m_target) / m_avg_delay,
                                   m_cfg.max_multiplicative_decrease_jump);
    m_cwnd = std::max(m_cwnd * factor, m_min_cwnd);
    m_decreased = true;
    m_last_decrease = now_s;
    ++m_counters.multiplicative_decreases;
}

void nscc::adjust(double now_s)
{
    // The period clock starts with the first ACK that reaches this step.
    if (!m_adjust_started) {
        m_adjust_started = true;
        m_last_adjust = now_s;
    }
    const double since = now_s - m_last_adjust;
    if (!(double(m_adjust_acked_bytes) > m_gains.adjust_bytes || since > m_gains.adjust_period_s))
        return;
    m_cwnd += m_inc_bytes / m_cwnd;
    if (since >= m_gains.adjust_period_s) {
        m_cwnd += m_gains.eta;
        m_last_adjust = now_s;
    }
    m_inc_bytes = 0.0;
    m_adjust_acked_bytes = 0;
}

void nscc::on_ack(const nscc_ack_info& ack, double now_s)
{
    m_last_action = nscc_action::none;
    if (!m_cfg.nscc_enable) {
        // Only the base RTT (and through it the max window) still moves.
        if (ack.rtt_s) offer_rtt(*ack.rtt_s);
        return;
    }

    // Every ACK's bytes count for Quick Adapt, the ignore count and the adjust threshold.
    m_qa_acked_bytes += ack.acked_bytes;
    m_ignored_bytes += ack.acked_bytes;
    m_adjust_acked_bytes += ack.acked_bytes;
    open_first_observation_window(now_s);

    // 1. Receiver penalty, on every ACK of data.
    const bool receiver_limited = apply_receiver_penalty(ack);
    if (!ack.rtt_s) {
        bound();
        return;
    }

    // 2. Base RTT and queueing delay.
    offer_rtt(*ack.rtt_s);
    const double delay = std::max(0.0, *ack.rtt_s - m_delay_ref);
    m_last_delay = delay;
    m_last_rtt = *ack.rtt_s;
    fold_delay(delay);

    // 3. Quick Adapt.
    if (quick_adapt(now_s, ack.ecn_echo, ack.inflight_bytes)) return;

    // 4. Exactly one routine, by ECN echo and delay sample against the target.
    const bool below_target = delay < m_target;
    if (!ack.ecn_echo) {
        if (receiver_limited) {
            // Receiver-limited: no increase of any kind for this ACK.
        } else if (!below_target) {
            m_inc_bytes += m_gains.fair * double(ack.acked_bytes);
            m_last_action = nscc_action::fair_increase;
            ++m_counters.fair_increases;
        } else if (fast_increase(ack.acked_bytes, delay)) {
            m_last_action = nscc_action::fast_increase;
            ++m_counters.fast_increases;
        } else {
            m_inc_bytes += m_gains.alpha * double(ack.acked_bytes) * (m_target - delay);
            m_last_action = nscc_action::proportional_increase;
            ++m_counters.proportional_increases;
        }
    } else if (!below_target) {
        multiplicative_decrease(now_s);
        m_last_action = nscc_action::multiplicative_decrease;
    }

    // 5. Bounds, then the batched increase and eta.
    bound();
    adjust(now_s);
    bound();
}

void nscc::on_trim_nack(double now_s, std::optional<double> rtt_s, uint32_t nominal_bytes,
                        uint64_t inflight_bytes)
{
    m_last_action = nscc_action::none;
    if (rtt_s) offer_rtt(*rtt_s);
    if (!m_cfg.nscc_enable) return;

    m_ignored_bytes += nominal_bytes;
    // A trim reads as one delay sample of InitialBaseRTT.
    fold_delay(m_cfg.initial_base_rtt_s);
    open_first_observation_window(now_s);
    m_qa_trim_seen = true;
    if (quick_adapt(now_s, true, inflight_bytes)) return;

    m_cwnd = std::max(m_cwnd - double(nominal_bytes), m_min_cwnd);
    bound();
    m_last_action = nscc_action::trim_decrease;
    ++m_counters.trim_decreases;
}

void nscc::on_timeout(uint32_t nominal_bytes)
{
    m_last_action = nscc_action::none;
    if (!m_cfg.nscc_enable) return;
    m_cwnd = std::max(m_cwnd - double(nominal_bytes), m_min_cwnd);
    bound();
    m_last_action = nscc_action::timeout_decrease;
    ++m_counters.timeout_decreases;
}

}  // namespace uetsim
