// The PDC close handshake of the UET NIC (docs/pdc-lifecycle.md), on with
// UetNic.PdcIdleCloseTimeout above 0. The initiator closes a PDC whose packets are all
// acknowledged: a Flows message's PDC when its message completes, a queue pair's after the idle
// time with no new message, or at once when its target asked (CLOSE_REQ). Closing takes the PDC
// out of its group and its queue pair at once (a new message opens a new PDC) and sends CLOSE_CMD,
// again after each retransmission timeout, until the target's ACK of it frees the PDC id. The
// target frees its receiving end and its SACK slot on CLOSE_CMD and acknowledges every copy. A
// target out of receiving ends NACKs a new PDC's packet NO_PDC_AVAIL (the sender's retransmission
// timer retries it) and asks the initiator of an idle end to close it; a packet without SYN
// information for an end already freed draws INV_DPDCID.
#include <algorithm>

#include "hw/kernel/activity.h"
#include "hw/nic/uet/retransmit_timeout.h"
#include "hw/nic/uet/uet_nic.h"
#include "tlm/nack_codes.h"

namespace uetsim {

// ---------------------------------------------------------------------------------------------
// Sending end

void uet_nic::message_done_on(sender_pdc& pdc)
{
    if (!pdc.kept_open || pdc.close_requested) {
        begin_close(pdc);  // the host's close of a Flows message's PDC, or the target's request
        return;
    }
    arm_close(now_ps() + uint64_t(m_cfg.pdc_idle_close_timeout_s * 1e12),
              {pdc.id, pdc.first_psn, pdc.close_gen, 0});
}

void uet_nic::begin_close(sender_pdc& pdc)
{
    const uint32_t gi = pdc.group;
    ++pdc.close_gen;  // its idle timer, if any, is stale
    if (m_pdcs.close(pdc, m_rx_pdcs.open_from(pdc.dst) > 0, true))
        m_lb->close(m_pdcs.group(gi).lb_slot);  // the group died with it
    if (m_state) --m_state->open_tx_pdcs;
    pdc.closing = true;
    pdc.close_psn = pdc.st.next_psn();
    pdc.close_tx = 0;
    send_close_command(pdc);
}

void uet_nic::send_close_command(sender_pdc& pdc)
{
    packet* c = make_control(packet_kind::uet_control, pdc.dst, pdc.dst_ip);
    c->pds.ctl_type = pds_ctl::close_command;
    c->pds.ack_request = true;
    c->pds.retransmit = pdc.close_tx > 0;
    c->pds.psn = pdc.close_psn;
    c->pds.spdcid = pdc.id;
    c->pds.dpdcid = pdc.remote_id;
    c->pds.first_psn = pdc.first_psn;
    c->udp.src_port = pdc.id;
    ++pdc.close_tx;
    ++m_counters.close_cmd_pkts_sent;
    ++m_counters.total_pkts_sent;
    if (m_events) event(uet_event::type::close_cmd_sent, pdc);
    port.push_control(c);
    // Retried like a data packet, from when it is queued: InitialRetransmitTimeout, doubled
    // with each retransmission up to the back-off cap.
    arm_close(now_ps() + uint64_t(retransmit_timeout_s(m_cfg, pdc.close_tx) * 1e12),
              {pdc.id, pdc.first_psn, pdc.close_gen, pdc.close_tx});
}

void uet_nic::close_acked(const packet& p)
{
    sender_pdc* c = m_pdcs.find(p.pds.dpdcid);
    if (!c || !c->closing || c->dst != p.src_node || c->first_psn != p.pds.first_psn ||
        p.pds.ack_psn != c->close_psn)
        return;  // a late ACK of data, or of a close already done
    c->closing = false;
    m_pdcs.free_id(*c);
    ++m_counters.pdcs_closed;
    if (m_events) event(uet_event::type::pdc_terminated, *c);
}

void uet_nic::on_close_request(const packet& p)
{
    ++m_counters.close_req_pkts_rcvd;
    sender_pdc* live = m_pdcs.live(p.pds.dpdcid, p.src_node, p.pds.first_psn);
    if (m_events)
        lifecycle_event(uet_event::type::close_req_rcvd, p.pds.dpdcid, p.ip.src, p.pds.spdcid);
    if (!live) return;  // closing or closed already
    const uet_message& m = m_messages[live->message];
    if (live->kept_open && m.done && live->st.idle()) {
        m_messages.release(live->message);
        begin_close(*live);
    } else {
        live->close_requested = true;  // closes when its message completes
    }
}

void uet_nic::arm_close(uint64_t at_ps, const close_timer& t)
{
    m_close_timers.emplace(at_ps, t);
    m_close_wake.notify_at_ps(m_close_timers.begin()->first);
}

void uet_nic::on_close_timer()
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    activity::tick();
    const uint64_t now = now_ps();
    while (!m_close_timers.empty() && m_close_timers.begin()->first <= now) {
        const close_timer t = m_close_timers.begin()->second;
        m_close_timers.erase(m_close_timers.begin());
        sender_pdc* p = m_pdcs.find(t.pdc);
        if (!p || p->first_psn != t.first_psn || p->close_gen != t.gen) continue;
        if (t.close_tx == 0) {
            // Idle: every packet acknowledged and no message since the timer was armed.
            if (p->open && !p->closing && m_messages[p->message].done && p->st.idle()) {
                m_messages.release(p->message);
                begin_close(*p);
            }
        } else if (p->closing && p->close_tx == t.close_tx) {
            send_close_command(*p);  // neither the command nor its ACK arrived in time
        }
    }
    if (!m_close_timers.empty()) m_close_wake.notify_at_ps(m_close_timers.begin()->first);
    if (m_probe) m_probe->changed();
}

