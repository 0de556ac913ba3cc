#include "testbench/nics/roce_nic_entry.h"

#include "hw/nic/roce/roce_nic.h"
#include "testbench/elab/scale_estimate.h"
#include "testbench/nics/roce_nic_probe.h"
#include "tlm/dscp.h"
#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

std::unique_ptr<host_nic> make_roce_nic(const std::string& name, const nic_config& nic,
                                        const nic_context& ctx, double link_rate_bps)
{
    return std::make_unique<roce_nic>(name.c_str(), ctx, nic.roce, link_rate_bps);
}

}  // namespace

nic_type roce_nic_type()
{
    nic_type t;
    t.kind = nic_kind::roce;
    t.doc =
        "a RoCE v2 NIC at every host (reliable connected queue pairs, go-back-N, "
        "DCQCN-style rate per queue pair; RoceNic.*)";
    t.build = &make_roce_nic;
    t.data_mss = [](const nic_config& n) { return n.roce.mss; };
    t.data_overhead_bytes = wire::roce_data_overhead;
    t.framing = "roce";
    t.bytes_per_host = scale_bytes_nic_host;
    // As roce_nic marks its data: CSn, ECT(0) with RoceNic.EnableECN.
    t.data_marking = [](const nic_config& n, uint8_t tc) {
        return ip_marking{dscp::make(tc, dscp::role::no_trim),
                          n.roce.ecn.enable_ecn ? ecn::ect0 : ecn::not_ect};
    };
    t.make_probe = &make_roce_nic_probe;
    return t;
}

roce_nic* as_roce_nic(host_nic& nic)
{
    return dynamic_cast<roce_nic*>(&nic);
}

const roce_nic* as_roce_nic(const host_nic& nic)
{
    return dynamic_cast<const roce_nic*>(&nic);
}

}  // namespace uetsim
