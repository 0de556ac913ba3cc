// Progress on stderr while a run simulates: simulated time, share of the stop time (or of the
// messages done), wall time and an estimate of the time left. Wakes every 1/200 of the stop
// time; prints at most twice a wall second.
#pragma once

#include <chrono>

#include <systemc>

#include "testbench/flows.h"

namespace uetsim {

class progress_meter : public sc_core::sc_module
{
public:
    progress_meter(const sc_core::sc_module_name& name, double stop_s, const flows& f);
    // Ends the progress line (call once, after simulation).
    void done() const;

private:
    using wall_clock = std::chrono::steady_clock;

    void tick();

    double m_stop_s;
    const flows& m_flows;
    wall_clock::time_point m_start;
    double m_last_print = 0;
    bool m_printed = false;
};

}  // namespace uetsim
