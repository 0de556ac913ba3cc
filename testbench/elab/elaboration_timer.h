// elaboration_timer: the wall-clock time a run spends building the model, up to the start of
// simulation (the manifest's elaboration_wall_time_s). Constructed last, so its
// start_of_simulation runs after the other modules'; it has no process and adds no event.
#pragma once

#include <chrono>

#include <systemc>

namespace uetsim {

class elaboration_timer : public sc_core::sc_module
{
public:
    using wall_clock = std::chrono::steady_clock;

    elaboration_timer(const sc_core::sc_module_name& name, wall_clock::time_point start)
        : sc_core::sc_module(name), m_start(start)
    {
    }

    // Seconds from the run's start to the start of simulation (0 before it).
    double seconds() const { return m_seconds; }

private:
    void start_of_simulation() override
    {
        m_seconds = std::chrono::duration<double>(wall_clock::now() - m_start).count();
    }

    wall_clock::time_point m_start;
    double m_seconds = 0;
};

}  // namespace uetsim
