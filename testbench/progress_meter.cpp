// The progress line on stderr (progress_meter.h).
#include "testbench/progress_meter.h"

#include <algorithm>
#include <cstdio>

#include "hw/common/time.h"

namespace uetsim {

progress_meter::progress_meter(const sc_core::sc_module_name& name, double stop_s, const flows& f)
    : sc_core::sc_module(name), m_stop_s(stop_s), m_flows(f), m_start(wall_clock::now())
{
    SC_HAS_PROCESS(progress_meter);
    SC_METHOD(tick);
}

void progress_meter::done() const
{
    if (m_printed) std::fputc('\n', stderr);
}

void progress_meter::tick()
{
    const double now = to_seconds(sc_core::sc_time_stamp());
    const double wall = std::chrono::duration<double>(wall_clock::now() - m_start).count();
    double frac = now / m_stop_s;
    if (!m_flows.messages().empty())
        frac = std::max(frac, double(m_flows.completed()) / double(m_flows.messages().size()));
    if (wall - m_last_print >= 0.5) {
        m_last_print = wall;
        m_printed = true;
        const double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
        std::fprintf(stderr, "\r  sim %.6f s  %5.1f%%  wall %.1f s  eta %.1f s   ", now, frac * 100,
                     wall, eta);
        std::fflush(stderr);
    }
    next_trigger(seconds(m_stop_s / 200));
}

}  // namespace uetsim
