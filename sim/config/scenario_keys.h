// The scenario's sections, keys and cross-field rules: what a scenario file may say.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "sim/config/schema.h"
#include "testbench/scenario.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

// The devices a section configures, by name: Section[glob].Key overrides one of its keys for the
// devices whose names match.
// `devices`: hosts and switches (Rtl: each key applies to the device kind of its block);
// `links`: the links, by link name (host3-leaf0, leaf0-spine2.1).
enum class instance_kind { none, switches, hosts, devices, links };

// Which sections' per-device keys a device takes.
inline instance_kind instance_kind_of(const device& d)
{
    return d.kind == device_kind::host ? instance_kind::hosts : instance_kind::switches;
}

// The devices one override configures: its section's kind, or for a section of every device
// (Rtl) the kind its key applies to.
instance_kind override_kind(const device_override& o);

struct section_def
{
    std::string name;
    bool is_list = false;  // Flows, Faults: the section itself is a list
    std::string doc;
    instance_kind instances = instance_kind::none;
};

// Keys given explicitly (by the file or --set), as paths: "Topology.Hosts".
using given_keys = std::set<std::string>;

// A rule between keys, checked (and derived values filled in) once every key is read.
struct rule_def
{
    std::string doc;
    // Every key path the rule reads, derives or names in its messages; the schema checks when it
    // is built that each one is registered.
    std::vector<std::string> keys;
    std::function<void(scenario&, const given_keys&)> apply;  // throws config_error
};

struct scenario_schema
{
    std::vector<section_def> sections;
    key_table<scenario> keys;
    std::vector<rule_def> rules;

    const section_def* find_section(const std::string& name) const;
    std::vector<std::string> section_names() const;
    // The keys of one section, in registration order.
    std::vector<const key_def<scenario>*> section_keys(const std::string& section) const;
    // Throws std::logic_error when a rule names a key path that is not registered.
    void check_rule_keys() const;
};

// The one schema of this program version (built on first use).
const scenario_schema& schema();

// A section added from outside uetsim (the keys of a NIC type a test or a user builds:
// testbench/elab/nic_factory.h add_nic_type): listed after the built-in sections, its keys and
// rules registered by `add_keys` after theirs. Only before schema() is first used, with a name
// not taken (std::logic_error otherwise).
void add_schema_section(section_def section, void (*add_keys)(scenario_schema&));

// The record names Records.Enabled accepts.
const std::vector<std::string>& record_names();

}  // namespace uetsim::config
