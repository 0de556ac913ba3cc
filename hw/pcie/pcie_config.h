// Configuration of a host's PCIe link (Pcie.*): each direction runs at its sending side's
// lanes x lane rate, moves data in transfers (TLPs) of at most MaxPayloadSize bytes that each
// carry a fixed protocol overhead, splits reads into requests of at most MaxReadRequestSize
// bytes, starts a TLP only when the receiving end has flow-control credits for it, and adds an
// optional one-way latency (the reference model has none).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "hw/common/value_range.h"
#include "hw/pcie/pcie_credits.h"

namespace uetsim {

// PCIe generations by their lane rate after line coding, in the reference's figures: 31.52 Gbps
// is its PCIe 5.0 lane rate (32 GT/s, 128b/130b); 3.0 and 4.0 scale it by 1/4 and 1/2 (its
// "PCIe 3.0" example is 16 x 7.88 Gbps); 1.0 and 2.0 run 2.5 and 5 GT/s with 8b/10b.
struct pcie_generation
{
    const char* name;
    double lane_bps;
};
inline constexpr std::array<pcie_generation, 5> k_pcie_generations{{
    {"Gen1", 2e9},
    {"Gen2", 4e9},
    {"Gen3", 7.88e9},
    {"Gen4", 15.76e9},
    {"Gen5", 31.52e9},
}};

// The credits one end advertises for what it receives, per TLP type (0: infinite). Defaults:
// an Intel R-tile (PCIe 5.0 x16) endpoint's, which its root port advertises too (R-Tile Avalon
// Streaming IP for PCI Express User Guide, "RX Flow Control Interface"): 784 posted headers,
// 1,456 posted data credits (23,296 B), 784 non-posted headers, 392 non-posted data credits,
// infinite completion credits, which the specification requires of endpoints and root
// complexes.
struct pcie_side_credits
{
    std::array<pcie_credit_limits, k_pcie_tlp_types> limits{{{784, 1456}, {784, 392}, {0, 0}}};

    pcie_credit_limits& operator[](pcie_tlp_type t) { return limits[size_t(t)]; }
    const pcie_credit_limits& operator[](pcie_tlp_type t) const { return limits[size_t(t)]; }
};

struct pcie_config
{
    double nic_side_lane_bps = 31.52e9;   // NIC-to-host direction (PCIe 5.0 lane rate)
    uint32_t nic_side_lanes = 16;         // lanes_range below
    double host_side_lane_bps = 31.52e9;  // host-to-NIC direction
    uint32_t host_side_lanes = 16;
    uint32_t max_payload = 512;           // bytes of data per transfer (TLP)
    uint32_t max_read_request = 4096;     // most bytes one read request asks for
    uint32_t tlp_overhead = 34;           // bytes of protocol overhead per transfer
    uint32_t read_request = 64;           // bytes of a DMA read request, before its overhead
    uint32_t completion_bytes = 64;       // bytes of a completion queue entry the NIC writes
    double latency_s = 0;                 // one-way latency added to every transfer
    double credit_return_latency_s = 0;   // from a TLP's arrival to its credits' return
    pcie_side_credits nic_side_credits;   // advertised by the NIC for host-to-NIC TLPs
    pcie_side_credits host_side_credits;  // advertised by the host for NIC-to-host TLPs

    static constexpr value_range lanes_range{1, 16};  // NicSideLaneCount, HostSideLaneCount
    // Advertised credits with scaled flow control (PCIe 6.0 "Scaled Flow Control": up to 127
    // headers and 2,047 data credits, times 1, 4 or 16).
    static constexpr value_range header_credits_range{1, 2032};
    static constexpr value_range data_credits_range{1, 32752};

    double nic_to_host_bps() const { return nic_side_lane_bps * nic_side_lanes; }
    double host_to_nic_bps() const { return host_side_lane_bps * host_side_lanes; }

    // A finite posted or completion data credit limit below one full transfer, which no TLP of
    // MaxPayloadSize could ever get: the message names the key, the value and what is allowed.
    // nullopt when none.
    std::optional<std::string> error() const;
};

}  // namespace uetsim
