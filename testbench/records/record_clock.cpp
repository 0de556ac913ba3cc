#include "testbench/records/record_clock.h"

#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

record_clock::record_clock(const sc_core::sc_module_name& name, double first_s, double interval_s)
    : sc_core::sc_module(name), m_first_s(first_s), m_interval_s(interval_s)
{
    m_tick.notify_at_ps(0);  // the first call, at time 0, only arms the first tick
}

void record_clock::tick()
{
    activity::tick();
    if (m_started) {
        const double now = to_seconds(sim_now());
        for (const auto& f : m_followers) f(now);
    }
    m_tick.notify(seconds(m_started ? m_interval_s : m_first_s));
    m_started = true;
}

}  // namespace uetsim
