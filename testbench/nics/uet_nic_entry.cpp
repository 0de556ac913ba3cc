#include "testbench/nics/uet_nic_entry.h"

#include <utility>

#include "hw/nic/uet/uet_nic.h"
#include "hw/nic/uet/uet_nic_params.h"

namespace uetsim {

std::unique_ptr<host_nic> make_uet_nic(const std::string& name, const nic_config& nic,
                                       const nic_context& ctx, double link_rate_bps)
{
    uet_nic_params params = derive_uet_nic_params(nic.uet, nic.nscc, nic.spraying, link_rate_bps);
    params.make_entropy_engine = nic.make_entropy_engine;
    params.make_sack_tracker = nic.make_sack_tracker;
    return std::make_unique<uet_nic>(name.c_str(), ctx, std::move(params));
}

}  // namespace uetsim
