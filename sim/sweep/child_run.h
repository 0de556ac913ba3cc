// One sweep run as a child process of the same binary (`uetsim run ... --out DIR/<run-id>`):
// each run gets its own SystemC kernel, and a run that crashes or rejects its values ends only
// its own process. The child's stdout and stderr go to stdout.log and stderr.log in its folder.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "sim/sweep/run_metrics.h"
#include "sim/sweep/sweep_plan.h"

namespace uetsim::sweep {

struct child
{
    pid_t pid = -1;
    size_t run_index = 0;
    std::string dir;
    std::chrono::steady_clock::time_point start;
};

// The path of the running program (what the children run).
std::string self_exe();

// The `uetsim run` arguments of run `r` (after the program name), one per line: what the run's
// folder records in run-command.txt so that a resumed sweep reuses only runs made with the
// same scenario, overrides and axis values.
std::string run_command(const plan& p, const run& r, const std::string& run_dir);

// Whether run_dir holds a complete run made by exactly this command.
bool already_complete(const plan& p, const run& r, const std::string& run_dir);

// Starts `exe` with `arguments` (after the program name), stdin from /dev/null, stdout and
// stderr into dir/stdout.log and dir/stderr.log. Throws std::runtime_error when it cannot.
pid_t spawn_logged(const std::string& exe, const std::vector<std::string>& arguments,
                   const std::string& dir);

// Starts `uetsim run` for run `r` of plan `p` in out_dir/<id>/. Throws std::runtime_error when
// the process cannot be started.
child start_run(const std::string& exe, const plan& p, const run& r, const std::string& out_dir);

// How the child ended, from its wait status and resource usage.
run_outcome outcome_of(const child& c, int wait_status, long max_rss_kib);

// Waits for one child, passing a stop signal (testbench/run/run_control.h) on to it once.
run_outcome wait_for(const child& c);

}  // namespace uetsim::sweep
