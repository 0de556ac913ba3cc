// The progress line on stderr (progress_meter.h).
#include "testbench/run/progress_meter.h"

#include <algorithm>
#include <cstdio>

#include <systemc>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

progress_meter::progress_meter(double stop_s, const flows& f)
    : m_stop_s(stop_s), m_flows(f), m_start(wall_clock::now())
{
}

void progress_meter::done() const
{
    if (m_printed) std::fputc('\n', stderr);
}

void progress_meter::poll()
{
    const double wall = std::chrono::duration<double>(wall_clock::now() - m_start).count();
    if (m_printed && wall - m_last_print < 0.5) return;  // the first slice prints at once
    m_last_print = wall;
    m_printed = true;
    const double now = to_seconds(sim_now());
    double frac = m_stop_s > 0 ? now / m_stop_s : 1;
    if (!m_flows.messages().empty())
        frac = std::max(frac, double(m_flows.completed()) / double(m_flows.messages().size()));
    const double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
    std::fprintf(stderr, "\r  sim %.6f s  %5.1f%%  wall %.1f s  eta %.1f s   ", now, frac * 100,
                 wall, eta);
    std::fflush(stderr);
}

}  // namespace uetsim
