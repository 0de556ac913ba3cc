// The UET NIC's waveform probe (Trace.*): per group slot (Trace.GroupSlots) its congestion
// window, bytes in flight, RTTs, entropy value and REPS state, and the NIC's queues, PDC counts,
// timers and the counters the triggers watch. docs/waveforms.md lists the signals.
#pragma once

#include <memory>
#include <string>

#include "hw/common/state_probe.h"
#include "hw/nic/common/host_nic.h"
#include "testbench/scenario.h"
#include "testbench/trace/signal_table.h"
#include "testbench/trace/waveform_signals.h"

namespace uetsim {

// The probe's signals (docs/waveforms.md): per PDC group slot, and the NIC's own.
const signal_table& uet_group_signals();
const signal_table& uet_nic_signals();

// `nic` is a UET NIC (its entry's make_probe).
std::unique_ptr<state_probe> make_uet_nic_probe(waveform_signals& w, const std::string& component,
                                                host_nic& nic, const scenario& sc);

}  // namespace uetsim