// ---------------------------------------------------------------------------------------------
// Receiving end

void uet_nic::on_close_command(const packet& p)
{
    ++m_counters.close_cmd_pkts_rcvd;
    const std::unique_ptr<receiver_pdc> rp =
        m_rx_pdcs.close(p.src_node, p.pds.spdcid, p.pds.first_psn);
    const uint16_t local = rp ? rp->id : p.pds.dpdcid;
    if (m_events) {
        lifecycle_event(uet_event::type::close_cmd_rcvd, local, p.ip.src, p.pds.spdcid);
        if (rp) lifecycle_event(uet_event::type::pdc_terminated, local, p.ip.src, p.pds.spdcid);
    }
    if (rp) ++m_counters.rx_pdcs_closed;
    // Every copy is acknowledged, at once (not held): the first ACK may have been lost.
    packet* a = make_control(packet_kind::uet_ack, p.src_node, p.ip.src);
    a->pds.spdcid = local;
    a->pds.dpdcid = p.pds.spdcid;
    a->pds.psn = p.pds.psn;
    a->pds.ack_psn = p.pds.psn;
    a->pds.cack_psn = p.pds.psn;
    a->pds.sack_base = p.pds.psn + 1;
    a->pds.first_psn = p.pds.first_psn;
    a->pds.retransmit = p.pds.retransmit;
    a->pds.ecn_echo = p.ip.ecn == ecn::ce;
    a->udp.src_port = p.udp.src_port;
    if (a->pds.ecn_echo) ++m_counters.m_marked_pkts_sent;
    ++m_counters.ack_pkts_sent;
    ++m_counters.total_pkts_sent;
    port.send_control_at(a, build_ack());
}

void uet_nic::nack_without_end(const packet& p, rx_end why)
{
    const uint8_t code = why == rx_end::no_context ? nack::no_pdc_avail : nack::inv_dpdcid;
    packet* n = make_control(packet_kind::uet_nack, p.src_node, p.ip.src);
    n->pds.psn = p.pds.psn;
    n->pds.spdcid = p.pds.dpdcid;  // no end of its own: the id the packet named (0 on a SYN)
    n->pds.dpdcid = p.pds.spdcid;
    n->pds.nack_code = code;
    n->pds.first_psn = p.pds.first_psn;
    n->pds.ecn_echo = p.ip.ecn == ecn::ce;
    n->udp.src_port = p.udp.src_port;
    ++m_counters.nack_pkts_sent;
    ++m_counters.total_pkts_sent;
    if (m_monitor) monitor(*n, uet_monitor_row::dir::tx);
    if (m_events)
        lifecycle_event(code == nack::no_pdc_avail ? uet_event::type::nack_no_pdc_avail_sent
                                                   : uet_event::type::nack_inv_dpdcid_sent,
                        p.pds.dpdcid, p.ip.src, p.pds.spdcid);
    port.send_control_at(n, build_ack());
    if (code != nack::no_pdc_avail) return;
    // Ask the initiator of an end with no message in progress to close it, once per end.
    if (receiver_pdc* idle = m_rx_pdcs.idle_end_to_close()) {
        packet* r = make_control(packet_kind::uet_control, idle->src_host, idle->src_ip);
        r->pds.ctl_type = pds_ctl::close_request;
        r->pds.spdcid = idle->id;
        r->pds.dpdcid = idle->sender_id;
        r->pds.first_psn = idle->first_psn;
        r->udp.src_port = idle->id;
        ++m_counters.close_req_pkts_sent;
        ++m_counters.total_pkts_sent;
        if (m_events)
            lifecycle_event(uet_event::type::close_req_sent, idle->id, idle->src_ip,
                            idle->sender_id);
        port.send_control_at(r, build_ack());  // through AckBuild, behind the NACK
    }
}

void uet_nic::lifecycle_nack_received(const packet& p, sender_pdc* live)
{
    // NO_PDC_AVAIL: the packet stays in flight and its retransmission timer is the back-off
    // (the target frees ends as their PDCs close). INV_DPDCID names a PDC this NIC closed: a
    // late copy's answer, nothing to do.
    if (m_events)
        lifecycle_event(p.pds.nack_code == nack::no_pdc_avail
                            ? uet_event::type::nack_no_pdc_avail_rcvd
                            : uet_event::type::nack_inv_dpdcid_rcvd,
                        live ? live->id : p.pds.dpdcid, p.ip.src, p.pds.spdcid);
}

void uet_nic::lifecycle_event(uet_event::type t, uint16_t local, uint32_t remote_ip,
                              uint16_t remote)
{
    uet_event e;
    e.sim_time_ps = now_ps();
    e.fep_id = m_node_id;
    e.local_ip = m_ip;
    e.local_pdc = local;
    e.remote_ip = remote_ip;
    e.remote_pdc = remote;
    e.ev = t;
    m_events->event(e);
}

}  // namespace uetsim
