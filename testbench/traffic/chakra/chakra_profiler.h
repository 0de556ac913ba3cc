// Chakra.ProfilingEnabled: each rank's profiling file, `{Name}-chakra-profiling-<rank>-0.txt`,
// with a block of its running nodes every ProfilingInterval from one interval after the rank
// starts until it ends (the Chakra records page). A send is listed until its transfer is
// acknowledged. A collective node, which the replay does not expand into nodes, is listed under
// a heading of its own, `collective_nodes:`, as K(<node id>,<type>,<bytes>,[data],[ctrl]).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "testbench/records/record_clock.h"
#include "testbench/traffic/chakra/chakra_replay.h"

namespace uetsim::chakra {

class chakra_profiler
{
public:
    chakra_profiler(const chakra_replay& replay, const std::string& out_dir,
                    const std::string& sim_name, double interval_s);
    ~chakra_profiler();
    chakra_profiler(const chakra_profiler&) = delete;
    chakra_profiler& operator=(const chakra_profiler&) = delete;

    void finish();
    const std::vector<std::string>& files() const { return m_paths; }

private:
    void block(double);

    const chakra_replay& m_replay;
    std::vector<std::string> m_paths;
    std::vector<std::FILE*> m_files;
    record_clock m_clock;
};

}  // namespace uetsim::chakra
