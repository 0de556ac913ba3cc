// The base of every NIC type (UET now, RoCE next): a module with the generic network port and
// the host side it serves (host_dma), offering rdma_transport to the host interface. A NIC type
// derives from it, supplies the transport as the port's client and says what it is; the
// testbench holds NICs as host_nic, so a new type needs no testbench edit beyond its factory
// entry (testbench/elab/nic_factory.cpp).
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "hw/common/state_probe.h"
#include "hw/nic/common/host_dma.h"
#include "hw/nic/common/host_port_stats.h"
#include "hw/nic/common/nic_port.h"
#include "hw/nic/common/rdma_transport.h"
#include "tlm/packet_pool.h"

namespace uetsim {

// Who a NIC is and what it is wired to, whatever its type.
struct nic_context
{
    uint32_t host = 0;     // host index (the frames' source node)
    uint32_t node_id = 0;  // device node id in records
    uint32_t ip = 0;
    uint64_t random_seed = 0;  // Simulation.RandomSeed: the NIC's streams derive from it
    packet_pool& pool;
    host_dma& dma;  // the host side: payload DMA, completions, connection messages
};

class host_nic : public sc_core::sc_module, public rdma_transport, protected nic_port_client
{
public:
    nic_port port;

    // Nic.Type's spelling of this NIC's type ("uet").
    virtual const char* kind_name() const = 0;
    // Data packets sent, retransmissions included (the run summary).
    virtual uint64_t data_packets_sent() const = 0;
    // The queue pair that carries a workload's messages to `dst_host` (post_message), or
    // k_no_queue_pair for a message that stands alone (the UET NIC: a PDC per message).
    virtual uint32_t workload_queue_pair(uint32_t dst_host) const { return k_no_queue_pair; }
    // The NIC's EnableBufferStats: net-buff-stats reports its pools.
    virtual bool buffer_stats_enabled() const { return false; }
    // nd-stats `rx_drops` of the NIC's port: its receive pools' drops, plus what the type's
    // transport discards on arrival where its pages count that too (RoCE).
    virtual uint64_t nd_rx_drops() const { return port.stats().rx_drops; }
    // The waveform probe of the NIC's own state (Trace.*), or nullptr to detach it; a type
    // without one ignores it.
    virtual void set_probe(state_probe* p) { (void)p; }
    // One line per connection with data outstanding (its peer, sequence numbers, retransmission
    // and timer state), for the report of a run that stalled (Simulation.StallTimeout). Not on
    // any hot path: read once, when the run stops.
    virtual std::string outstanding_connections() const { return {}; }

    void send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m) override
    {
        port.send_connection_message(dst_host, dst_ip, m);
    }

    const host_port_stats& port_stats() const { return port.stats(); }
    uint32_t host() const { return m_host; }
    uint32_t node_id() const { return m_node_id; }
    uint32_t ip() const { return m_ip; }

protected:
    host_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
             const nic_port_config& port_cfg)
        : sc_core::sc_module(name)
        , port("port", port_cfg, ctx.pool, ctx.dma, *this)
        , m_host(ctx.host)
        , m_node_id(ctx.node_id)
        , m_ip(ctx.ip)
        , m_seed(ctx.random_seed)
        , m_pool(ctx.pool)
        , m_dma(ctx.dma)
    {
    }

    uint32_t m_host, m_node_id, m_ip;
    uint64_t m_seed;
    packet_pool& m_pool;
    host_dma& m_dma;
};

}  // namespace uetsim
