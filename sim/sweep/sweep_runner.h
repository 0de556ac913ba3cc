// `uetsim sweep`: reads the sweep file, skips the runs whose manifest says complete, runs the
// rest (local child processes, or across MPI ranks), and writes DIR/summary.csv in the
// cross-product order whatever order the runs finish in.
#pragma once

#include <string>

namespace uetsim::sweep {

struct sweep_options
{
    std::string out_dir = "sweep-out";
    unsigned jobs = 0;  // local processes at a time; 0: the machine's cores
};

// Returns the command's exit status: 0 once every run has been tried (failed runs are rows
// with status "failed"), 130/143 when interrupted. Bad sweep files throw config_error.
int run_sweep(const std::string& sweep_file, const sweep_options& opts);

}  // namespace uetsim::sweep
