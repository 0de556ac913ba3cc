// A resolved scenario printed back through the schema (YAML for people and manifests, JSON for
// scripts), and the key reference generated from the schema.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "testbench/scenario.h"

namespace uetsim::config {

// Every key with its value, sections in schema order, then the per-device keys as Section[glob]
// maps (grouped by Section[glob] in the order each first appears); loading this text gives the
// same scenario.
std::string scenario_yaml(const scenario& sc);

// Section -> key -> value; quantities as numbers in SI base units (s, bit/s, B, Hz).
nlohmann::ordered_json scenario_json(const scenario& sc);

// Per device, the keys whose resolved value differs from the section's because of a
// Section[glob] override: {"leaf0": {"Switch.EcmpHashMethod": "crc32"}, ...}, devices in
// topology order; empty when there are no overrides.
nlohmann::ordered_json instances_json(const scenario& sc);

// The same as YAML comment lines ("# leaf0: Switch.EcmpHashMethod: crc32"), "" when empty.
std::string instances_text(const scenario& sc);

// docs/scenario-keys.md (`uetsim keys --markdown`).
std::string keys_markdown();

// One line per key (`uetsim keys`).
std::string keys_text();

}  // namespace uetsim::config
