#include "testbench/elab/instance_config.h"

#include <fnmatch.h>

#include "testbench/elab/fabric_rtt.h"

namespace uetsim {

namespace {

// A Link[glob] override configures links, never the device whose name its glob matches.
bool applies_to_device(const device_override& o, const std::string& device_name)
{
    return o.section != "Link" && matches(o, device_name);
}

// Overrides assign one field of one section: a scratch scenario holding just that section keeps
// the per-device copy small (no Flows list, no faults).
template <class Section>
Section section_for(const scenario& sc, const std::string& device_name, Section scenario::*member)
{
    if (!has_overrides(sc, device_name)) return sc.*member;
    scenario scratch;
    scratch.*member = sc.*member;
    for (const auto& o : sc.overrides)
        if (applies_to_device(o, device_name)) o.apply(scratch);
    return scratch.*member;
}

}  // namespace

bool matches(const device_override& o, const std::string& device_name)
{
    return fnmatch(o.glob.c_str(), device_name.c_str(), 0) == 0;
}

bool has_overrides(const scenario& sc, const std::string& device_name)
{
    for (const auto& o : sc.overrides)
        if (applies_to_device(o, device_name)) return true;
    return false;
}

scenario scenario_for_device(const scenario& sc, const std::string& device_name)
{
    scenario out = sc;
    for (const auto& o : sc.overrides)
        if (applies_to_device(o, device_name)) o.apply(out);
    return out;
}

switch_config switch_for(const scenario& sc, const std::string& device_name)
{
    return section_for(sc, device_name, &scenario::sw);
}

nic_config nic_for(const scenario& sc, const std::string& device_name)
{
    nic_config n = section_for(sc, device_name, &scenario::nic);
    // UetNic[glob].InitialBaseRTT: auto (the section's own auto is resolved by the rules).
    if (n.initial_base_rtt_auto) {
        n.nscc.initial_base_rtt_s = derive_fabric_rtt(sc).unloaded_rtt_s();
        n.initial_base_rtt_auto = false;
    }
    return n;
}

pcie_config pcie_for(const scenario& sc, const std::string& device_name)
{
    return section_for(sc, device_name, &scenario::pcie);
}

rtl_config rtl_for(const scenario& sc, const std::string& device_name)
{
    return section_for(sc, device_name, &scenario::rtl);
}

}  // namespace uetsim
