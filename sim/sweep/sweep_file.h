// Reads a sweep file (Base, Set, Axes, Exclude; docs/sweeps.md) into a sweep plan and checks it
// with the scenario loader itself, so that every key the loader knows (per-instance keys
// included) works as an axis. Every problem is a config_error naming the sweep file, the key
// and the value.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "sim/sweep/sweep_plan.h"

namespace uetsim::sweep {

plan read_sweep_file(const std::string& path);

// A value as --set text: scalars verbatim, lists and maps as YAML flow text.
std::string value_text(const YAML::Node& n);

}  // namespace uetsim::sweep
