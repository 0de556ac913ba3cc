// The UET NIC's entry in the NIC registry (testbench/elab/nic_factory.h): UetNic.* with the host
// link's rate through derive_uet_nic_params, UetNic.RdmaDataMSS, UET data framing, the
// InitialBaseRTT and REPS-with-flowlet warnings, the waveform probe. as_uet_nic is the one cast
// to the type, for the records that are UET's own (uet-transport-stats, uet-monitor,
// uet-events, nic-pipeline).
#pragma once

#include "hw/nic/common/host_nic.h"
#include "testbench/elab/nic_factory.h"

namespace uetsim {

class uet_nic;

nic_type uet_nic_type();

// `nic` as a UET NIC, or nullptr when it is another type.
uet_nic* as_uet_nic(host_nic& nic);
const uet_nic* as_uet_nic(const host_nic& nic);

}  // namespace uetsim
