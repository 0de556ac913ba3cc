// Progress on stderr while a run simulates: simulated time, share of the stop time (or of the
// messages done), wall time and an estimate of the time left; at most twice a wall second.
// Not a process: run_until polls it between its slices of simulated time, so a run shows
// progress without a timed notification of its own. (A wake-up in the kernel's timed queue moves
// the order of other same-time notifications, and with it the records: a run on a terminal gave
// other records than the same run with --quiet or in a pipe.)
#pragma once

#include <chrono>

#include "testbench/traffic/flows.h"

namespace uetsim {

class progress_meter
{
public:
    progress_meter(double stop_s, const flows& f);
    // Prints the line if half a wall second has passed since the last one.
    void poll();
    // Ends the progress line (call once, after simulation).
    void done() const;

private:
    using wall_clock = std::chrono::steady_clock;

    double m_stop_s;
    const flows& m_flows;
    wall_clock::time_point m_start;
    double m_last_print = 0;
    bool m_printed = false;
};

}  // namespace uetsim
