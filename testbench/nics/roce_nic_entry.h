// The RoCE NIC's entry in the NIC registry (testbench/elab/nic_factory.h): RoceNic.* with the
// host link's rate, RoceNic.MSS, RoCE v2 data framing. as_roce_nic is the one cast to the type,
// for the records that are RoCE's own (roce-transport-stats).
#pragma once

#include "hw/nic/common/host_nic.h"
#include "testbench/elab/nic_factory.h"

namespace uetsim {

class roce_nic;

nic_type roce_nic_type();

// `nic` as a RoCE NIC, or nullptr when it is another type.
roce_nic* as_roce_nic(host_nic& nic);
const roce_nic* as_roce_nic(const host_nic& nic);

}  // namespace uetsim
