// Attributes of NSCC, the UET NIC's congestion control (Scala `ScalaUETCongestionControl`, plus the
// few NIC attributes it reads). Defaults and ranges are the UET NIC configuration page's; see
// docs/nscc.md. Times are seconds, rates bit/s, sizes bytes. The *_range constants are the one
// statement of each attribute's range (the scenario keys and nscc_config_errors read them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/common/value_range.h"

namespace uetsim {

struct nscc_config
{
    // --- ScalaUETCongestionControl ---------------------------------------------------------------

    // true: the window is computed but limits neither sending nor fetching.
    bool pass_through = false;  // PassThrough, default false
    // false: no routine, Quick Adapt, loss reaction or receiver penalty moves the window, which
    // stays at the max window and is still enforced.
    bool nscc_enable = true;  // NSCCEnable, default true

    double initial_base_rtt_s = 6e-6;  // InitialBaseRTT, default 6 us
    static constexpr value_range initial_base_rtt_range{0, 1e-2};
    // The reference BDP (RTT x speed / 8) that normalizes proportional/fair increase and eta.
    // ReferenceNetworkRTT: default 6 us. ReferenceNetworkLinkSpeed: 400 Gbps.
    double reference_network_rtt_s = 6e-6;
    static constexpr value_range reference_network_rtt_range{1e-9, 1e-2};
    double reference_network_link_speed_bps = 400e9;
    static constexpr value_range reference_network_link_speed_range{1e9, 3.2e12};

    bool override_spec_target_queue_delay = false;  // OverrideSpecTargetQueueDelay, default false
    double target_queue_delay_s = 4.5e-6;           // TargetQueueDelay, default 4500 ns
    static constexpr value_range target_queue_delay_range{0, 1e-2};
    // Delay below which ACKs count toward fast increase (not a band around the target).
    double target_queue_delay_margin_s = 1e-6;  // TargetQueueDelayMargin, default 1 us
    static constexpr value_range target_queue_delay_margin_range{0, 1e-2};

    bool disable_quick_adapt = false;  // DisableQuickAdapt, default false
    uint32_t quick_adapt_gate = 3;     // QuickAdaptGate, default 3
    static constexpr value_range quick_adapt_gate_range{0, 31};
    double quick_adapt_threshold_s = 24e-6;  // QuickAdaptThreshold, default 24 us
    static constexpr value_range quick_adapt_threshold_range{0, 1};

    bool override_uet_spec_max_cwnd = false;  // OverrideUetSpecMaxCWind, default false
    uint32_t max_congestion_window = 107;     // MaxCongestionWindow (nominal packets), 107
    static constexpr value_range max_congestion_window_range{1, 4096};

    // Receiver side: read by the NIC when it builds an ACK, never by the sender's nscc.
    double receiver_congestion_low_threshold = 25.0;   // ReceiverCongestionLowThreshold, %
    double receiver_congestion_high_threshold = 75.0;  // ReceiverCongestionHighThreshold, %
    static constexpr value_range receiver_congestion_threshold_range{0, 100};
    bool restore_cwnd_enable = false;  // RestoreCWindEnable, default false

    double max_multiplicative_decrease_jump = 0.5;  // MaxMultiplicativeDecreaseJump, 0.5
    static constexpr value_range max_multiplicative_decrease_jump_range{0.001, 1};
    double alpha_multiplier = 4.0;  // AlphaMultiplier, default 4.0
    static constexpr value_range alpha_multiplier_range{1, 100};
    double fair_increase_multiplier = 5.0;  // FairIncreaseMultiplier, default 5.0
    static constexpr value_range fair_increase_multiplier_range{1, 100};
    double fast_increase_multiplier = 1.0;  // FastIncreaseMultiplier, default 1.0
    static constexpr value_range fast_increase_multiplier_range{0.01, 100};
    double eta_multiplier = 0.15;  // EtaMultiplier, default 0.15
    static constexpr value_range eta_multiplier_range{0, 1};
    double gamma = 0.8;  // Gamma, default 0.8
    static constexpr value_range gamma_range{0.001, 1};
    double delay_alpha = 0.25;  // DelayAlpha, default 0.25
    static constexpr value_range delay_alpha_range{0, 1};

    // --- Attributes of other NIC components that NSCC reads --------------------------------------

    // ScalaUETPdsManager.TrimmingEnabled: target 0.75 x InitialBaseRTT, Quick Adapt's delay
    // trigger off.
    bool trimming_enabled = false;  // default false
    // The NIC's link rate: min(UplinkNetworkInterface.DataRate, rack switch downlink rate).
    // Counted in whole Gbps (truncated); must be >= 1 Gbps.
    double link_rate_bps = 400e9;
    // SemanticLayer.RdmaDataMSS: the nominal packet (the window's unit) is this + 88 bytes.
    uint32_t rdma_data_mss = 4096;

    // --- Model constant, not a scenario attribute ------------------------------------------------

    // A sample lowers the base RTT only when more than this below it; the new base is the sample
    // plus this. The page states roughly 1 us.
    double base_rtt_margin_s = 1e-6;

    // IP datagram headers counted in a nominal packet: SES 44 + PDS 16 + UDP 8 + IPv4 20.
    static constexpr uint32_t nominal_header_bytes = 88;

    uint32_t nominal_packet_bytes() const { return rdma_data_mss + nominal_header_bytes; }
};

// Every range violation and every rule that stops a run (the configuration page's congestion
// control checks), one message each, e.g. "QuickAdaptGate: 40 is out of range 0..31". Empty when
// the configuration is usable.
std::vector<std::string> nscc_config_errors(const nscc_config& cfg);

}  // namespace uetsim
