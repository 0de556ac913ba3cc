// The waveform probe of a Chakra rank on its host, and the signals it writes (docs/waveforms.md,
// "Per Chakra rank, on its host").
#pragma once

#include <string>

#include "testbench/trace/signal_table.h"
#include "testbench/traffic/chakra/chakra_replay.h"

namespace uetsim {

inline const signal_table& chakra_signals()
{
    static const signal_table t{
        "Per Chakra rank, on its host",
        "host0.chakra.*",
        "With the Chakra workload.",
        {
            {"collective", 32, false, "id",
             "the collective instance the rank runs (its `collective_hash` + 1; 0: none)"},
            {"barrier", 1, false, "flag",
             "that collective is in its synchronization barrier "
             "(`Chakra.CommCollectiveSynchronization`)"},
            {"step", 32, false, "step",
             "the latest step of the collective's plan the rank issued sends for "
             "(docs/collectives.md)"},
        }};
    return t;
}

// A Chakra rank, on its host: the collective it runs (its instance id + 1; 0: none), whether it
// is in the collective's synchronization barrier, and the latest step it issued.
class chakra_probe
{
public:
    chakra_probe(waveform_signals& w, const std::string& c, const chakra::chakra_replay& r,
                 uint32_t rank)
        : m_w(w), m_replay(r), m_rank(rank)
    {
        const signal_table& t = chakra_signals();
        m_collective = t.add(w, c, "chakra.", "collective");
        m_barrier = t.add(w, c, "chakra.", "barrier");
        m_step = t.add(w, c, "chakra.", "step");
    }
    void changed()
    {
        const uint32_t c = m_replay.running_collective(m_rank);
        m_w.set(m_collective, c == chakra::k_none ? 0 : uint64_t(c) + 1);
        m_w.set(m_barrier, m_replay.running_barrier(m_rank) ? 1 : 0);
        m_w.set(m_step, m_replay.running_step(m_rank));
    }

private:
    waveform_signals& m_w;
    const chakra::chakra_replay& m_replay;
    uint32_t m_rank;
    uint32_t m_collective, m_barrier, m_step;
};

}  // namespace uetsim
