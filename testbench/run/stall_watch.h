// Simulation.StallTimeout: decides that a run is stuck. It is shown, between the run's slices,
// a progress count that grows whenever work moves (payload lands at a receiving host, a message,
// WQE or transfer completes) and whether any work is outstanding; the run is stalled once work
// has been outstanding with the count unchanged for the timeout. Idle time with nothing
// outstanding (a message that starts later) is never a stall. Pure logic.
#pragma once

#include <cstdint>

namespace uetsim {

class stall_watch
{
public:
    explicit stall_watch(uint64_t timeout_ps) : m_timeout_ps(timeout_ps) {}

    bool enabled() const { return m_timeout_ps > 0; }

    // The state at simulated time `now_ps`; true once the run is stalled (and from then on).
    bool observe(uint64_t now_ps, uint64_t progress, bool outstanding)
    {
        if (m_stalled) return true;
        if (!outstanding || progress != m_progress || !m_watching) {
            m_progress = progress;
            m_since_ps = now_ps;
            m_watching = outstanding;
            return false;
        }
        m_stalled = now_ps - m_since_ps >= m_timeout_ps;
        return m_stalled;
    }

    // The last time progress was seen (or outstanding work began).
    uint64_t since_ps() const { return m_since_ps; }

private:
    uint64_t m_timeout_ps;
    uint64_t m_progress = 0;
    uint64_t m_since_ps = 0;
    bool m_watching = false;
    bool m_stalled = false;
};

}  // namespace uetsim
