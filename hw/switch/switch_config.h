// Attributes of the fabric switch (scenario section `Switch`). Defaults are the switch pages'.
#pragma once

#include <cstdint>

#include "hw/common/value_range.h"

#include "hw/switch/flow_hash.h"

namespace uetsim {

struct switch_config
{
    ecmp_hash_method hash_method = ecmp_hash_method::crc32_with_salt;
    bool enable_load_balancing_stats = true;
    double load_balancing_stats_interval_s = 1e-3;
    static constexpr value_range load_balancing_stats_interval_range{10e-6, 10};

    double forwarding_latency_s = 500e-9;  // ingress to egress-queue, fixed

    // Egress admission: one byte limit per egress port (all lossy classes share it). 0 means
    // the derived default: PlaneBDP with trimming on, QueueDropThreshold x PlaneBDP otherwise.
    uint64_t egress_queue_limit_bytes = 0;
    uint64_t plane_bdp_bytes = 300'000;
    uint32_t queue_drop_threshold = 5;

    bool uet_policy_enabled = false;  // classify control/trimmed/data to TC2/TC1/TC0
    bool trimming_enabled = false;    // requires the UET policy

    // RED ECN marker per egress port, thresholds as fractions of the static egress limit.
    bool enable_ecn = true;
    double ewma_weight = 0.10;
    double min_threshold = 0.2;
    double max_threshold = 0.8;
    double max_mark_probability = 1.0;

    // PFC watchdog: a class a port's peer keeps paused this long has its egress queue dropped
    // (again every timeout while the pause lasts); 0: off, the default.
    double pfc_watchdog_timeout_s = 0;
    static constexpr value_range pfc_watchdog_timeout_range{0, 10};

    // Run the flow-hash RTL block (rtl/flow_hash) in lockstep with the C++ hash in every switch;
    // the first mismatch stops the run.
    bool rtl_flow_hash_lockstep = false;

    uint64_t effective_egress_limit() const
    {
        if (egress_queue_limit_bytes) return egress_queue_limit_bytes;
        return trimming_enabled ? plane_bdp_bytes : queue_drop_threshold * plane_bdp_bytes;
    }
};

}  // namespace uetsim
