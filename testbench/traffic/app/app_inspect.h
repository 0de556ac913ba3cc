// What `uetsim inspect --json` shows about the RDMA application: its run timeline, the
// placement and pairing of Initiators and Responders, and the shape of one WQE on the NIC.
// Pure logic (no SystemC): derived from the resolved scenario alone.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "testbench/elab/nic_data_framing.h"
#include "testbench/scenario.h"

namespace uetsim {

// An object with the members INTERFACE.md fixes for `inspect --json`:
//   timeline:  responders_start_s, client_start_window_s [from, to],
//              recording_window_s [from, to], stop_time_s
//   placement: hosts, initiators [host ids], responders [host ids], pairs [[i, r], ...]
//   wqe:       nic (uet or roce), bytes, packets, full_packets, last_packet_bytes, wire_bytes,
//              serialization_s, doorbell_pcie_bytes, opcodes {first, middle, last, only}
// plus `enabled` (RdmaApplication.Enabled as resolved). `hosts` is the topology's host count and
// `host_link_rate_bps` the rate of a host's network link (serialization of one WQE). When the
// ratios cannot be placed (only possible with the application off), the placement lists are
// empty and placement.errors says why. `nic` is the framing of the scenario's Nic.Type
// (nic_framing_of): the WQE is cut at its MSS and carries its headers.
nlohmann::ordered_json rdma_app_json(const scenario& sc, uint32_t hosts, double host_link_rate_bps,
                                     const nic_data_framing& nic);

}  // namespace uetsim
