// The `uetsim` command line: run, inspect, validate, keys.
#pragma once

#include <string>

#include "testbench/run/simulation.h"

namespace uetsim {

// Exit codes of the command (docs/command.md).
constexpr int exit_ok = 0;
constexpr int exit_internal_error = 1;
constexpr int exit_bad_input = 2;

// Parses the arguments and runs the command; returns the process exit code. Never throws.
int run_cli(int argc, char** argv);

// Before anything is simulated: creates the output folder, checks that a file can be written in
// it and removes the manifest of an earlier run of the same name (records without a manifest do
// not look complete). Throws config::config_error when the folder is unusable.
void prepare_output_dir(const std::string& dir, const std::string& name);

// 1.234 ms: a time for a one-line message.
std::string human_time(double s);

// The table `uetsim run` prints at the end.
std::string format_summary(const run_summary& s, const std::string& out_dir);

}  // namespace uetsim
