// Nic[glob].Type: the NIC type of each host, so RoCE and UET NICs can share one fabric. Most
// scenarios give one Nic.Type for every host; these tell the parts that depend on the type
// (Flows' MSS per sender, the records, the probes, the checks) which type a host has.
#pragma once

#include <string>
#include <vector>

#include "testbench/scenario.h"

namespace uetsim {

// Whether some Nic[glob].Type override gives some hosts a type of their own.
bool sets_nic_type_per_host(const scenario& sc);

// The NIC type of host `host` (its name host<N>, as every topology names its hosts).
nic_kind host_nic_kind(const scenario& sc, uint32_t host);

// The NIC type of each of the first `hosts` hosts.
std::vector<nic_kind> host_nic_kinds(const scenario& sc, uint32_t hosts);

// The types the first `hosts` hosts have, each once, in the order of the first host of each.
std::vector<nic_kind> nic_kinds_in_use(const scenario& sc, uint32_t hosts);

// The NIC section with Nic.Type the one type every host has (a single-type fabric given as
// Nic[host*].Type too); the section as given when the hosts mix types.
nic_config fabric_nic(const scenario& sc, uint32_t hosts);

}  // namespace uetsim
