// What the RTL system tests (rtl_modes, rtl_latency, rtl_library) share: their scenario and
// their check of a refused run.
#pragma once

#include <string>
#include <vector>

namespace uetsim::test {

// 8 flows of `bytes` each from leaf0's hosts to leaf1's, on a 16-host leaf-spine with 8 spines
// and REPS, spine0 degraded to 100 Gbps at 20 us, uet-monitor on. `more_faults`: further Faults
// entries (YAML lines); `extra`: further sections, before Flows.
std::string cross_leaf_reps_scenario(const std::string& name, const std::string& bytes,
                                     const std::string& extra = "",
                                     const std::string& more_faults = "");

// `uetsim run file --set sets... --out out` exits 2 with `message` on stderr, before the run
// writes its manifest (`manifest`, a file name in `out`).
void expect_refused(const std::string& file, const std::string& out,
                    const std::vector<std::string>& sets, const std::string& message,
                    const std::string& manifest);

}  // namespace uetsim::test
