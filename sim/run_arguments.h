// The arguments of `uetsim run`, which a library session (include/uetsim/uetsim.h) takes too:
// one definition of the options for both, so the command and the library cannot drift.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace uetsim {

namespace detail {
struct run_arguments
{
    std::string file;               // the scenario; empty: the embedded default
    std::vector<std::string> sets;  // --set K=V, in order
    std::string out_dir = "out";
    bool quiet = false;     // no progress line
    bool progress = false;  // the progress line even when stderr is not a terminal
};
}  // namespace detail

// [SCENARIO] and --set K=V on `cmd` (run, inspect, validate, chakra-gen).
void add_scenario_options(CLI::App* cmd, std::string& file, std::vector<std::string>& sets,
                          bool file_required);
// What `uetsim run` takes: the scenario options, --out, --quiet, --progress.
void add_run_options(CLI::App* cmd, detail::run_arguments& a);

}  // namespace uetsim
