// NSCC: the UET NIC's window-based congestion control, one instance per PDC group (or per PDC
// with PDC groups off). Pure arithmetic, no SystemC: the NIC's PDS model feeds it ACKs, trim
// NACKs, timeouts and probe RTTs, and asks it whether a packet or a payload fetch may go.
// Behaviour after the Scala UET NIC congestion control page; the gain formulas the page leaves
// out come from the UEC htsim reference model. See docs/nscc.md.
#pragma once

#include <cstdint>
#include <optional>

#include "hw/nic/uet/nscc_config.h"

namespace uetsim {

// What one ACK of data tells the sender.
struct nscc_ack_info
{
    uint64_t acked_bytes = 0;      // nominal bytes this ACK newly retires (cumulative and SACKed)
    std::optional<double> rtt_s;   // RTT sample in s; empty when the ACK gives none
    bool ecn_echo = false;         // the acknowledged packet arrived CE-marked
    uint8_t receiver_penalty = 0;  // 0..127, from the receiving NIC
    bool restore_cwnd = false;     // the receiving NIC's RestoreCWindEnable
    uint64_t inflight_bytes = 0;   // nominal bytes still in flight after this ACK's retirement
};

// What the last event did to the window (for monitors and tests). On an ACK it names the routine
// the ACK selected, even when that routine left the window unchanged (a multiplicative decrease
// inside its once-per-base-RTT spacing, or with the average delay at or below the target).
enum class nscc_action : uint8_t {
    none,  // no routine ran (ECN below target, receiver-limited, NSCC off, ...)
    fair_increase,
    proportional_increase,
    fast_increase,
    multiplicative_decrease,
    quick_adapt,     // Quick Adapt fired and set the window
    signal_ignored,  // ECN-marked ACK or trim NACK ignored after a Quick Adapt
    trim_decrease,
    timeout_decrease,
};

// Gains derived once, from InitialBaseRTT, the link rate and the reference BDP.
struct nscc_gains
{
    double scale_a = 1.0;  // BDP / reference BDP
    double scale_b = 1.0;  // target / ReferenceNetworkRTT
    // Proportional and fair increase accumulate alpha x acked x (target - delay) and
    // fair x acked (bytes^2); each adjustment adds the sum divided by the window.
    double alpha = 0.0;            // proportional increase gain, bytes/s
    double fair = 0.0;             // fair increase gain, bytes
    double eta = 0.0;              // additive term, bytes once per adjust period
    double fast = 0.0;             // fast increase: window bytes per acked byte
    double adjust_period_s = 0.0;  // InitialBaseRTT
    double adjust_bytes = 0.0;     // 8 nominal packets
};

struct nscc_counters
{
    uint64_t quick_adapts = 0;              // Quick Adapt firings (num_quick_adapt)
    uint64_t multiplicative_decreases = 0;  // decreases that cut the window
    uint64_t fair_increases = 0;            // ACKs that took fair increase
    uint64_t proportional_increases = 0;    // ACKs that took proportional increase
    uint64_t fast_increases = 0;            // ACKs that took fast increase
    uint64_t trim_decreases = 0;            // trim NACKs that shrank the window
    uint64_t timeout_decreases = 0;         // timer expiries that shrank the window
    uint64_t ignored_signals = 0;           // ECN ACKs and trim NACKs ignored after Quick Adapt
    uint64_t penalized_acks = 0;            // ACKs with a receiver penalty above 0
    uint64_t cwnd_restores = 0;             // saved windows restored at the receiver's request
    uint64_t base_rtt_updates = 0;          // times a sample lowered the base RTT
};

class nscc
{
public:
    explicit nscc(const nscc_config& cfg);

    // --- Events (times in seconds of simulated time) --------------------------------------------

    // An ACK of data, in the page's order: receiver penalty, then (only with an RTT sample) base
    // RTT and average delay, Quick Adapt, one routine, bounds, the adjust-period increase.
    void on_ack(const nscc_ack_info& ack, double now_s);
    // A NACK for a trimmed packet still in flight. `inflight_bytes` excludes the trimmed packet.
    void on_trim_nack(double now_s, std::optional<double> rtt_s, uint32_t nominal_bytes,
                      uint64_t inflight_bytes);
    // A retransmission timer expired for a packet still in flight.
    void on_timeout(uint32_t nominal_bytes);
    // The round trip of a base-RTT probe: offered to the base RTT only.
    void on_probe_rtt(double rtt_s);

