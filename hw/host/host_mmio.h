// The host CPU's port for MMIO writes into the NIC's BAR across the PCIe link (doorbells,
// connection messages): a TLM initiator that software calls directly.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "hw/pcie/pcie_tag.h"

namespace uetsim {

class host_mmio : public sc_core::sc_module
{
public:
    tlm_utils::simple_initiator_socket<host_mmio> out;

    explicit host_mmio(const sc_core::sc_module_name& name);

    // Writes `bytes` bytes at `address`, of which the first `data.size()` carry content (the
    // rest is message framing). Returns when the write has crossed the link. Throws on a bus
    // error.
    sc_core::sc_time write(uint64_t address, const std::vector<unsigned char>& data, uint32_t bytes,
                           pcie_purpose purpose);

private:
    tlm::tlm_generic_payload m_txn;
    pcie_tag* m_tag;  // owned by m_txn
    std::vector<unsigned char> m_buffer;
};

}  // namespace uetsim
