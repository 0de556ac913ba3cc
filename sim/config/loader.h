// Resolves a scenario: struct defaults, then one YAML document (a file or the embedded default
// scenario), then --set overrides in order, then the cross-field rules. Per-device keys
// (Switch[leaf*].EcmpHashMethod, from the file or --set) are kept in scenario::overrides, in the
// order given, and apply over the plain keys (docs/configuration.md). Every problem is a
// config_error whose message names the key, the value and what is allowed.
#pragma once

#include <string>
#include <vector>

#include "sim/config/scenario_keys.h"
#include "testbench/scenario.h"

namespace uetsim::config {

class scenario_builder
{
public:
    // Reads a scenario document; `source` names it in messages (a file name).
    void load_text(const std::string& yaml_text, const std::string& source);
    // Reads a scenario file; a missing or unreadable file is a config_error.
    void load_file(const std::string& path);
    // Reads the scenario embedded in the program (what `uetsim run` runs without a file).
    void load_default();
    // Applies "Section.Key=VALUE" (also "Flows=[...]" and "Flows[3].Bytes=1MiB").
    void apply_set(const std::string& assignment);
    // Checks the rules between keys and fills derived values; the builder is spent afterwards.
    scenario finish();

    const given_keys& given() const { return m_given; }

private:
    void load_section(const std::string& section, const YAML::Node& key_node,
                      const YAML::Node& value, const std::string& source);
    void assign(const key_def<scenario>& key, const YAML::Node& value, const value_context& ctx);
    // Section[glob]: a map of the section's keys for the devices whose names match glob.
    void load_instance_section(const std::string& section, const std::string& glob,
                               const YAML::Node& key_node, const YAML::Node& value,
                               const std::string& source);
    // One Section[glob].Key override: checked like the plain key, kept for finish() and the
    // devices. `ctx.name` is the per-instance path used in messages.
    void add_override(const section_def& section, const std::string& glob, const std::string& path,
                      const YAML::Node& key_node, const YAML::Node& value,
                      const value_context& ctx);
    // Every glob matches a device of its section's kind; every device's resolved configuration
    // obeys the rules.
    void check_overrides();

    scenario m_scenario;
    given_keys m_given;
};

// The common path of the commands: `file` (empty: the embedded default) plus overrides.
scenario resolve_scenario(const std::string& file, const std::vector<std::string>& overrides);

// The same from YAML text, for tests.
scenario resolve_text(const std::string& yaml_text, const std::vector<std::string>& overrides = {});

}  // namespace uetsim::config
