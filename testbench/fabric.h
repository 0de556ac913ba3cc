// Elaborates a topology: one link module per link, one fabric_switch per switch (with its
// routing table), and one host port per host, with every socket bound.
#pragma once

#include <memory>
#include <vector>

#include "hw/link/link.h"
#include "hw/nic/uet/uet_nic.h"
#include "hw/switch/fabric_switch.h"
#include "rtl/flow_hash/flow_hash_rtl.h"
#include "testbench/flow_host.h"
#include "testbench/flows.h"
#include "testbench/scenario.h"
#include "testbench/topology.h"
#include "tlm/packet_pool.h"

namespace uetsim {

class fabric
{
public:
    fabric(const scenario& sc, packet_pool& pool, flows& traffic);

    const topology& topo() const { return m_topo; }
    link& link_at(size_t i) { return *m_links[i]; }
    size_t link_count() const { return m_links.size(); }
    fabric_switch& switch_at(size_t i) { return *m_switches[i]; }
    size_t switch_count() const { return m_switches.size(); }
    size_t host_count() const { return m_topo.hosts; }
    host_port_stats host_stats(size_t h) const
    {
        return m_nics.empty() ? m_hosts[h]->port_stats() : m_nics[h]->port_stats();
    }
    // The UET NICs (empty with Nic.Type raw).
    size_t nic_count() const { return m_nics.size(); }
    uet_nic& nic_at(size_t h) { return *m_nics[h]; }
    // Hashes checked against the RTL block in lockstep mode (Switch.RtlFlowHashLockstep).
    uint64_t rtl_hash_checks() const;

private:
    topology m_topo;
    std::vector<std::unique_ptr<link>> m_links;
    std::vector<std::unique_ptr<fabric_switch>> m_switches;
    std::vector<std::unique_ptr<flow_host>> m_hosts;
    std::vector<std::unique_ptr<uet_nic>> m_nics;
    std::vector<std::unique_ptr<rtl_flow_hasher>> m_rtl_hashers;
};

}  // namespace uetsim
