// `uetsim plot`: figures from a run's records or a sweep's summary, drawn by the Python script
// sim/plot/uetsim_plot.py (matplotlib and pandas) that the build copies next to the binary.
#pragma once

#include <string>
#include <vector>

namespace uetsim {

// Runs the plot script with `args` (the folder and the options) and returns its exit status.
int run_plot(const std::vector<std::string>& args);

}  // namespace uetsim
