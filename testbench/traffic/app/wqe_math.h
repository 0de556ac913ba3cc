// Arithmetic of one RDMA WRITE WQE on a NIC (segmentation, wire bytes, serialization), its
// doorbell on PCIe, and the closed-loop outstanding-WQE counts. Pure logic: no SystemC.
#pragma once

#include <cstdint>

namespace uetsim {

// UDP (8) + IPv4 (20) headers around the doorbell payload on the PCIe link.
constexpr uint32_t k_doorbell_header_bytes = 28;
// Every WQE of the application is an RDMA WRITE of this size.
constexpr uint64_t k_rdma_app_wqe_bytes = 250000;

struct wqe_shape
{
    uint64_t bytes = 0;
    uint64_t packets = 0;       // ceil(bytes / MSS); a zero-byte WQE still sends one packet
    uint64_t full_packets = 0;  // packets carrying exactly MSS bytes
    uint64_t last_packet_bytes = 0;
    // Opcodes: WRITE ONLY for a single packet, else 1 FIRST, packets - 2 MIDDLE, 1 LAST.
    uint64_t middle_packets = 0;
    uint64_t wire_bytes = 0;  // bytes + packets x per-packet header overhead
    double serialization_s = 0;
};

// Throws std::invalid_argument for mss == 0 or a link rate <= 0.
wqe_shape shape_wqe(uint64_t bytes, uint32_t mss, uint32_t header_overhead_bytes,
                    double link_rate_bps);

// DoorbellPayloadSize + 28 bytes of UDP/IPv4 headers.
constexpr uint64_t doorbell_pcie_bytes(uint64_t doorbell_payload_bytes)
{
    return doorbell_payload_bytes + k_doorbell_header_bytes;
}

// Closed loop: each connection keeps MaxPendingWQEs outstanding.
constexpr uint64_t outstanding_per_connection(uint32_t max_pending_wqes)
{
    return max_pending_wqes;
}
constexpr uint64_t outstanding_per_pair(uint32_t num_connections, uint32_t max_pending_wqes)
{
    return uint64_t(num_connections) * max_pending_wqes;
}
constexpr uint64_t outstanding_in_topology(uint64_t pairs, uint32_t num_connections,
                                           uint32_t max_pending_wqes)
{
    return pairs * outstanding_per_pair(num_connections, max_pending_wqes);
}
// The NIC sends one WQE of a connection at a time; the rest wait at the NIC.
constexpr uint64_t on_wire_per_connection(uint32_t max_pending_wqes)
{
    return max_pending_wqes > 0 ? 1 : 0;
}

}  // namespace uetsim
