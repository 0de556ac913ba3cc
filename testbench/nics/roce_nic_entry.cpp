#include "testbench/nics/roce_nic_entry.h"

#include "hw/nic/roce/roce_nic.h"

namespace uetsim {

std::unique_ptr<host_nic> make_roce_nic(const std::string& name, const nic_config& nic,
                                        const nic_context& ctx, double link_rate_bps)
{
    return std::make_unique<roce_nic>(name.c_str(), ctx, nic.roce, link_rate_bps);
}

}  // namespace uetsim
