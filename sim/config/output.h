// A resolved scenario printed back through the schema (YAML for people and manifests, JSON for
// scripts), and the key reference generated from the schema.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "testbench/scenario.h"

namespace uetsim::config {

// Every key with its value, sections in schema order; loading this text gives the same scenario.
std::string scenario_yaml(const scenario& sc);

// Section -> key -> value; quantities as numbers in SI base units (s, bit/s, B, Hz).
nlohmann::ordered_json scenario_json(const scenario& sc);

// docs/scenario-keys.md (`uetsim keys --markdown`).
std::string keys_markdown();

// One line per key (`uetsim keys`).
std::string keys_text();

}  // namespace uetsim::config
