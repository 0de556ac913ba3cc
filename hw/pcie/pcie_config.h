// Configuration of a host's PCIe link (Pcie.*): each direction runs at its sending side's
// lanes x lane rate, moves data in transfers of at most MaxPayloadSize bytes that each carry a
// fixed protocol overhead, and adds an optional one-way latency (the reference model has none).
#pragma once

#include <cstdint>

#include "hw/common/value_range.h"

namespace uetsim {

struct pcie_config
{
    double nic_side_lane_bps = 31.52e9;   // NIC-to-host direction (PCIe 5.0 lane rate)
    uint32_t nic_side_lanes = 16;         // lanes_range below
    double host_side_lane_bps = 31.52e9;  // host-to-NIC direction
    uint32_t host_side_lanes = 16;
    uint32_t max_payload = 512;      // bytes of data per transfer (TLP)
    uint32_t tlp_overhead = 34;      // bytes of protocol overhead per transfer
    uint32_t read_request = 64;      // bytes of a DMA read request, before its overhead
    uint32_t completion_bytes = 64;  // bytes of a completion queue entry the NIC writes
    double latency_s = 0;            // one-way latency added to every transfer

    static constexpr value_range lanes_range{1, 16};  // NicSideLaneCount, HostSideLaneCount

    double nic_to_host_bps() const { return nic_side_lane_bps * nic_side_lanes; }
    double host_to_nic_bps() const { return host_side_lane_bps * host_side_lanes; }
};

}  // namespace uetsim
