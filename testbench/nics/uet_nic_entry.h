// The UET NIC's factory entry: UetNic.* with the host link's rate, through
// derive_uet_nic_params.
#pragma once

#include <memory>
#include <string>

#include "hw/nic/common/host_nic.h"
#include "testbench/scenario.h"

namespace uetsim {

std::unique_ptr<host_nic> make_uet_nic(const std::string& name, const nic_config& nic,
                                       const nic_context& ctx, double link_rate_bps);

}  // namespace uetsim
