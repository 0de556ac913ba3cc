// What a PCIe transaction is for, carried as a TLM-2.0 extension of the generic payload: the
// link counts transfers by purpose (pcie-stats), host memory tells its observers what landed.
#pragma once

#include <cstdint>

#include <tlm>

namespace uetsim {

enum class pcie_purpose : uint8_t {
    doorbell,          // host -> NIC: a WQE posted on a queue pair
    connection_send,   // host -> NIC: a connection-management message to send
    payload_fetch,     // NIC reads payload from host memory (request, then completion)
    data_write,        // NIC writes received payload to host memory
    completion_write,  // NIC writes a completion queue entry
    connection_write,  // NIC writes a received connection-management message
    context_fetch,     // NIC reads a PDC context that missed its context cache
    context_write,     // NIC writes back a PDC context its context cache evicted
};
inline constexpr int k_pcie_purposes = 8;

struct pcie_tag : tlm::tlm_extension<pcie_tag>
{
    pcie_purpose purpose = pcie_purpose::doorbell;
    // For data writes: whose message the bytes belong to, for the scoreboard.
    uint32_t src_host = 0;
    uint64_t message = 0;
    uint64_t offset = 0;

    tlm::tlm_extension_base* clone() const override { return new pcie_tag(*this); }
    void copy_from(const tlm::tlm_extension_base& e) override
    {
        *this = static_cast<const pcie_tag&>(e);
    }
};

// Address map. The NIC's BAR: one doorbell register per queue pair and a connection-management
// send register. Host memory: payload buffers, received data, completion and CM receive rings.
namespace pcie_map {
inline constexpr uint64_t cm_send_register = 0x0;
inline constexpr uint64_t receive_post_register = 0x8;
inline constexpr uint64_t doorbell_base = 0x1000;
inline constexpr uint64_t doorbell_stride = 8;
inline constexpr uint64_t doorbell(uint32_t qp)
{
    return doorbell_base + uint64_t(qp) * doorbell_stride;
}
inline constexpr uint32_t qp_of_doorbell(uint64_t addr)
{
    return uint32_t((addr - doorbell_base) / doorbell_stride);
}
}  // namespace pcie_map

}  // namespace uetsim
