// roce_nic's receiving side (roce_nic.h): data, acknowledgements and CNPs as they arrive, the
// ACKs and NAKs a receiving end sends, and the release of Flows receiving ends.
#include "hw/kernel/activity.h"
#include "hw/kernel/time.h"
#include "hw/nic/roce/roce_nic.h"
#include "hw/nic/roce/roce_opcodes.h"
#include "tlm/header_sizes.h"

namespace uetsim {

void roce_nic::on_receive(packet* p)
{
    if (p->trimmed) {  // the RoCE NIC sends nothing trimmable: lost as on the wire
        m_pool.release(p);
        return;
    }
    switch (p->kind) {
        case packet_kind::roce_data:
            on_data(p);
            break;
        case packet_kind::roce_ack:
            on_acknowledge(p);
            break;
        case packet_kind::roce_cnp:
            on_cnp(p);
            break;
        default:
            m_pool.release(p);
            break;
    }
    if (m_probe) m_probe->changed();
}

packet* roce_nic::make_control(packet_kind kind, uint32_t dst_host, uint32_t dst_ip, uint32_t qpn,
                               uint16_t udp_src_port, uint8_t cls)
{
    packet* c = m_pool.acquire();
    c->kind = kind;
    c->src_node = uint16_t(m_host);
    c->dst_node = uint16_t(dst_host);
    c->wire_bytes = wire_size(kind, 0);
    c->ip.src = m_ip;
    c->ip.dst = dst_ip;
    c->ip.dscp = dscp::make(cls, dscp::role::no_trim);
    c->ip.ecn = ecn::not_ect;  // switches never mark acknowledgements or CNPs
    c->udp.src_port = udp_src_port;
    c->udp.dst_port = wire::roce_udp_port;
    c->bth.dest_qp = qpn;
    c->flow_id = qpn;
    return c;
}

void roce_nic::send_ack(const responder& r, bool nak)
{
    packet* a = make_control(packet_kind::roce_ack, r.src_host, r.src_ip, r.qpn, r.udp_src_port,
                             m_cfg.control_traffic_class);
    a->bth.opcode = ib::rc_acknowledge;
    a->bth.psn = nak ? r.rsp.expected_psn() : r.rsp.ack_psn();
    a->bth.aeth_syndrome = nak ? ib::aeth_nak_psn_sequence_error : ib::aeth_ack_no_credit;
    a->bth.msn = r.rsp.msn();
    if (nak)
        ++m_counters.nacks_sent;
    else
        ++m_counters.acks_sent;
    ++m_counters.non_verb_pkts_sent;
    ++m_counters.pkts_sent;
    port.push_control(a);  // built at once: RoCE has no service-time hold
}

void roce_nic::on_data(packet* p)
{
    if (roce::is_send(p->bth.opcode))
        ++m_counters.sends_recvd;
    else
        ++m_counters.writes_recvd;
    const uint64_t key = responder_key(p->src_node, p->bth.dest_qp);
    auto it = m_responders.find(key);
    if (it == m_responders.end()) {
        // The receiving side is created by the queue pair's first packet.
        auto r = std::make_unique<responder>(
            initial_psn(m_seed, p->bth.dest_qp, p->src_node, m_host), m_ack_policy);
        r->src_host = p->src_node;
        r->src_ip = p->ip.src;
        r->qpn = p->bth.dest_qp;
        r->udp_src_port = udp_source_port(p->bth.dest_qp, p->src_node, m_host);
        it = m_responders.emplace(key, std::move(r)).first;
    }
    responder& r = *it->second;
    if (p->ip.ecn == ecn::ce) {
        // A CNP to the sending queue pair through the PFC queue, on its control class.
        packet* c = make_control(packet_kind::roce_cnp, r.src_host, r.src_ip, r.qpn, r.udp_src_port,
                                 m_cfg.control_traffic_class);
        c->bth.opcode = ib::cnp;
        ++m_counters.cnp_sent;
        ++m_counters.non_verb_pkts_sent;
        ++m_counters.pkts_sent;
        port.push_urgent(c);
    }
    const roce_responder::verdict v = r.rsp.on_data(p->bth.psn, p->bth.solicited, now_ps());
    switch (v.what) {
        case roce_responder::arrival::in_order:
            m_counters.rx_bytes_delivered += p->payload_bytes;
            // Data stays charged to the receive pool until its write is across to the host.
            port.rx_hold_until(m_dma.write_payload(p->src_node, p->ses.message_id, p->ses.offset,
                                                   p->payload_bytes));
            // In order: the message's last packet places its last byte.
            if (p->ses.last)
                m_dma.message_received(p->src_node, p->ses.message_id, p->ses.message_bytes);
            break;
        case roce_responder::arrival::duplicate:
            ++m_counters.duplicate;
            break;
        case roce_responder::arrival::gap:
            ++m_counters.seq_out_of_order;
            ++m_counters.rx_drops_after_nak;
            break;
        case roce_responder::arrival::after_nak:
            ++m_counters.rx_drops_after_nak;
            break;
    }
    if (v.nak) send_ack(r, true);
    if (v.ack) send_ack(r, false);
    if (v.timer_armed) arm({r.rsp.ack_deadline_ps(), key, 0, timer_kind::ack_delay});
    // A Flows queue pair carries one message: its last packet in order closes it.
    if (__builtin_expect(v.what == roce_responder::arrival::in_order && p->bth.solicited &&
                             (r.qpn & k_roce_flows_qp_base),
                         0))
        close_responder(key);
    m_pool.release(p);
}

void roce_nic::close_responder(uint64_t key)
{
    // Kept for two transport timeouts, answering late duplicates as before: a frame of the
    // queue pair older than that is taken to be gone from the fabric (TCP's TIME_WAIT of two
    // maximum segment lifetimes). Released lazily here, by the closes that follow.
    const uint64_t now = now_ps();
    while (!m_closed.empty() && m_closed.front().release_ps <= now) {
        const uint64_t k = m_closed.front().key;
        m_closed.pop_front();
        auto it = m_responders.find(k);
        if (it == m_responders.end()) continue;
        const roce_responder& rsp = it->second->rsp;
        if (rsp.held() == 0 && !rsp.nak_outstanding() && !rsp.ack_timer_running())
            m_responders.erase(it);
        else
            m_closed.push_back({k, now + 2 * m_rto_ps});  // still acknowledging: later
    }
    m_closed.push_back({key, now + 2 * m_rto_ps});
}

void roce_nic::on_acknowledge(packet* p)
{
    const bool nak = roce::is_nak(p->bth.aeth_syndrome);
    if (nak)
        ++m_counters.nacks_recvd;
    else
        ++m_counters.acks_recvd;
    queue_pair* qp = find_qp(p->bth.dest_qp);
    if (!qp || qp->dst_host != p->src_node) {
        ++m_counters.rx_drops_no_qp_ctrl;
        m_pool.release(p);
        return;
    }
    const uint32_t psn = p->bth.psn;
    m_pool.release(p);
    if (nak) {
        const roce_requester::nak_result r = qp->req.on_nak(psn);
        if (r.ghost) ++m_counters.rx_drops_ghost_ack;
        if (r.ghost || r.stale) return;
        // Go-back-N: everything below the named PSN retired, the rest fetched again.
        rewind_done(*qp, r.discarded);
        return;
    }
    const uint64_t sent = qp->req.sent_at(psn);
    const roce_requester::ack_result r = qp->req.on_ack(psn);
    if (r.ghost) {
        ++m_counters.rx_drops_ghost_ack;
        return;
    }
    if (!r.retired) return;
    if (sent) m_counters.calc_rtt_usec.add(double(now_ps() - sent) * 1e-6);
    if (r.message_done) {
        complete(*qp);
    } else if (qp->req.window_empty()) {
        stop_transport_timer(*qp);
    } else {
        start_transport_timer(*qp);  // an ACK that retires PSNs restarts it
    }
}

void roce_nic::on_cnp(packet* p)
{
    ++m_counters.cnp_recvd;
    queue_pair* qp = find_qp(p->bth.dest_qp);
    const bool known = qp && qp->dst_host == p->src_node;
    m_pool.release(p);
    if (!known) {
        ++m_counters.rx_drops_no_qp_ctrl;
        return;
    }
    if (!m_cfg.ecn.enable_ecn) return;  // CNPs ignored: line rate always
    if (qp->rate.on_cnp())
        arm({now_ps() + qp->rate.half_interval_ps(), qp->qpn, ++qp->loop_gen,
             timer_kind::rate_loop});
}

}  // namespace uetsim
