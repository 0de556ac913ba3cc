// The model's current time. The model scheduler (model_scheduler.h) runs the wake-ups of a
// slice of simulated time one due time after another without going back to the kernel for
// each, so while it runs, the kernel's clock (sc_time_stamp) lags behind the time the model is
// at. Model code reads the time here; it is the kernel's time whenever the scheduler is not
// running ahead.
#pragma once

#include <cstdint>
#include <systemc>

namespace uetsim {

// Hidden: read on every hot path, so reached directly rather than through the GOT in the
// position-independent build that also makes libuetsim.so; the clock is the library's own
// (code outside it asks the kernel, or is handed the time).
namespace sim_clock {
// The due time the scheduler is at (or reached last).
[[gnu::visibility("hidden")]] inline uint64_t model_ps = 0;
// True while the scheduler runs wake-ups.
[[gnu::visibility("hidden")]] inline bool ahead = false;
// stop_simulation(): no due time after the current one runs.
[[gnu::visibility("hidden")]] inline bool stopped = false;
}  // namespace sim_clock

inline uint64_t sim_now_ps()
{
    if (sim_clock::ahead) return sim_clock::model_ps;  // the hot path: inside a wake-up
    // The model stopped the run (stop_simulation) at the due time it was at: the kernel never
    // reached it (decoupled), or passed it only while a part outside the model blocked
    // (outside_call.h), which is no time of the model's.
    if (sim_clock::stopped) return sim_clock::model_ps;
    const uint64_t kernel = sc_core::sc_time_stamp().value();
    return kernel > sim_clock::model_ps ? kernel : sim_clock::model_ps;
}

// Work held back past its time and done later (a switch's held pipeline exits) reads its own
// time while it runs.
class sim_clock_as_of
{
public:
    explicit sim_clock_as_of(uint64_t ps) : m_ps(sim_clock::model_ps), m_ahead(sim_clock::ahead)
    {
        sim_clock::model_ps = ps;
        sim_clock::ahead = true;
    }
    ~sim_clock_as_of()
    {
        sim_clock::model_ps = m_ps;
        sim_clock::ahead = m_ahead;
    }
    sim_clock_as_of(const sim_clock_as_of&) = delete;
    sim_clock_as_of& operator=(const sim_clock_as_of&) = delete;

private:
    uint64_t m_ps;
    bool m_ahead;
};

inline sc_core::sc_time sim_now()
{
    return sc_core::sc_time::from_value(sim_now_ps());
}

// sc_stop for the model: the wake-ups still due at the current time run, none after it.
inline void stop_simulation()
{
    sim_clock::stopped = true;
    if (sc_core::sc_is_running()) sc_core::sc_stop();
}

}  // namespace uetsim
