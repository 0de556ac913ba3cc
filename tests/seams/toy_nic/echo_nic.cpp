#include "tests/seams/toy_nic/echo_nic.h"

#include <algorithm>

#include "hw/common/picoseconds.h"
#include "hw/kernel/sim_clock.h"
#include "tlm/dscp.h"
#include "tlm/header_sizes.h"

namespace uetsim::test {

namespace {

// A PDS type code the UET pages do not use: the echo of a data packet.
constexpr uint8_t k_echo_type = 0xEC;

nic_port_config port_config(const nic_context& ctx, const echo_nic_config& cfg)
{
    nic_port_config p;
    p.host = ctx.host;
    p.ip = ctx.ip;
    // Every class's egress pool is EgressPoolSize.
    p.egress.total_buffer_bytes = cfg.egress_pool_bytes;
    p.egress.pool_allocation.fill(1.0);
    p.pfc.ip = ctx.ip;
    return p;
}

}  // namespace

echo_nic::echo_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
                   const echo_nic_config& cfg)
    : host_nic(name, ctx, port_config(ctx, cfg)), m_cfg(cfg)
{
}

void echo_nic::post_message(uint64_t id, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                            uint8_t traffic_class, uint32_t queue_pair, delivery_mode mode)
{
    (void)queue_pair;
    (void)mode;  // the echo NIC answers every delivery mode alike
    message& m = m_messages[id];
    m.id = id;
    m.dst_host = dst_host;
    m.dst_ip = dst_ip;
    m.bytes = bytes;
    m.traffic_class = traffic_class;
    m_waiting.push_back(id);
    send();
}

void echo_nic::send()
{
    const uint64_t now = sim_now_ps();
    while (!m_waiting.empty()) {
        message& m = m_messages.at(m_waiting.front());
        const uint32_t payload = uint32_t(std::min<uint64_t>(m_cfg.mss, m.bytes - m.next_offset));
        const uint32_t wire = wire_size(packet_kind::raw_data, payload);
        if (port.pool_room(m.traffic_class) < wire) {
            port.block_on_pool(m.traffic_class);
            return;
        }
        packet* p = m_pool.acquire();
        p->kind = packet_kind::raw_data;
        p->src_node = uint16_t(m_host);
        p->dst_node = uint16_t(m.dst_host);
        p->payload_bytes = payload;
        p->wire_bytes = wire;
        p->ip.src = m_ip;
        p->ip.dst = m.dst_ip;
        p->ip.dscp = dscp::make(m.traffic_class, dscp::role::no_trim);
        p->ses.message_id = m.id;
        p->ses.offset = m.next_offset;
        p->ses.message_bytes = m.bytes;
        m.next_offset += payload;
        p->ses.last = m.next_offset == m.bytes;
        m_last_ready_ps = std::max(m_last_ready_ps, m_dma.fetch_payload(now, payload));
        port.push_data(p, m_last_ready_ps);
        ++m_data_packets;
        if (p->ses.last) {
            m_dma.message_sent(m.id, now);
            m_waiting.pop_front();
        }
    }
}

void echo_nic::on_receive(packet* p)
{
    if (p->pds.type == k_echo_type) {
        auto it = m_messages.find(p->ses.message_id);
        if (it != m_messages.end()) {
            message& m = it->second;
            m.echoed += p->pds.rcvd_bytes;
            if (m.echoed == m.bytes) {
                const uint64_t id = m.id;
                m_messages.erase(it);
                m_dma.message_complete(id);
            }
        }
        m_pool.release(p);
        return;
    }
    // Data: to the host, held in the receive pool until the write is across the lanes; its
    // echo leaves after the turnaround.
    port.rx_hold_until(
        m_dma.write_payload(p->src_node, p->ses.message_id, p->ses.offset, p->payload_bytes));
    packet* e = m_pool.acquire();
    e->kind = packet_kind::raw_data;
    e->src_node = uint16_t(m_host);
    e->dst_node = p->src_node;
    e->payload_bytes = 0;
    e->wire_bytes = wire_size(packet_kind::raw_data, 0);
    e->ip.src = m_ip;
    e->ip.dst = p->ip.src;
    e->ip.dscp = dscp::make(1, dscp::role::no_trim);  // the port's control class
    e->pds.type = k_echo_type;
    e->pds.rcvd_bytes = p->payload_bytes;
    e->ses.message_id = p->ses.message_id;
    e->ses.offset = p->ses.offset;
    e->ses.message_bytes = p->ses.message_bytes;
    m_pool.release(p);
    port.send_control_at(e, sim_now_ps() + ps_from_seconds(m_cfg.turnaround_s));
}

}  // namespace uetsim::test
