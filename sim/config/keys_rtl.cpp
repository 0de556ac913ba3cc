// Rtl.* keys: one per RTL block of the registry (testbench/elab/rtl_blocks.h), model | rtl | both,
// per device through Rtl[glob].Key; the rule that refuses a block this build lacks; and
// Switch.RtlFlowHashLockstep, the old spelling of Rtl.FlowHash: both (one release).
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

}  // namespace

instance_kind override_kind(const device_override& o)
{
    const instance_kind k = schema().find_section(o.section)->instances;
    if (k != instance_kind::devices) return k;
    const rtl_block_def* def = find_rtl_block(o.key.substr(o.key.find('.') + 1));
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
    }

    paths.push_back("Switch.RtlFlowHashLockstep");
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
         }});
}

}  // namespace uetsim::config
