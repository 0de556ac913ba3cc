// The UET NIC's RUDI and UUD delivery modes (docs/delivery-modes.md): requests the target
// places without a PDC, RUDI's per-packet RUDI_RESP, and UUD's completion at send.
#include "hw/nic/uet/uet_nic.h"

#include "tlm/header_sizes.h"

namespace uetsim {

void uet_nic::on_request_without_pdc(packet* p)
{
    const bool rudi = p->pds.type == pds_type::rudi_request;
    if (m_monitor) monitor(*p, uet_monitor_row::dir::rx);
    if (p->trimmed) {
        // RUDI: a NACK names the packet id, the sender sends it again. UUD: the
        // payload is lost; the message stays incomplete.
        if (rudi) {
            packet* n = make_control(packet_kind::uet_nack, p->src_node, p->ip.src);
            n->pds.psn = p->pds.psn;
            n->pds.dpdcid = p->pds.spdcid;
            n->pds.nack_code = dscp::role_of(p->ip.dscp) == dscp::role::trimmed_last_hop ? 2 : 1;
            n->pds.first_psn = p->pds.first_psn;
            n->pds.ecn_echo = p->ip.ecn == ecn::ce;
            n->udp.src_port = p->udp.src_port;
            ++m_counters.nack_pkts_sent;
            ++m_counters.total_pkts_sent;
            if (m_monitor) monitor(*n, uet_monitor_row::dir::tx);
            port.send_control_at(n, build_ack());
        }
        m_pool.release(p);
        return;
    }
    const ses_message_tracker::arrival a = m_ses_rx.on_packet(
        p->src_node, p->ses.message_id, p->ses.offset, p->ses.message_bytes, m_cfg.rdma_data_mss);
    if (a == ses_message_tracker::arrival::duplicate) {
        // A RUDI retransmission of a packet already placed (its RUDI_RESP was lost or late):
        // the bytes are there, it is answered again and not placed twice.
        ++m_counters.num_dup_events_on_nic;
        port.rx_hold_until(now_ps());
    } else {
        m_counters.rx_bytes_delivered += p->payload_bytes;
        port.rx_hold_until(
            m_dma.write_payload(p->src_node, p->ses.message_id, p->ses.offset, p->payload_bytes));
        if (a == ses_message_tracker::arrival::completes)
            m_dma.message_received(p->src_node, p->ses.message_id, p->ses.message_bytes);
    }
    if (rudi) {
        // RUDI_RESP: the packet id back, the ECN mark echoed (NSCC's signal), at once: it
        // carries no service time for the sender to subtract.
        packet* r = make_control(packet_kind::uet_ack, p->src_node, p->ip.src);
        r->wire_bytes = wire::uet_rudi_resp_bytes;
        r->pds.type = pds_type::rudi_response;
        r->pds.psn = p->pds.psn;
        r->pds.ack_psn = p->pds.psn;
        r->pds.dpdcid = p->pds.spdcid;
        r->pds.first_psn = p->pds.first_psn;
        r->pds.ecn_echo = p->ip.ecn == ecn::ce;
        r->pds.retransmit = p->pds.retransmit;
        r->ses.message_id = p->ses.message_id;
        r->udp.src_port = p->udp.src_port;  // the entropy value goes back as path feedback
        if (r->pds.ecn_echo) ++m_counters.m_marked_pkts_sent;
        ++m_counters.ack_pkts_sent;
        ++m_counters.total_pkts_sent;
        port.send_control_at(r, build_ack());
    }
    m_pool.release(p);
}

void uet_nic::uud_sent(sender_pdc& pdc, uint32_t psn)
{
    pdc_group& g = m_pdcs.group(pdc.group);
    uet_message& m = m_messages[pdc.message];
    m_retired.clear();
    pdc.st.on_ack(pdc.st.oldest_unacked() - 1, psn, 1, m_retired);
    for (sent_packet* s : m_retired) {
        g.fetched_unacked -= s->nominal;
        if (s->in_flight) g.inflight -= s->nominal, s->in_flight = false;
        m.bytes_acked += s->payload;
    }
    if (m_state) m_state->outstanding.add(now_ps(), -int(m_retired.size()));
    pdc.st.release_retired();
    if (!m.done && m.bytes_acked >= m.bytes && m.packets_issued == m.packets && pdc.st.idle()) {
        complete_message(pdc, m, false);  // the initiator's: its last packet has left
    } else if (pds().has_work(g)) {
        pds().enqueue(pdc.group, true);
    }
    kick_scheduler();
}

}  // namespace uetsim
