// The ECNHandler's attributes (RoCE congestion-control page), shared by every queue pair of a NIC.
#pragma once

#include <cstdint>

namespace uetsim {

struct dcqcn_config
{
    bool enable_ecn = true;                          // EnableECN
    double minimum_rate_percentage = 0.10;           // MinimumRatePercentage, 0..1
    uint32_t fast_recovery_attempt = 3;              // FastRecoveryAttempt
    double initial_target_rate_percentage = 0.90;    // InitialTargetRatePercentage, 0..1
    uint32_t number_active_increase_steps = 10;      // NumberActiveIncreaseSteps, >= 1
    uint32_t control_interval_duration_ns = 45000;   // ControlIntervalDurationNs, >= 2
    double congestion_probability_weight = 0.5;      // CongestionProbabilityWeight, 0..1
    uint32_t num_of_control_loops_per_increase = 5;  // NumOfControlLoopsPerIncrease
};

}  // namespace uetsim
