// Pcie.* keys: each host's PCIe link between host and NIC.
#include "sim/config/keys_common.h"

namespace uetsim::config {

void add_pcie_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.rate(
        "Pcie.NicSideLaneBps", UETSIM_FIELD(pcie.nic_side_lane_bps), {1e9, 1e12},
        "Rate of one PCIe lane in the NIC-to-host direction (31.52 Gbps: the PCIe 5.0 lane rate).");
    k.integer("Pcie.NicSideLaneCount", UETSIM_FIELD(pcie.nic_side_lanes),
              ints(pcie_config::lanes_range),
              "PCIe lanes in the NIC-to-host direction, which runs at NicSideLaneCount x "
              "NicSideLaneBps.");
    k.rate("Pcie.HostSideLaneBps", UETSIM_FIELD(pcie.host_side_lane_bps), {1e9, 1e12},
           "Rate of one PCIe lane in the host-to-NIC direction.");
    k.integer("Pcie.HostSideLaneCount", UETSIM_FIELD(pcie.host_side_lanes),
              ints(pcie_config::lanes_range),
              "PCIe lanes in the host-to-NIC direction, which runs at HostSideLaneCount x "
              "HostSideLaneBps.");
    k.bytes("Pcie.MaxPayloadSize", UETSIM_FIELD(pcie.max_payload), {64, 4096},
            "Most data bytes one PCIe transfer (TLP) carries; larger transfers are split.");
    k.bytes("Pcie.TlpOverhead", UETSIM_FIELD(pcie.tlp_overhead), {0, 256},
            "Protocol overhead bytes added to every PCIe transfer.");
    k.bytes("Pcie.ReadRequestSize", UETSIM_FIELD(pcie.read_request), {0, 4096},
            "Bytes of a DMA read request the NIC sends to fetch a payload, before its overhead.");
    k.bytes(
        "Pcie.CompletionSize", UETSIM_FIELD(pcie.completion_bytes), {16, 4096},
        "Bytes of the completion queue entry the NIC writes to the host for each completed WQE.");
    k.time("Pcie.Latency", UETSIM_FIELD(pcie.latency_s), {0, 1e-3},
           "One-way latency added to each PCIe transfer (the reference model has none).");
}

}  // namespace uetsim::config
