#include "testbench/elab/nic_host.h"

#include "hw/kernel/time.h"
#include "testbench/elab/nic_factory.h"

namespace uetsim {

nic_host::nic_host(const topology& t, uint32_t h, const nic_config& nic, const pcie_config& pcie,
                   uint64_t random_seed, packet_pool& pool)
{
    const std::string& name = t.devices[h].name;
    m_memory = std::make_unique<host_memory>((name + "_memory").c_str());
    m_mmio = std::make_unique<host_mmio>((name + "_cpu").c_str());
    m_pcie = std::make_unique<pcie_link>((name + "_pcie").c_str(), pcie);
    m_host_if = std::make_unique<nic_host_interface>((name + "_host_if").c_str(), h, pcie,
                                                     [](uint32_t x) { return host_ip(x); });
    const nic_context ctx{h, t.devices[h].node_id, host_ip(h), random_seed, pool, *m_host_if};
    const link_spec& link = t.host_link(h);
    m_nic = make_nic(name, nic, ctx, link.rate_bps);
    m_nic->port.set_link({link.rate_bps, ps_from_seconds(link.delay_s)});
    m_host_if->attach(m_nic.get());
    m_pcie->nic_out.bind(m_host_if->bar);
    m_host_if->dma.bind(m_pcie->nic_in);
}

void nic_host::bind_host_side()
{
    m_mmio->out.bind(m_pcie->host_in);
    m_pcie->host_out.bind(m_memory->port);
}

}  // namespace uetsim
