// Waveforms of a run (Trace.*): the writer of an FST or VCD file through trace_recorder (window
// and trigger) and a gtkwave layout {Name}.gtkw beside it. It walks the probe registry
// (probe_registry.h) over the devices Trace.* selects; each probe kind adds its signals from its
// own table. Built only when Trace.Enabled: with tracing off no probe exists and every
// component's probe pointer stays null.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "testbench/elab/fabric.h"
#include "testbench/scenario.h"

namespace uetsim {

namespace chakra {
class chakra_replay;
}

class waveforms
{
public:
    // Attaches the probes; `out_dir` is the run's output folder; `chakra` the Chakra workload's
    // replay (its ranks' collective and step on their hosts), or null.
    waveforms(const scenario& sc, fabric& fab, const std::string& out_dir,
              chakra::chakra_replay* chakra = nullptr);
    ~waveforms();
    waveforms(const waveforms&) = delete;
    waveforms& operator=(const waveforms&) = delete;

    // At the end of the run: closes the trace and writes the layout.
    void finish();
    // The trace file and the layout (paths), for the manifest.
    std::vector<std::string> files() const;

    struct impl;

private:
    std::unique_ptr<impl> m;
};

// The trace file's name for a scenario: Trace.File, else {Name}.fst.
std::string trace_file_name(const scenario& sc);

}  // namespace uetsim
