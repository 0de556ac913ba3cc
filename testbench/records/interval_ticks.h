// Records sampled every Simulation.NDStatsReportInterval on another record's process. SystemC
// orders timed events of equal time by its event queue, so every timed event a record adds can
// reorder same-time events of the model and change other records. A record that must not (one
// turned on to look, such as nic-pipeline-stats) follows the process nd-stats has anyway: it
// writes its rows right after nd-stats' at each interval and adds no event. Without nd-stats it
// ticks by itself.
#pragma once

#include <functional>
#include <utility>
#include <vector>

namespace uetsim {

class interval_ticks
{
public:
    // The record whose process calls ticked() every interval (nd-stats) is open.
    void host() { m_hosted = true; }
    bool hosted() const { return m_hosted; }
    // Called at every interval after the host's own rows.
    void follow(std::function<void()> f) { m_followers.push_back(std::move(f)); }
    void ticked() const
    {
        for (const auto& f : m_followers) f();
    }

private:
    bool m_hosted = false;
    std::vector<std::function<void()>> m_followers;
};

}  // namespace uetsim
