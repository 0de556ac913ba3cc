// Per-instance configuration: a device's own view of the scenario, the device sections with the
// scenario's overrides (Switch[leaf*].EcmpHashMethod) for that device's name applied in order.
// Devices read their configuration through these once, at elaboration.
#pragma once

#include <string>

#include "testbench/scenario.h"

namespace uetsim {

// Whether `device_name` matches the override's glob (fnmatch: *, ?, [..]).
bool matches(const device_override& o, const std::string& device_name);

// Whether any override applies to `device_name` (Link[glob] overrides configure links: they
// apply to no device).
bool has_overrides(const scenario& sc, const std::string& device_name);

// The whole scenario as `device_name` sees it.
scenario scenario_for_device(const scenario& sc, const std::string& device_name);

// One section as `device_name` sees it (the section itself when no override matches).
switch_config switch_for(const scenario& sc, const std::string& device_name);
nic_config nic_for(const scenario& sc, const std::string& device_name);
pcie_config pcie_for(const scenario& sc, const std::string& device_name);
rtl_config rtl_for(const scenario& sc, const std::string& device_name);

}  // namespace uetsim
