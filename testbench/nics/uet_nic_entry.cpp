#include "testbench/nics/uet_nic_entry.h"

#include "hw/nic/uet/uet_nic.h"
#include "hw/nic/uet/uet_nic_params.h"

namespace uetsim {

std::unique_ptr<host_nic> make_uet_nic(const std::string& name, const nic_config& nic,
                                       const nic_context& ctx, double link_rate_bps)
{
    return std::make_unique<uet_nic>(
        name.c_str(), ctx, derive_uet_nic_params(nic.uet, nic.nscc, nic.spraying, link_rate_bps));
}

}  // namespace uetsim
