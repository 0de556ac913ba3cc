// The one sampling wake-up of the periodic records. A run always has one clock per report
// interval, whichever records are on, and each periodic record writes its rows when the clock
// ticks, in registry order: turning a record on or off moves no wake-up of the model.
#pragma once

#include <functional>
#include <systemc>
#include <vector>

#include "hw/kernel/wakeup.h"

namespace uetsim {

class record_clock : public sc_core::sc_module
{
public:
    // Ticks at `first_s`, then every `interval_s`.
    record_clock(const sc_core::sc_module_name& name, double first_s, double interval_s);
    // Called at every tick with the simulated time, s, in the order the calls were made.
    void follow(std::function<void(double now_s)> f) { m_followers.push_back(std::move(f)); }

private:
    void tick();

    double m_first_s;
    double m_interval_s;
    bool m_started = false;
    wakeup m_tick{[this] { tick(); }, wakeup::phase::sample};
    std::vector<std::function<void(double)>> m_followers;
};

// The clocks a run's records follow.
struct record_clocks
{
    record_clock& periodic;        // Simulation.NDStatsReportInterval (nd-stats, pcie-stats, ...)
    record_clock& load_balancing;  // Switch.LoadBalancingStatsReportInterval
    record_clock& buffer_stats;    // Switch.BufferStatsReportInterval
    // Simulation.NetworkBufferStatsReportingInterval (net-buff-stats), from the periodic start.
    record_clock& network_buffer_stats;
};

}  // namespace uetsim
