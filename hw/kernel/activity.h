// Counts model wake-ups (one per run of a wakeup handler, wakeup.h) across the model: the
// "events executed" figure of the manifest and bench/. One simulation per process, so a
// process-wide counter is exact.
#pragma once

#include <cstdint>

namespace uetsim::activity {

// Hidden, as sim_clock's state: counted on every wake-up, reached without the GOT.
[[gnu::visibility("hidden")]] inline uint64_t& count()
{
    static uint64_t n = 0;
    return n;
}
inline void tick()
{
    ++count();
}

}  // namespace uetsim::activity
