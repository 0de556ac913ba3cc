#include "hw/nic/common/nic_port.h"

#include "hw/common/time.h"
#include "tlm/dscp.h"

namespace uetsim {

nic_port::nic_port(const sc_core::sc_module_name& name, const nic_port_config& cfg,
                   packet_pool& pool, host_dma& dma, nic_port_client& client)
    : sc_core::sc_module(name)
    , in("in")
    , tx("tx", [this]() { return next_frame(); })
    , m_cfg(cfg)
    , m_pool(pool)
    , m_dma(dma)
    , m_client(client)
    , m_pfc("pfc", cfg.pfc, pool, m_arbiter, [this] { tx.kick(); })
    , m_fetch("fetch",
              [this](packet* p) {
                  m_data_q.push_back(p);
                  tx.kick();
              })
    , m_rx_pipeline("rx_pipeline", [this](packet* p) { received(p); })
    , m_ack_hold("ack_hold", [this](packet* p) { push_control(p); })
    , m_control_built("control_built", [this](packet* p) { push_control(p); })
{
    for (int i = 0; i < k_rx_stages; ++i) {
        m_rx[i] = pipeline_stage(cfg.rx_stages[i], cfg.cycle_ps);
        m_rx_delays_only = m_rx_delays_only && m_rx[i].delay_only();
        m_rx_latency_ps += m_rx[i].latency_ps();
    }
    in.on_receive([this](packet& p) {
        ++m_stats.rx_packets;
        m_stats.rx_bytes += p.wire_bytes;
        if (p.kind == packet_kind::pfc) {
            // Consumed by the MAC, ahead of the receive FIFO and never charged to a pool.
            m_pfc.receive(p);
            m_pool.release(&p);
            return sc_core::SC_ZERO_TIME;
        }
        const uint64_t now = sc_core::sc_time_stamp().value();
        if (!m_rx[0].has_room(now)) {
            // The MAC's receive FIFO is full: the frame is lost here, and only here; the
            // transport recovers it as any other loss.
            ++m_stats.rx_drops;
            m_pool.release(&p);
            return sc_core::SC_ZERO_TIME;
        }
        // Frames arrive in time order, so delay-only stages need no per-stage arithmetic.
        const uint64_t out =
            m_cfg.pdc_context_lookup
                ? pass_through_waiting(m_rx, k_rx_stages, now, int(rx_stage::pdc_lookup),
                                       [&](uint64_t at) { return m_client.context_ready(p, at); })
            : m_rx_delays_only ? pass_through_delays(m_rx, k_rx_stages, now, m_rx_latency_ps)
                               : pass_through(m_rx, k_rx_stages, now);
        m_rx_pipeline.push(&p, picoseconds(out));
        return sc_core::SC_ZERO_TIME;
    });
    tx.on_frame_done([this] { frame_done(); });
}

packet* nic_port::next_frame()
{
    if (m_pfc.waiting()) {  // the PFC queue goes ahead of every class and is never paused
        packet* p = m_pfc.pop();
        m_wire = sent_frame{};
        m_wire.kind = packet_kind::pfc;
        m_wire.wire_bytes = p->wire_bytes;
        ++m_stats.tx_packets;
        m_stats.tx_bytes += p->wire_bytes;
        m_wire_copied = false;
        return p;
    }
    if (m_arbiter.paused()) return next_frame_paused();
    const uint8_t data_waiting = m_data_q.empty() ? uint8_t(0) : uint8_t(1u << data_class);
    int slot = m_arbiter.pick(!m_control_q.empty(), data_waiting);
    // Strict priority between the classes: the control class goes first unless the waiting data
    // frame's class is numbered higher (the data ring is one FIFO, so its head's class decides).
    if (slot == port_scheduler::control_slot && data_waiting &&
        dscp::traffic_class(m_data_q.front()->ip.dscp) > m_cfg.control_traffic_class &&
        m_arbiter.pick(false, data_waiting) == data_class)
        slot = data_class;
    ring<packet*>* q = slot == port_scheduler::control_slot ? &m_control_q
                       : slot == data_class                 ? &m_data_q
                                                            : nullptr;
    if (!q) return nullptr;
    return take(*q);
}

// With a class paused: the control ring is held when its class is paused, the data ring when
// the class of the frame at its head is (the ring is one FIFO); otherwise the same order as
// next_frame().
packet* nic_port::next_frame_paused()
{
    const uint8_t paused = m_arbiter.paused();
    const bool control =
        !m_control_q.empty() && !((paused >> m_cfg.control_traffic_class) & 1u);
    const int data_tc = m_data_q.empty() ? -1 : dscp::traffic_class(m_data_q.front()->ip.dscp);
    const bool data = data_tc >= 0 && !((paused >> data_tc) & 1u);
    if (control && (!data || data_tc <= m_cfg.control_traffic_class)) return take(m_control_q);
    if (data) return take(m_data_q);
    return nullptr;
}

packet* nic_port::take(ring<packet*>& q)
{
    packet* p = q.front();
    q.pop_front();
    m_wire.kind = p->kind;
    m_wire.data = &q == &m_data_q;
    m_wire.retransmit = p->pds.retransmit;
    m_wire.ack_request = p->pds.ack_request;
    m_wire.spdcid = p->pds.spdcid;
    m_wire.psn = p->pds.psn;
    m_wire.wire_bytes = p->wire_bytes;
    ++m_stats.tx_packets;
    m_stats.tx_bytes += p->wire_bytes;
    // A monitor logs the frame once it has finished on the wire; the link may release or
    // deliver it before then, so the port keeps a copy (no allocation: a member).
    m_wire_copied = m_observe_tx;
    if (m_observe_tx) m_wire_copy = *p;
    return p;
}

void nic_port::frame_done()
{
    if (m_wire.kind == packet_kind::pfc) return;  // the transport never sees PFC frames
    if (m_wire.data) m_data_reserved -= m_wire.wire_bytes;
    if (m_wire_copied) m_client.on_transmit(m_wire_copy);
    m_client.on_sent(m_wire);
    if (m_wire.data && m_pool_blocked && m_data_reserved <= m_cfg.egress_data_pool_bytes / 2) {
        m_pool_blocked = false;
        m_client.on_pool_free();
    }
}

void nic_port::received(packet* p)
{
    if (p->kind != packet_kind::connection) {
        m_client.on_receive(p);
        return;
    }
    const cm_fields m = p->cm;
    const uint32_t src = p->src_node;
    m_pool.release(p);
    m_dma.connection_message_received(src, m);
}

void nic_port::send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m)
{
    packet* c = m_pool.acquire();
    c->kind = packet_kind::connection;
    c->src_node = uint16_t(m_cfg.host);
    c->dst_node = uint16_t(dst_host);
    c->wire_bytes = wire_size(packet_kind::connection, 0);
    c->ip.src = m_cfg.ip;
    c->ip.dst = dst_ip;
    c->ip.dscp = dscp::make(m_cfg.control_traffic_class, dscp::role::control);
    c->ip.ecn = ecn::ect1;
    c->cm = m;
    c->udp.src_port = wire::cm_udp_port;
    c->udp.dst_port = wire::cm_udp_port;
    push_control(c);
}

}  // namespace uetsim
