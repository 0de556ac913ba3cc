// The RoCE NIC's factory entry: RoceNic.* with the host link's rate.
#pragma once

#include <memory>
#include <string>

#include "hw/nic/common/host_nic.h"
#include "testbench/scenario.h"

namespace uetsim {

std::unique_ptr<host_nic> make_roce_nic(const std::string& name, const nic_config& nic,
                                        const nic_context& ctx, double link_rate_bps);

}  // namespace uetsim
