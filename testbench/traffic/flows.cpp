#include "testbench/traffic/flows.h"

#include <algorithm>

#include "hw/kernel/activity.h"
#include "hw/common/random.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/traffic/flow_host.h"
#include "testbench/elab/topology.h"
#include "tlm/header_sizes.h"

namespace uetsim {

flows::flows(const sc_core::sc_module_name& name, const scenario& sc, packet_pool& pool)
    : sc_core::sc_module(name), m_pool(pool)
{
    random_stream rng(sc.simulation.random_seed, "flows.entropy");
    // Each sender's MSS: its NIC type's (Nic[glob].Type), the one type's on most fabrics.
    uint32_t hosts = 0;
    for (const auto& spec : sc.flows.messages) hosts = std::max(hosts, spec.src + 1);
    const std::vector<uint32_t> mss = host_data_mss(sc, hosts);
    for (const auto& spec : sc.flows.messages) {
        flow_message m;
        m.spec = spec;
        m.id = uint32_t(m_msgs.size());
        // One draw per message whether used or not, so adding an explicit value to one message
        // does not change the values drawn for the others.
        const auto drawn = uint16_t(rng.below(65536));
        m.entropy_base = spec.entropy >= 0 ? uint16_t(spec.entropy) : drawn;
        m.mss = mss[spec.src];
        m.packets_total = uint32_t(wire::packets_for(spec.bytes, m.mss));
        m.received.assign(m.packets_total, false);
        m_msgs.push_back(std::move(m));
    }
    m_start_order.resize(m_msgs.size());
    for (uint32_t i = 0; i < m_start_order.size(); ++i) m_start_order[i] = i;
    std::stable_sort(m_start_order.begin(), m_start_order.end(), [&](uint32_t a, uint32_t b) {
        return m_msgs[a].spec.start_s < m_msgs[b].spec.start_s;
    });
    m_due.notify_at_ps(0);
    // Deferrable sends only: a run without them schedules nothing more.
    for (const flow_message& m : m_msgs)
        if (m.spec.recv_posted_s >= 0) m_receive_order.push_back(m.id);
    std::stable_sort(m_receive_order.begin(), m_receive_order.end(), [&](uint32_t a, uint32_t b) {
        return m_msgs[a].spec.recv_posted_s < m_msgs[b].spec.recv_posted_s;
    });
    if (!m_receive_order.empty())
        m_receive_due.notify_at_ps(seconds(m_msgs[m_receive_order[0]].spec.recv_posted_s).value());
}

void flows::receives_due()
{
    activity::tick();
    while (m_next_receive < m_receive_order.size()) {
        const flow_message& m = m_msgs[m_receive_order[m_next_receive]];
        const sc_core::sc_time at = seconds(m.spec.recv_posted_s);
        if (at > sim_now()) {
            m_receive_due.notify_at_ps(at.value());
            return;
        }
        if (m_post_receive) m_post_receive(m);
        ++m_next_receive;
    }
}

void flows::start_due()
{
    activity::tick();
    while (m_next_start < m_start_order.size()) {
        const flow_message& m = m_msgs[m_start_order[m_next_start]];
        const sc_core::sc_time at = seconds(m.spec.start_s);
        if (at > sim_now()) {
            m_due.notify_at_ps(at.value());
            return;
        }
        if (m_post)
            m_post(m);
        else
            m_hosts[m.spec.src]->activate(m.id);
        ++m_next_start;
    }
}

packet* flows::next_packet(uint32_t id, bool& more)
{
    flow_message& m = m_msgs[id];
    if (m.packets_sent >= m.packets_total) {
        more = false;
        return nullptr;
    }
    const uint32_t seq = m.packets_sent++;
    more = m.packets_sent < m.packets_total;
    const uint64_t offset = uint64_t(seq) * m.mss;
    const uint32_t payload =
        uint32_t(std::min<uint64_t>(m.mss, m.spec.bytes - std::min(m.spec.bytes, offset)));

    packet* p = m_pool.acquire();
    p->kind = packet_kind::raw_data;
    p->src_node = uint16_t(m.spec.src);
    p->dst_node = uint16_t(m.spec.dst);
    p->payload_bytes = payload;
    p->wire_bytes = wire_size(packet_kind::raw_data, payload);
    p->ip.src = host_ip(m.spec.src);
    p->ip.dst = host_ip(m.spec.dst);
    p->ip.dscp = dscp::make(m.spec.traffic_class, dscp::role::trimmable);
    p->ip.ecn = ecn::ect1;
    p->udp.src_port = uint16_t(m.entropy_base + seq % m.spec.entropy_values);
    p->udp.dst_port = wire::uet_udp_port;
    p->pds.psn = seq;
    p->ses.message_id = id;
    p->ses.offset = offset;
    p->ses.message_bytes = m.spec.bytes;
    p->ses.last = !more;
    p->flow_id = id;
    ++m_sent;
    return p;
}

void flows::deliver(packet& p)
{
    if (__builtin_expect(p.kind == packet_kind::pfc, 0)) {
        m_pool.release(&p);  // a raw host port neither honours nor sends PFC
        return;
    }
    flow_message& m = m_msgs[p.flow_id];
    if (p.trimmed) {
        ++m.trimmed_arrivals;  // a NIC-less receiver cannot ask for the payload again
    } else {
        receive_payload(m, p.ses.offset, p.payload_bytes);
        // A NIC-less message completes when its last byte arrives, at its receiver.
        if (!m.done() && m.packets_received == m.packets_total) {
            m.sender_done = true;
            complete(m, to_seconds(sim_now()));
            finish_if_done(m);
        }
    }
    m_pool.release(&p);
}

void flows::written(uint64_t message, uint64_t offset, uint32_t bytes)
{
    flow_message& m = m_msgs[size_t(message)];
    receive_payload(m, offset, bytes);
    // UUD: done at send, finished when its last packet is in.
    if (__builtin_expect(m.spec.mode == delivery_mode::uud, 0) && m.done() &&
        m.packets_received == m.packets_total)
        finish_if_done(m);
}

void flows::completed(uint64_t message, double time_s)
{
    flow_message& m = m_msgs[size_t(message)];
    if (m.sender_done) return;
    m.sender_done = true;
    if (m.spec.completion_at == completion_point::initiator) complete(m, time_s);
    finish_if_done(m);
}

void flows::received(uint64_t message, double time_s)
{
    flow_message& m = m_msgs[size_t(message)];
    if (m.spec.completion_at != completion_point::target || m.done()) return;
    complete(m, time_s);
    finish_if_done(m);
}

void flows::finish_if_done(const flow_message& m)
{
    if (!m.finished()) return;
    ++m_finished;
    if (m_finished == m_msgs.size() && m_all_done) m_all_done();
}

void flows::receive_payload(flow_message& m, uint64_t offset, uint32_t bytes)
{
    // Scoreboard: each packet's bytes must reach the destination exactly once.
    const uint32_t seq = uint32_t(offset / m.mss);
    if (seq >= m.received.size() || m.received[seq]) {
        ++m.duplicates;
        return;
    }
    m.received[seq] = true;
    ++m.packets_received;
    m.bytes_received += bytes;
}

void flows::complete(flow_message& m, double now)
{
    m.finish_s = now;
    ++m_completed;
    if (m_perf)
        m_perf->write({utc_after(m_epoch, now), now, m.id, m.spec.src, m.spec.dst, m.spec.bytes,
                       m.packets_total, m.spec.start_s, now});
    if (m_transactions)
        m_transactions->write({m_job, utc_after(m_epoch, now), now, "Flow",
                               (now - m.spec.start_s) * 1e6, m.spec.src, m.id, m.spec.start_s,
                               m.spec.bytes, "Flow-" + std::to_string(m.id)});
}

flows::unreliable_losses flows::losses_report() const
{
    unreliable_losses l;
    for (const auto& m : m_msgs) {
        if (!m.unreliable_loss()) continue;
        const uint64_t lost = m.packets_total - m.packets_received;
        ++l.messages;
        l.packets += lost;
        l.report += fmt::format(
            "message {} ({} -> {}): UUD, {} of {} packets lost, {} of {} bytes arrived (no "
            "acknowledgement, not sent again)\n",
            m.id, m.spec.src, m.spec.dst, lost, m.packets_total, m.bytes_received, m.spec.bytes);
    }
    return l;
}

std::string flows::scoreboard_report() const
{
    std::string r;
    for (const auto& m : m_msgs) {
        if (m.unreliable_loss()) {
            // Reported by losses_report: not a fault. A byte written twice still is.
        } else if (m.sender_done && !m.done())
            r += fmt::format(
                "message {} ({} -> {}): acknowledged, but no receive completion "
                "landed\n",
                m.id, m.spec.src, m.spec.dst);
        else if (!m.done())
            r += fmt::format(
                "message {} ({} -> {}): {} of {} bytes arrived{}\n", m.id, m.spec.src, m.spec.dst,
                m.bytes_received, m.spec.bytes,
                m.trimmed_arrivals ? fmt::format(", {} trimmed", m.trimmed_arrivals) : "");
        else if (m.bytes_received != m.spec.bytes)
            r += fmt::format("message {}: {} bytes arrived, expected {}\n", m.id, m.bytes_received,
                             m.spec.bytes);
        if (m.duplicates)
            r += fmt::format("message {}: {} packets written twice\n", m.id, m.duplicates);
        if (m.done() && m.packets_received != m.packets_total && !m.unreliable_loss())
            r += fmt::format("message {}: completed with {} of {} packets written\n", m.id,
                             m.packets_received, m.packets_total);
    }
    return r;
}

}  // namespace uetsim
