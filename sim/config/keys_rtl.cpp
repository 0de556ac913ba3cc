// Rtl.* keys: two per RTL block of the registry (testbench/elab/rtl_blocks.h): Rtl.<Key>, model |
// rtl | both, and Rtl.<Key>Library, a block library built by `uetsim rtl-build` in place of the
// built-in RTL; both per device through Rtl[glob].<key>. The rule that refuses a block this build
// lacks; and Switch.RtlFlowHashLockstep, the old spelling of Rtl.FlowHash: both (one release).
#include <type_traits>

#include "sim/config/keys_common.h"
#include "testbench/elab/rtl_blocks.h"

namespace uetsim::config {

namespace {

std::vector<std::pair<std::string, rtl_mode>> rtl_modes()
{
    std::vector<std::pair<std::string, rtl_mode>> out;
    for (rtl_mode m : {rtl_mode::model, rtl_mode::rtl, rtl_mode::both})
        out.emplace_back(std::string(to_string(m)), m);
    return out;
}

// The mode of block `key` in a scenario: written through the map, read without inserting.
auto mode_field(const std::string& key)
{
    return [key](auto& o) -> auto&
    {
        if constexpr (std::is_const_v<std::remove_reference_t<decltype(o)>>) {
            static const rtl_mode model = rtl_mode::model;
            const auto it = o.rtl.modes.find(key);
            return it == o.rtl.modes.end() ? model : it->second;
        } else {
            return o.rtl.modes[key];
        }
    };
}

// The library of block `key`, as mode_field.
auto library_field(const std::string& key)
{
    return [key](auto& o) -> auto&
    {
        if constexpr (std::is_const_v<std::remove_reference_t<decltype(o)>>) {
            static const rtl_config::library_path none;
            const auto it = o.rtl.libraries.find(key);
            return it == o.rtl.libraries.end() ? none : it->second;
        } else {
            return o.rtl.libraries[key];
        }
    };
}

constexpr std::string_view library_suffix = "Library";

// The block a key of the Rtl section names: FlowHash for Rtl.FlowHash and Rtl.FlowHashLibrary.
const rtl_block_def* block_of(std::string key)
{
    key = key.substr(key.find('.') + 1);
    if (const rtl_block_def* def = find_rtl_block(key)) return def;
    if (key.size() > library_suffix.size() &&
        key.compare(key.size() - library_suffix.size(), library_suffix.size(), library_suffix) == 0)
        return find_rtl_block(key.substr(0, key.size() - library_suffix.size()));
    return nullptr;
}

}  // namespace

instance_kind override_kind(const device_override& o)
{
    const instance_kind k = schema().find_section(o.section)->instances;
    if (k != instance_kind::devices) return k;
    const rtl_block_def* def = block_of(o.key);
    return def && def->applies_to == device_kind::host ? instance_kind::hosts
                                                       : instance_kind::switches;
}

void add_rtl_keys(scenario_schema& s)
{
    auto& k = s.keys;
    std::vector<std::string> paths;
    for (const rtl_block_def& def : rtl_blocks()) {
        const std::string path = "Rtl." + def.key;
        k.choice(path, mode_field(def.key), rtl_modes(), def.doc);
        paths.push_back(path);
        k.custom(
            path + std::string(library_suffix), library_field(def.key), "a file path",
            [](const YAML::Node& n, const value_context& c) {
                rtl_config::library_path p;
                p.given = detail::read_text(n, c, any_path());
                p.resolved = relative_to_source(p.given, c.source);
                return p;
            },
            [](const rtl_config::library_path& p) { return YAML::Node(p.given); },
            [](const rtl_config::library_path& p) { return nlohmann::ordered_json(p.given); },
            "A block library built by `uetsim rtl-build --as " + def.key +
                "` (docs/rtl.md, \"Your own block\"), relative to the scenario file's folder: "
                "loaded in place of the built-in RTL where " +
                path +
                " is rtl or both, and checked before the run (its uetsim version, block and "
                "pins). Empty: the built-in block.");
    }

    paths.push_back("Switch.RtlFlowHashLockstep");
    for (const rtl_block_def& def : rtl_blocks()) paths.push_back(rtl_library_key(def));
    s.rules.push_back(
        {"An Rtl.* key is rtl or both only for the blocks this build has; "
         "Switch.RtlFlowHashLockstep: true reads as Rtl.FlowHash: both.",
         paths, [](scenario& sc, const given_keys& given) {
             // The old key, unless the new one says otherwise.
             if (sc.sw.rtl_flow_hash_lockstep && !given.count("Rtl.FlowHash"))
                 sc.rtl.modes["FlowHash"] = rtl_mode::both;
             for (const auto& [key, mode] : sc.rtl.modes) {
                 const rtl_block_def* def = find_rtl_block(key);
                 if (!def || def->build || !uses_rtl(mode)) continue;
                 fail_rule("Rtl." + key + ": " + std::string(to_string(mode)) +
                           " is not available in this build (no Verilated " + def->component +
                           " block is built in); allowed: model");
             }
             // A library is checked before anything is built (per-device ones when their
             // device is); one that no device can use is a mistake, not a no-op.
             for (const rtl_block_def& def : rtl_blocks()) {
                 const auto* lib = sc.rtl.library(def.key);
                 if (!lib) continue;
                 bool used = uses_rtl(sc.rtl.mode(def.key));
                 for (const device_override& o : sc.overrides)
                     used = used || o.key == "Rtl." + def.key;
                 if (!used)
                     fail_rule(rtl_library_key(def) + ": '" + lib->given + "' is given but Rtl." +
                               def.key + " is model on every device; set Rtl." + def.key +
                               ": rtl or both (or Rtl[glob]." + def.key + ") to use it");
                 try {
                     load_rtl_block_library(def, lib->resolved);
                 } catch (const std::exception& e) {
                     fail_rule(e.what());
                 }
             }
         }});
}

}  // namespace uetsim::config
