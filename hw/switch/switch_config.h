// Attributes of the fabric switch (scenario section `Switch`). Defaults are the switch pages'.
#pragma once

#include <cstdint>

#include "hw/common/value_range.h"

#include "hw/switch/flow_hash.h"
#include "hw/switch/shared_buffer_config.h"

namespace uetsim {

// LoadBalancingMethod: none = flow hash mod set size; flowlet = flowlet_selector.h.
enum class load_balancing_method : uint8_t { none, flowlet };

struct switch_config
{
    ecmp_hash_method hash_method = ecmp_hash_method::crc32_with_salt;
    load_balancing_method lb_method = load_balancing_method::none;
    // The LoadBalancingFlowlet component: read only with lb_method flowlet.
    double flowlet_gap_s = 100e-6;
    static constexpr value_range flowlet_gap_range{0, 2};
    bool flowlet_pfc_aware = true;
    bool enable_load_balancing_stats = true;
    double load_balancing_stats_interval_s = 1e-3;
    static constexpr value_range load_balancing_stats_interval_range{10e-6, 10};

    double forwarding_latency_s = 500e-9;  // ingress to egress-queue, fixed

    // The shared buffer (SharedBufferManager), with UETPolicyEnabled (classify control/trimmed/
    // data to TC2/TC1/TC0), the trimmer's switch and ReportPerPortBufferStats.
    shared_buffer_config buffer;

    // RED ECN marker per egress port and pool, thresholds as fractions of the pool's static
    // egress limit (shared_buffer_layout::ecn_thresholds).
    bool enable_ecn = true;
    double ewma_weight = 0.10;
    double min_threshold = 0.2;
    double max_threshold = 0.8;
    double max_mark_probability = 1.0;

    // PFC watchdog: a class a port's peer keeps paused this long has its egress queue dropped
    // (again every timeout while the pause lasts); 0: off, the default.
    double pfc_watchdog_timeout_s = 0;
    static constexpr value_range pfc_watchdog_timeout_range{0, 10};

    // Switch.RtlFlowHashLockstep, deprecated: true reads as Rtl.FlowHash: both (sim/config's
    // rule sets the scenario's Rtl modes; the fabric reads only those).
    bool rtl_flow_hash_lockstep = false;
};

}  // namespace uetsim
