// The one sampling process of the periodic records. SystemC orders timed events of equal time
// by its event queue, so every timed event a record added would reorder same-time events of
// the model, and turning a record on or off would change the others. A run therefore always
// has one clock per report interval, whichever records are on, and each periodic record
// writes its rows when the clock ticks, in registry order, adding no event of its own.
#pragma once

#include <functional>
#include <systemc>
#include <vector>

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