    // --- Gating ---------------------------------------------------------------------------------

    // May a packet (new or retransmitted) of `nominal_bytes` go with `inflight_bytes` in flight?
    bool window_allows(uint64_t inflight_bytes, uint32_t nominal_bytes) const;
    // May a new payload fetch be issued with `fetched_unacked_bytes` fetched and not yet acked?
    bool fetch_allows(uint64_t fetched_unacked_bytes) const;
    // false with PassThrough: the window is computed and recorded but gates nothing.
    bool enforced() const { return !m_cfg.pass_through; }

    // --- State ----------------------------------------------------------------------------------

    double cwnd_bytes() const { return m_cwnd; }
    double max_cwnd_bytes() const { return m_max_cwnd; }
    double min_cwnd_bytes() const { return m_min_cwnd; }
    double bdp_bytes() const { return m_bdp; }  // link rate x InitialBaseRTT / 8
    double base_rtt_s() const { return m_base_rtt; }
    // The RTT delay samples are measured from: InitialBaseRTT, then the RTT that lowered the base.
    double delay_reference_s() const { return m_delay_ref; }
    double target_delay_s() const { return m_target; }
    double avg_queue_delay_s() const { return m_avg_delay; }  // 0 with NSCC off
    double last_delay_sample_s() const { return m_last_delay; }
    double last_rtt_sample_s() const { return m_last_rtt; }  // 0 before the first sample
    double quick_adapt_window_s() const { return m_base_rtt + m_target; }
    double quick_adapt_gate_bytes() const;
    bool fast_increase_active() const { return m_fast_increase; }
    // true while ECN-marked ACKs and trim NACKs are ignored after a Quick Adapt.
    bool ignoring_signals() const { return m_ignored_bytes < m_bytes_to_ignore; }
    nscc_action last_action() const { return m_last_action; }
    const nscc_gains& gains() const { return m_gains; }
    const nscc_counters& counters() const { return m_counters; }
    uint64_t quick_adapt_count() const { return m_counters.quick_adapts; }
    uint64_t multiplicative_decrease_count() const { return m_counters.multiplicative_decreases; }
    const nscc_config& config() const { return m_cfg; }

private:
    double derive_max_cwnd(double base_rtt_s) const;
    void offer_rtt(double rtt_s);
    bool apply_receiver_penalty(const nscc_ack_info& ack);
    void open_first_observation_window(double now_s);
    bool quick_adapt(double now_s, bool ignorable, uint64_t inflight_bytes);
    bool fast_increase(uint64_t acked_bytes, double delay_s);
    void multiplicative_decrease(double now_s);
    void adjust(double now_s);
    void fold_delay(double sample_s);
    void bound();

    nscc_config m_cfg;
    nscc_gains m_gains;
    double m_link_bps = 0.0;  // whole Gbps
    double m_min_cwnd = 0.0;  // one nominal packet
    double m_bdp = 0.0;
    double m_target = 0.0;

    double m_max_cwnd = 0.0;
    double m_cwnd = 0.0;
    double m_base_rtt = 0.0;
    double m_delay_ref = 0.0;
    double m_avg_delay = 0.0;
    double m_last_delay = 0.0;
    double m_last_rtt = 0.0;

    // Quick Adapt: the observation window and the ignore count after a firing.
    bool m_qa_open = false;
    double m_qa_end = 0.0;
    uint64_t m_qa_acked_bytes = 0;
    bool m_qa_trim_seen = false;
    uint64_t m_bytes_to_ignore = 0;
    uint64_t m_ignored_bytes = 0;

    // Fast increase and multiplicative decrease state.
    bool m_fast_increase = false;
    uint64_t m_fast_count = 0;
    bool m_decreased = false;
    double m_last_decrease = 0.0;

    // Fair/proportional increase accumulate here and are applied once per adjust period.
    bool m_adjust_started = false;
    double m_last_adjust = 0.0;
    double m_inc_bytes = 0.0;
    uint64_t m_adjust_acked_bytes = 0;

    std::optional<double> m_saved_cwnd;  // window when the receiver penalty began

    nscc_action m_last_action = nscc_action::none;
    nscc_counters m_counters;
};

// The receiving NIC's penalty for an ACK, from the occupancy of its receive pool for data in
// percent: 0 below `low_percent`, 127 at or above `high_percent`, linear (truncated) between.
uint8_t receiver_penalty(double pool_occupancy_percent, double low_percent, double high_percent);

}  // namespace uetsim
