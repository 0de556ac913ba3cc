// The RoCE NIC's waveform probe (Trace.*): per queue pair slot (the first Trace.GroupSlots open
// queue pairs by number) its PSNs, bytes outstanding, DCQCN rate, estimate and CNPs; the NIC's
// queues, timers and the counters the triggers watch. PFC pause state is the generic PFC
// probe's. docs/waveforms.md lists the signals.
#pragma once

#include <memory>
#include <string>

#include "hw/common/state_probe.h"
#include "hw/nic/common/host_nic.h"
#include "testbench/scenario.h"
#include "testbench/trace/signal_table.h"
#include "testbench/trace/waveform_signals.h"

namespace uetsim {

const signal_table& roce_qp_signals();
const signal_table& roce_nic_signals();

// `nic` is a RoCE NIC (its entry's make_probe).
std::unique_ptr<state_probe> make_roce_nic_probe(waveform_signals& w, const std::string& component,
                                                 host_nic& nic, const scenario& sc);

}  // namespace uetsim
