// One random case of a campaign: the scenario document drawn for case `index` from the campaign
// file's ranges with its own stream (the campaign's seed and the case's number), so any case can
// be drawn again alone. The document is standalone: `uetsim run` on it reproduces the case.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/campaign/campaign_file.h"

namespace uetsim::campaign {

struct drawn_case
{
    uint32_t index = 0;
    std::string yaml;                 // the scenario file's text
    std::string nic;                  // Nic.Type as resolved
    std::string topology;             // e.g. "leaf-spine 8 hosts"
    std::string pattern;              // the workload pattern
    uint32_t messages = 0;            // Flows messages (collective: 1 per collective)
    uint64_t bytes = 0;               // bytes of the largest message
    std::vector<std::string> faults;  // e.g. "flap leaf0-spine1 at 12us for 30us"
    std::string draws;                // the Draw choices, "Key=value; ..."
    std::string refused;              // the loader's message when the drawn values do not resolve
};

drawn_case draw_case(const campaign_spec& spec, uint32_t index);

// `doc` with one Draw value applied: a Section.Key (or Section[glob].Key) set to `value`, a
// Section given a map of its keys merged over what it had, or (key `Scenario`) a map of
// sections, each merged so: values of several sections drawn together.
YAML::Node with_value(const YAML::Node& doc, const std::string& key, const YAML::Node& value);
// The loader's message for a scenario document that does not resolve, empty when it does.
std::string scenario_problem(const YAML::Node& doc);

}  // namespace uetsim::campaign
