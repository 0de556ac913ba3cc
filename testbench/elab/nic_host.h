// One host with a NIC, as the fabric builds it: host memory, the host CPU's MMIO port, the PCIe
// link, the NIC's host interface and the NIC of the scenario's type, bound to each other (the
// host side, MMIO port -> PCIe -> memory, at the end of elaboration by bind_host_side, unless
// an embedding application took it: sim/embedded_host.h). Not a
// module of its own, so its parts keep their names (host0_memory, host0_pcie, host0) in records
// and traces. What the host's traffic does with completions and written memory is wired by the
// fabric through host_interface() and memory().
#pragma once

#include <memory>
#include <string>

#include "hw/host/host_memory.h"
#include "hw/host/host_mmio.h"
#include "hw/nic/common/host_nic.h"
#include "hw/nic/common/nic_host_interface.h"
#include "hw/pcie/pcie_link.h"
#include "testbench/elab/topology.h"
#include "testbench/scenario.h"
#include "tlm/packet_pool.h"

namespace uetsim {

class nic_host
{
public:
    // Host `h` of `t`, named `name`, with its own NIC and PCIe configuration (per device).
    nic_host(const topology& t, uint32_t h, const nic_config& nic, const pcie_config& pcie,
             uint64_t random_seed, packet_pool& pool);

    host_memory& memory() { return *m_memory; }
    host_mmio& mmio() { return *m_mmio; }
    pcie_link& pcie() { return *m_pcie; }
    nic_host_interface& host_interface() { return *m_host_if; }
    host_nic& nic() { return *m_nic; }
    const host_nic& nic() const { return *m_nic; }

    // MMIO port -> PCIe host_in, PCIe host_out -> memory.
    void bind_host_side();
    // Something else binds the PCIe link's host side (and the MMIO port and the memory's
    // socket, to its own); bind_host_side is not to be called.
    void take_host_side() { m_host_side_taken = true; }
    bool host_side_taken() const { return m_host_side_taken; }

private:
    std::unique_ptr<host_memory> m_memory;
    std::unique_ptr<host_mmio> m_mmio;
    std::unique_ptr<pcie_link> m_pcie;
    std::unique_ptr<nic_host_interface> m_host_if;
    std::unique_ptr<host_nic> m_nic;
    bool m_host_side_taken = false;
};

}  // namespace uetsim
