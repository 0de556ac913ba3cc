// One queue pair's DCQCN-style rate control loop (RoCE congestion-control page), pure arithmetic
// without the kernel: the NIC counts CNPs and data packets into it and runs its halves from one
// timer per congested queue pair. docs/roce-nic.md ("Congestion control") gives the choices the
// page leaves open (the estimate's sample, its initial value, the cut's depth).
#pragma once

#include <cstdint>

#include "hw/nic/roce/dcqcn_config.h"

namespace uetsim {

class dcqcn_rate
{
public:
    dcqcn_rate(const dcqcn_config& cfg, double line_rate_bps);

    // A CNP arrived for this queue pair (ignored with EnableECN false). Returns true when it
    // starts an episode: the reduction that begins it is made at once, and the NIC then calls
    // run_half() every half_interval_ps() from now while congested().
    bool on_cnp();
    // A data packet of this queue pair was sent (the estimate's denominator).
    void on_data_sent() { ++m_packets; }
    // The loop's next half: reduction and increase halves alternate, the first after the
    // episode's start being an increase half. Returns congested(): false once the episode ended
    // (back at line rate: the NIC stops the loop's timer).
    bool run_half();

    // The rate the queue pair's data is sent at: line rate when not congested, else the current
    // rate, never below the floor.
    double rate_bps() const;
    bool congested() const { return m_congested; }
    uint64_t half_interval_ps() const { return uint64_t(m_cfg.control_interval_duration_ns) * 500; }

    // The loop's state, for tests and waveforms.
    double current_bps() const { return m_current; }
    double target_bps() const { return m_target; }
    double additive_step_bps() const { return m_step; }
    double floor_bps() const { return m_cfg.minimum_rate_percentage * m_line; }
    double estimate() const { return m_alpha; }
    uint32_t recovery_count() const { return m_recovery; }
    uint64_t episodes() const { return m_episodes; }
    uint64_t reductions() const { return m_reductions; }  // cuts and additive-increase reductions
    uint64_t increases() const { return m_increases; }
    uint32_t interval_cnps() const { return m_cnps; }  // since the last reduction half
    uint64_t cnps() const { return m_cnps_total; }     // every CNP acted on (ECN enabled)

private:
    void reduce();
    void cut();
    void increase();
    void update_estimate();
    void clear_interval();

    dcqcn_config m_cfg;
    double m_line;
    double m_current;
    double m_target;
    double m_step = 0;
    double m_alpha = 1.0;  // the congestion estimate: DCQCN's initial value, kept across episodes
    uint32_t m_recovery = 0;
    uint32_t m_cnps = 0;  // CNPs in the current interval
    uint64_t m_cnps_total = 0;
    uint32_t m_packets = 0;              // data packets sent in the current interval
    uint32_t m_cnp_increase_halves = 0;  // increase halves that saw CNPs since the last increase
    bool m_next_is_increase = true;
    bool m_congested = false;
    uint64_t m_episodes = 0;
    uint64_t m_reductions = 0;
    uint64_t m_increases = 0;
};

}  // namespace uetsim
