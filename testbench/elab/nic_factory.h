// The one place a NIC type is chosen: a registry keyed by Nic.Type whose entry builds the NIC
// from the scenario (its own keys), the NIC's context and its host link's rate. A new NIC type
// is a folder under hw/nic/, an entry file in testbench/nics/ and one line in nic_factory.cpp.
#pragma once

#include <memory>
#include <string>

#include "hw/nic/common/host_nic.h"
#include "testbench/scenario.h"

namespace uetsim {

using nic_builder = std::unique_ptr<host_nic> (*)(const std::string& name, const nic_config& nic,
                                                  const nic_context& ctx, double link_rate_bps);

// The builder of Nic.Type `kind`, or nullptr where no NIC is built (raw ports).
nic_builder nic_builder_for(nic_kind kind);

// Builds the NIC of the scenario's Nic.Type (not raw).
std::unique_ptr<host_nic> make_nic(const std::string& name, const nic_config& nic,
                                   const nic_context& ctx, double link_rate_bps);

}  // namespace uetsim
