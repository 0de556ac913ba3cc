// Elaborates a topology: one link module per link, one fabric_switch per switch (with its
// routing table), and per host either a raw port or a nic_host (the NIC with its host side:
// host memory, the PCIe link and the NIC's host interface), with every socket bound. Its
// constructor wires hosts, switches and links; what a host is made of is nic_host's.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/link/link.h"
#include "hw/switch/fabric_switch.h"
#include "testbench/elab/nic_host.h"
#include "testbench/traffic/flow_host.h"
#include "testbench/traffic/flows.h"
#include "testbench/traffic/host_software.h"
#include "testbench/elab/rtl_blocks.h"
#include "testbench/scenario.h"
#include "testbench/elab/topology.h"
#include "tlm/packet_pool.h"

namespace uetsim {

namespace chakra {
class chakra_replay;
}

class fabric
{
public:
    // `configure_nic` (may be empty) sees each NIC host's configuration before its NIC is built.
    using nic_configurator = std::function<void(const std::string& host, nic_config& nic)>;
    fabric(const scenario& sc, packet_pool& pool, flows& traffic,
           const nic_configurator& configure_nic = {});

    const topology& topo() const { return m_topo; }
    link& link_at(size_t i) { return *m_links[i]; }
    const link& link_at(size_t i) const { return *m_links[i]; }
    size_t link_count() const { return m_links.size(); }
    fabric_switch& switch_at(size_t i) { return *m_switches[i]; }
    size_t switch_count() const { return m_switches.size(); }
    size_t host_count() const { return m_topo.hosts; }
    host_port_stats host_stats(size_t h) const
    {
        return m_nic_hosts.empty() ? m_hosts[h]->port_stats() : m_nic_hosts[h]->nic().port_stats();
    }
    // The NICs, one per host, of the type Nic.Type names (none with Nic.Type raw).
    size_t nic_count() const { return m_nic_hosts.size(); }
    host_nic& nic_at(size_t h) { return m_nic_hosts[h]->nic(); }
    const host_nic& nic_at(size_t h) const { return m_nic_hosts[h]->nic(); }
    // Each NIC host's PCIe link, host memory and the NIC's host interface.
    pcie_link& pcie_at(size_t h) { return m_nic_hosts[h]->pcie(); }
    host_memory& memory_at(size_t h) { return m_nic_hosts[h]->memory(); }
    host_mmio& mmio_at(size_t h) { return m_nic_hosts[h]->mmio(); }
    nic_host_interface& host_interface_at(size_t h) { return m_nic_hosts[h]->host_interface(); }
    nic_host& nic_host_at(size_t h) { return *m_nic_hosts[h]; }
    // Binds the built-in host side (nic_host::bind_host_side) of every NIC host whose host side
    // nothing else took (nic_host::take_host_side); before the kernel starts.
    void bind_host_sides();
    // The software on the hosts, told of what the NICs write into host memory (other than the
    // payload of Flows messages, which goes to the Flows scoreboard).
    void run_on_hosts(host_software* sw) { m_software = sw; }
    // The Chakra workload: the NICs' reports of its transfers (chakra::is_transfer_message) go
    // to `r`; post_transfer sends one as an RDMA WRITE of the source host's NIC.
    void route_transfers(chakra::chakra_replay* r) { m_transfers = r; }
    void post_transfer(uint32_t src_host, uint64_t message, uint32_t dst_host, uint64_t bytes,
                       uint8_t traffic_class, delivery_mode mode = delivery_mode::rud);
    // The RTL blocks built (Rtl.* rtl or both; testbench/elab/rtl_blocks.h), in device order.
    struct rtl_block
    {
        const rtl_block_def* def;
        std::string device;
        rtl_mode mode;
        std::unique_ptr<rtl_block_instance> instance;
        std::string library;  // Rtl.<key>Library as resolved; empty: the built-in block
    };
    const std::vector<rtl_block>& rtl_block_list() const { return m_rtl_blocks; }
    // Requests of block `key` compared with the model (both mode), over every device.
    uint64_t rtl_checked(std::string_view key) const;
    // Ends the RTL blocks (their final blocks, their FST files) when the run is over: the run
    // does not destroy the fabric (testbench/run/run.cpp).
    void close_rtl_blocks() { m_rtl_blocks.clear(); }

private:
    topology m_topo;
    std::vector<std::unique_ptr<link>> m_links;
    std::vector<std::unique_ptr<fabric_switch>> m_switches;
    std::vector<std::unique_ptr<flow_host>> m_hosts;
    std::vector<std::unique_ptr<nic_host>> m_nic_hosts;
    host_software* m_software = nullptr;
    chakra::chakra_replay* m_transfers = nullptr;
    std::vector<rtl_block> m_rtl_blocks;

    // Builds every block of `kind` that device `name` runs in rtl or both mode.
    void build_rtl_blocks(const scenario& sc, const std::string& name, device_kind kind,
                          fabric_switch* sw, nic_config* nic);
};

}  // namespace uetsim
