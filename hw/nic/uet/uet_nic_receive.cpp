// The UET NIC's receive side (data, ACKs, NACKs, probes, the ACK policy) and its
// retransmission timers; the host side and the transmit path are in uet_nic.cpp.
#include "hw/nic/uet/uet_nic.h"

#include <algorithm>

#include "hw/kernel/activity.h"
#include "hw/kernel/time.h"
#include "hw/nic/common/host_commands.h"
#include "hw/nic/uet/psn.h"
#include "tlm/nack_codes.h"
#include "tlm/header_sizes.h"

namespace uetsim {

// ---------------------------------------------------------------------------------------------
// Receive side

uint64_t uet_nic::build_ack()
{
    const uint64_t now = now_ps();
    const stage_pass a = m_ack_build.enter(m_ack_build.room_at(now));
    m_ack_build.leave(a, a.done);
    return a.done;
}

void uet_nic::on_receive(packet* p)
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    switch (p->kind) {
        case packet_kind::uet_data:
            on_data(p);
            break;
        case packet_kind::uet_probe:
            if (p->pds.ack_request)
                on_probe(p);  // a probe asks; its answer does not
            else
                on_ack(p);
            break;
        case packet_kind::uet_ack:
            on_ack(p);
            break;
        case packet_kind::uet_nack:
            on_nack(p);
            break;
        case packet_kind::uet_control:
            on_control(p);
            break;
        default:
            m_pool.release(p);
            break;
    }
    if (m_probe) m_probe->changed();
}

void uet_nic::on_data(packet* p)
{
    ++m_counters.write_pkts_rcvd;
    ++m_counters.total_pkts_rcvd;
    // A request for a job this NIC does not serve is dropped before any PDC state (a trimmed
    // packet has no SES header left to check).
    if (__builtin_expect(!m_jobs.open(), 0) && !p->trimmed && !m_jobs.serves(p->ses.job_id)) {
        ++m_unknown_job_drops;
        m_pool.release(p);
        return;
    }
    // RCCC: the sender's credit target, in its req_cc_state even when trimmed.
    if (__builtin_expect(p->pds.cc_type == pds_cc::credit, 0)) credit_target_seen(*p);
    // RUDI and UUD requests find no PDC here.
    if (__builtin_expect(wire::pds_request_saving(p->pds.type) != 0, 0)) {
        on_request_without_pdc(p);
        return;
    }
    rx_end how = rx_end::found;
    receiver_pdc* found =
        m_rx_pdcs.on_data(p->src_node, p->pds.spdcid, p->pds.first_psn, p->pds.syn, &how);
    if (how == rx_end::no_context && !close_handshake())
        out_of_contexts("UetNic.SackContexts", m_sack->contexts(), "receiving PDC");
    // The row names the receiving end by its own id (the first packets carry 0 until the
    // sender learns it from an ACK).
    if (m_monitor)
        monitor(*p, uet_monitor_row::dir::rx, nullptr, nullptr, -1, found ? found->id : 0);
    if (__builtin_expect(how == rx_end::no_context || how == rx_end::unknown, 0)) {
        nack_without_end(*p, how);  // only with the close handshake
        m_pool.release(p);
        return;
    }
    if (!found) {
        // A late copy from an earlier PDC whose sender id is reused now.
        ++m_counters.num_dup_events_on_nic;
        m_pool.release(p);
        return;
    }
    receiver_pdc& rp = *found;
    if (m_state)
        m_state->open_rx_pdcs_max = std::max(m_state->open_rx_pdcs_max, uint32_t(m_rx_pdcs.size()));
    if (how == rx_end::opened) rp.src_ip = p->ip.src;
    if (m_events && how == rx_end::opened) event(uet_event::type::pdc_created, rp, *p);

    if (p->trimmed) {
        // NACK at once, not held; nothing delivered, nothing recorded for SACK, no ACK.
        packet* n = make_control(packet_kind::uet_nack, p->src_node, p->ip.src);
        n->pds.psn = p->pds.psn;
        n->pds.spdcid = rp.id;
        n->pds.dpdcid = p->pds.spdcid;
        n->pds.nack_code = dscp::role_of(p->ip.dscp) == dscp::role::trimmed_last_hop ? 2 : 1;
        n->pds.first_psn = rp.first_psn;
        n->pds.ecn_echo = p->ip.ecn == ecn::ce;
        n->udp.src_port = p->udp.src_port;
        ++m_counters.nack_pkts_sent;
        ++m_counters.total_pkts_sent;
        if (m_monitor) monitor(*n, uet_monitor_row::dir::tx);
        m_pool.release(p);
        port.send_control_at(n, build_ack());  // not behind held ACKs
        return;
    }

    // ROD delivers in order only: a packet past a gap is dropped before the SACK tracker.
    if (__builtin_expect(p->pds.type == pds_type::rod_request, 0) && !rod_accept(rp, p)) return;

    // The SACK tracker's answer: the order of this PSN and the cumulative ACK after it.
    const sack_arrival sa = m_sack->on_data(rp.sack_slot, p->pds.psn);
    const pdc_receiver::arrival arrival = sa.kind;
    if (arrival == pdc_receiver::arrival::out_of_order) ++m_counters.num_out_of_order_events_on_nic;
    if (arrival == pdc_receiver::arrival::duplicate) ++m_counters.num_dup_events_on_nic;
    const uint32_t held = m_sack->receiver(rp.sack_slot).out_of_order_held();
    m_counters.max_out_of_order_on_flow =
        std::max<uint64_t>(m_counters.max_out_of_order_on_flow, held);
    m_counters.ivl_max_out_of_order_on_flow =
        std::max<uint64_t>(m_counters.ivl_max_out_of_order_on_flow, held);
    if (m_events) receive_events(rp, *p, arrival == pdc_receiver::arrival::duplicate, sa.cack);
    // SES: a deferrable send whose buffer is not posted is discarded and answered as deferred;
    // an RTR restarts this NIC's deferred send.
    bool place = true, deferred = false;
    if (__builtin_expect(p->ses.opcode != 0, 0)) {
        if (p->ses.opcode == ses_op::deferrable_send) {
            if (arrival != pdc_receiver::arrival::duplicate)
                place = m_deferrable.on_packet(p->src_node, p->ses.message_id, p->ses.restart,
                                               p->ip.src, dscp::traffic_class(p->ip.dscp),
                                               p->ses.job_id);
            deferred = m_deferrable.deferred(p->src_node, p->ses.message_id, p->ses.restart);
        } else if (p->ses.opcode == ses_op::deferrable_rtr) {
            place = false;
            if (arrival != pdc_receiver::arrival::duplicate)
                rtr_arrived(p->ses.message_id & ~k_rtr_message_bit);
        }
    }

    // The ACK is held for the receiver's service time: the data-pool backlog plus this packet,
    // at the NIC side's PCIe rate (the buffers page; X20).
    const uint64_t backlog = port.rx_backlog(*p);
    const uint64_t rx_pool = port.rx_pool_bytes(*p);
    const uint64_t hold_ps =
        uint64_t(double(backlog + p->ip_bytes()) * 8e12 / m_dma.nic_to_host_bps() + 0.5);
    if (__builtin_expect(!place, 0)) {
        port.rx_hold_until(now_ps());  // nothing goes to the host
    } else if (arrival != pdc_receiver::arrival::duplicate) {
        m_counters.rx_bytes_delivered += p->payload_bytes;
        const bool was_open = rp.open();
        // The last message from the peer is in: a group kept only by it dies.
        if (m_rx_pdcs.deliver(rp, p->ses.offset, p->payload_bytes, p->ses.message_bytes))
            if (const std::optional<uint32_t> died = m_pdcs.peer_idle(p->src_node))
                m_lb->close(m_pdcs.group(*died).lb_slot);
        // Data stays charged to the receive pool until its write is across to the host.
        port.rx_hold_until(
            m_dma.write_payload(p->src_node, p->ses.message_id, p->ses.offset, p->payload_bytes));
        // A PDC carries one message at a time (the next is posted once this one is acknowledged
        // in full), so the receiving end closing is the message placed; a 0-byte message is
        // placed by its one packet.
        if ((was_open && !rp.open()) || p->ses.message_bytes == 0) {
            m_dma.message_received(p->src_node, p->ses.message_id, p->ses.message_bytes);
            if (__builtin_expect(p->ses.opcode == ses_op::deferrable_send, 0))
                m_deferrable.placed(p->src_node, p->ses.message_id);
        }
    }
    if (p->pds.ack_request) {
        packet* a = make_control(packet_kind::uet_ack, p->src_node, p->ip.src);
        a->pds.spdcid = rp.id;
        a->pds.dpdcid = p->pds.spdcid;
        a->pds.ack_psn = p->pds.psn;
        a->pds.first_psn = rp.first_psn;
        a->pds.psn = p->pds.psn;
        // CACK, SACK base and bitmap as the SACK tracker answers.
        const sack_ack_fields s = m_sack->next_ack(rp.sack_slot);
        a->pds.cack_psn = s.cack;
        a->pds.sack_base = s.sack_base;
        a->pds.sack_bitmap = s.sack_bitmap;
        a->pds.ecn_echo = p->ip.ecn == ecn::ce;
        a->pds.retransmit = p->pds.retransmit;
        a->pds.rcvd_bytes = rp.rcvd_bytes;
        a->pds.service_time = uint16_t(std::min<uint64_t>(65535, hold_ps / 128'000));
        a->pds.rcv_penalty =
            receiver_penalty(rx_pool ? 100.0 * double(backlog) / double(rx_pool) : 0.0,
                             m_cc_cfg.receiver_congestion_low_threshold,
                             m_cc_cfg.receiver_congestion_high_threshold);
        // The receiver's own flag: whether its senders restore their saved window at penalty 0.
        a->pds.restore_cwnd = m_cc_cfg.restore_cwnd_enable;
        a->pds.ooo_count = uint16_t(std::min<uint32_t>(held, 65535));  // NSCC cc_state's field
        if (__builtin_expect(p->pds.cc_type == pds_cc::credit, 0)) {
            // An RCCC sender's ACK is ACK_CC cc_type 1: its cc_state carries the credit granted
            // so far and ooo_count, not NSCC's service time, penalty and received bytes.
            a->pds.cc_type = pds_cc::credit;
            a->pds.credit = m_pacer->credit24(p->src_node);
            a->pds.service_time = 0;
            a->pds.rcv_penalty = 0;
            a->pds.restore_cwnd = false;
        }
        a->ses.deferred = deferred;
        a->udp.src_port = p->udp.src_port;  // the entropy value goes back as path feedback
        if (a->pds.ecn_echo) ++m_counters.m_marked_pkts_sent;
        ++m_counters.ack_pkts_sent;
        ++m_counters.total_pkts_sent;
        port.hold_control(a, build_ack() + hold_ps);
    }
    m_pool.release(p);
}

bool uet_nic::rod_accept(receiver_pdc& rp, packet* p)
{
    if (!rp.rod_started) {
        rp.rod_next = rp.first_psn;
        rp.rod_started = true;
    }
    const int32_t d = psn::diff(p->pds.psn, rp.rod_next);
    if (d == 0) {
        ++rp.rod_next;
        rp.rod_gap_nacked = false;
        return true;
    }
    if (d < 0) return true;  // a duplicate: the SACK tracker counts it, its ACK repeats the CACK
    ++m_counters.num_out_of_order_events_on_nic;
    if (!rp.rod_gap_nacked) {
        // ROD_OOO names the PSN expected: the sender sends everything from it again.
        rp.rod_gap_nacked = true;
        packet* n = make_control(packet_kind::uet_nack, p->src_node, p->ip.src);
        n->pds.psn = rp.rod_next;
        n->pds.spdcid = rp.id;
        n->pds.dpdcid = p->pds.spdcid;
        n->pds.nack_code = nack_rod_out_of_order;
        n->pds.first_psn = rp.first_psn;
        n->pds.ecn_echo = p->ip.ecn == ecn::ce;
        n->udp.src_port = p->udp.src_port;
        ++m_counters.nack_pkts_sent;
        ++m_counters.total_pkts_sent;
        if (m_monitor) monitor(*n, uet_monitor_row::dir::tx);
        port.send_control_at(n, build_ack());
    }
    m_pool.release(p);
    return false;
}

void uet_nic::on_probe(packet* p)
{
    if (m_monitor) monitor(*p, uet_monitor_row::dir::rx);
    packet* a = make_control(packet_kind::uet_probe, p->src_node, p->ip.src);
    a->wire_bytes = wire::uet_ack_bytes;  // the probe's answer is an ACK
    a->pds.probe = true;
    a->pds.ack_request = false;
    a->pds.dpdcid = p->pds.spdcid;
    a->pds.psn = p->pds.psn;
    a->pds.first_psn = p->pds.first_psn;
    a->pds.ecn_echo = p->ip.ecn == ecn::ce;
    if (a->pds.ecn_echo) ++m_counters.m_marked_pkts_sent;
    ++m_counters.ack_pkts_sent;
    ++m_counters.total_pkts_sent;
    m_pool.release(p);
    port.send_control_at(a, build_ack());  // not held, nor behind held ACKs
}

void uet_nic::on_ack(packet* p)
{
    ++m_counters.ack_pkts_rcvd;
    ++m_counters.total_pkts_rcvd;
    // A late ACK for a closed PDC, or for the earlier PDC that had this id (another first PSN).
    sender_pdc* found = m_pdcs.live(p->pds.dpdcid, p->src_node, p->pds.first_psn);
    if (!found) {
        if (__builtin_expect(close_handshake(), 0)) close_acked(*p);
        m_pool.release(p);
        return;
    }
    sender_pdc& pdc = *found;
    pdc_group& g = m_pdcs.group(pdc.group);
    if (p->kind == packet_kind::uet_probe) {
        ++m_counters.probe_ack_rcvd;
        if (pdc.probe_outstanding && pdc.probe_sent_ps) {
            g.cc->on_probe_rtt(double(now_ps() - pdc.probe_sent_ps) * 1e-12);
            pdc.probe_outstanding = false;
        }
        if (m_monitor) monitor(*p, uet_monitor_row::dir::rx, &pdc, &g);
        m_pool.release(p);
        return;
    }
    if (pdc.remote_id == 0) pdc.remote_id = p->pds.spdcid;

    // RTT sample from the packet that drew the ACK, if this is its first or first re-send.
    double rtt = -1;
    if (sent_packet* s = pdc.st.find(p->pds.ack_psn))
        if (s->gives_rtt_sample())
            rtt = double(now_ps() - s->sent_end_ps) * 1e-12 - p->pds.service_time * 128e-9;

    m_retired.clear();
    if (__builtin_expect(p->pds.type == pds_type::rudi_response, 0))
        // A RUDI_RESP answers its one packet id: nothing cumulative.
        pdc.st.on_ack(pdc.st.oldest_unacked() - 1, p->pds.psn, 1, m_retired);
    else
        pdc.st.on_ack(p->pds.cack_psn, p->pds.sack_base, p->pds.sack_bitmap, m_retired);
    uint64_t acked = 0;
    uet_message& m = m_messages[pdc.message];
    if (m_state) {
        int rtx_done = 0;
        for (const sent_packet* s : m_retired) rtx_done += s->rtx_queued;
        m_state->outstanding.add(now_ps(), -int(m_retired.size()));
        if (rtx_done) m_state->rtx_queue.add(now_ps(), -rtx_done);
    }
    for (sent_packet* s : m_retired) {
        acked += s->nominal;
        g.fetched_unacked -= s->nominal;
        if (s->in_flight) g.inflight -= s->nominal, s->in_flight = false;
        m.bytes_acked += s->payload;
    }
    nscc_ack_info info;
    info.acked_bytes = acked;
    if (rtt >= 0) info.rtt_s = rtt;
    info.ecn_echo = p->pds.ecn_echo;
    info.receiver_penalty = p->pds.rcv_penalty;
    info.restore_cwnd = p->pds.restore_cwnd;
    g.last_penalty = p->pds.rcv_penalty;
    info.inflight_bytes = g.inflight;
    const uint64_t qa_before = g.cc->quick_adapt_count();
    g.cc->on_ack(info, now_s());
    m_counters.num_quick_adapt += g.cc->quick_adapt_count() - qa_before;
    if (rtt >= 0) {
        m_counters.rtt_usec.add(rtt * 1e6);
        m_counters.avg_q_delay_usec.add(g.cc->avg_queue_delay_s() * 1e6);
        m_counters.rcvr_cwnd_pen.add(p->pds.rcv_penalty);
        if (p->pds.ecn_echo) ++m_counters.m_marked_pkts_rcvd;
    }
    // ROD's one value is not the engine's: it learns nothing from it.
    if (__builtin_expect(pdc.mode != delivery_mode::rod, 1))
        m_lb->feedback(g.lb_slot, p->udp.src_port,
                       p->pds.ecn_echo ? path_feedback::ack_ecn : path_feedback::ack, now_ps());
    if (m_monitor) monitor(*p, uet_monitor_row::dir::rx, &pdc, &g, rtt >= 0 ? rtt * 1e9 : -1);
    pdc.st.release_retired();
    if (__builtin_expect(p->ses.deferred, 0) && !m.deferred && !m.resumed)
        deferred_by_target(pdc, m);
    if (__builtin_expect(p->pds.cc_type == pds_cc::credit, 0)) {
        ++m_counters.credit_acks_rcvd;
        credit_arrived(p->src_node, p->pds.credit);
    }
    m_pool.release(p);

    if (!m.first_ack_seen) {
        // One base-RTT probe after the first data ACK of each message; a RUDI message has no
        // PDC at the target to probe.
        m.first_ack_seen = true;
        if (__builtin_expect(pdc.mode != delivery_mode::rudi, 1)) {
            packet* pr = make_control(packet_kind::uet_probe, pdc.dst, pdc.dst_ip);
            pr->pds.ack_request = true;
            pr->pds.spdcid = pdc.id;
            pr->pds.dpdcid = pdc.remote_id;
            pr->pds.psn = pdc.st.next_psn();
            pr->pds.first_psn = pdc.first_psn;
            pr->udp.src_port = pdc.id;
            pdc.probe_outstanding = true;
            ++m_counters.probe_sent;
            port.push_control(pr);
        }
    }
    if (__builtin_expect(m.deferred && !m.resumed, 0)) {
        resume_if_ready(pdc, m);  // the first transfer never completes the message
        if (pds().has_work(g)) pds().enqueue(pdc.group, true);
    } else if (!m.done && m.bytes_acked >= m.bytes && m.packets_issued == m.packets &&
               pdc.st.idle()) {
        // RUDI keeps no PDC at the target: nothing to close there.
        complete_message(pdc, m, close_handshake() && pdc.mode != delivery_mode::rudi);
    } else if (pds().has_work(g)) {
        pds().enqueue(pdc.group, true);
    }
    kick_scheduler_or_hold();
}

void uet_nic::complete_message(sender_pdc& pdc, uet_message& m, bool handshake)
{
    m.done = true;
    ++m_counters.wqes_completed;
    const uint32_t gi = pdc.group;
    const uint64_t slot = pdc.message;
    const bool closes = !pdc.kept_open || (handshake && pdc.close_requested);
    if (m_events) event(uet_event::type::wqe_complete, pdc, &m);
    if (__builtin_expect(handshake, 0)) {
        message_done_on(pdc);  // CLOSE_CMD now, or the idle timer
    } else if (closes) {
        if (m_events) event(uet_event::type::pdc_terminated, pdc);
        if (m_pdcs.close(pdc, m_rx_pdcs.open_from(pdc.dst) > 0))
            m_lb->close(m_pdcs.group(gi).lb_slot);  // the group died with it
        if (m_state) --m_state->open_tx_pdcs;
    }
    m_dma.message_complete(m.id);
    // A closed PDC's message is not looked at again (late ACKs find no live PDC). Taken
    // before the completion: a message posted from it may reopen the same PDC id.
    if (closes) m_messages.release(slot);
    if (m_pdcs.group(gi).alive && pds().has_work(m_pdcs.group(gi))) pds().enqueue(gi, true);
}

void uet_nic::on_nack(packet* p)
{
    ++m_counters.nack_pkts_rcvd;
    ++m_counters.total_pkts_rcvd;
    sender_pdc* live = m_pdcs.live(p->pds.dpdcid, p->src_node, p->pds.first_psn);
    if (m_monitor)
        monitor(*p, uet_monitor_row::dir::rx, live, live ? &m_pdcs.group(live->group) : nullptr);
    if (__builtin_expect(
            p->pds.nack_code == nack::no_pdc_avail || p->pds.nack_code == nack::inv_dpdcid, 0)) {
        lifecycle_nack_received(*p, live);
    } else if (live && __builtin_expect(live->mode == delivery_mode::rod, 0)) {
        if (rod_go_back(*live, p->pds.psn, false)) {
            pds().enqueue(live->group, true);
            kick_scheduler();
        }
    } else if (live) {
        sender_pdc& pdc = *live;
        if (sent_packet* s = pdc.st.on_loss(p->pds.psn)) {
            if (m_state) m_state->rtx_queue.add(now_ps(), +1);
            pdc_group& g = m_pdcs.group(pdc.group);
            g.inflight -= s->nominal;
            if (g.credit) g.credit->add_demand(wire_size(packet_kind::uet_data, s->payload));
            // The NACK's RTT sample, under the ACK's rule; a NACK is not held, so it reports
            // no service time. It feeds NSCC only: the records' RTT columns are ACK samples.
            std::optional<double> rtt;
            if (s->gives_rtt_sample()) rtt = double(now_ps() - s->sent_end_ps) * 1e-12;
            const uint64_t qa_before = g.cc->quick_adapt_count();
            g.cc->on_trim_nack(now_s(), rtt, s->nominal, g.inflight);
            m_counters.num_quick_adapt += g.cc->quick_adapt_count() - qa_before;
            m_lb->feedback(g.lb_slot, s->entropy,
                           p->pds.nack_code == 2 ? path_feedback::nack_trimmed_last_hop
                                                 : path_feedback::nack_trimmed,
                           now_ps());
            pds().enqueue(pdc.group, true);
            kick_scheduler();
        }
    }
    m_pool.release(p);
}

bool uet_nic::rod_go_back(sender_pdc& pdc, uint32_t psn, bool timeout)
{
    sent_packet* first = pdc.st.find(psn);
    if (!first || !first->in_flight) return false;
    // The loss's RTT sample and its packet's size, before go_back changes its state.
    std::optional<double> rtt;
    if (first->gives_rtt_sample()) rtt = double(now_ps() - first->sent_end_ps) * 1e-12;
    const uint32_t nominal = first->nominal;
    m_retired.clear();
    if (!pdc.st.go_back(psn, m_retired)) return false;
    pdc_group& g = m_pdcs.group(pdc.group);
    for (const sent_packet* s : m_retired) {
        g.inflight -= s->nominal;
        if (g.credit) g.credit->add_demand(wire_size(packet_kind::uet_data, s->payload));
    }
    if (m_state) m_state->rtx_queue.add(now_ps(), int(m_retired.size()));
    m_retired.clear();
    if (timeout) {
        g.cc->on_timeout(nominal);
        return true;
    }
    const uint64_t qa_before = g.cc->quick_adapt_count();
    g.cc->on_trim_nack(now_s(), rtt, nominal, g.inflight);
    m_counters.num_quick_adapt += g.cc->quick_adapt_count() - qa_before;
    return true;
}

// ---------------------------------------------------------------------------------------------
// Timers: one pending wake-up per NIC, for the earliest live deadline.

void uet_nic::arm(const timer& t)
{
    if (m_timers.push_pruned(t, timer_lane(t), [this](const timer& o) { return timer_live(o); })) {
        m_timer_wake.reschedule_at_ps(t.deadline_ps);
    }
}

bool uet_nic::timer_live(const timer& t)
{
    sender_pdc* p = m_pdcs.find(t.pdc);
    if (!p || !p->open) return false;
    const sent_packet* s = p->st.find(t.psn);
    return s && !s->retired && s->in_flight && s->tx_count == t.tx_count;
}

void uet_nic::on_timer()
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    activity::tick();
    const uint64_t now = now_ps();
    // Most deadlines belong to packets acknowledged long before: they are dropped without
    // waking the kernel for each one.
    const bool rearm = m_timers.expire(
        now, [this](const timer& t) { return timer_live(t); },
        [this](const timer& t) {
            sender_pdc& pdc = m_pdcs.at(t.pdc);
            sent_packet* s = pdc.st.find(t.psn);
            pdc_group& g = m_pdcs.group(pdc.group);
            if (t.failure_detection) {
                // Early failure detection: path feedback only; no retransmission, timer unchanged.
                m_lb->feedback(g.lb_slot, s->entropy, path_feedback::failure_detected, now_ps());
                return;
            }
            ++m_counters.num_rto;
            if (__builtin_expect(pdc.mode == delivery_mode::rod, 0)) {
                rod_go_back(pdc, t.psn, true);
                pds().enqueue(pdc.group, true);
                kick_scheduler();
                return;
            }
            if (pdc.st.on_loss(t.psn) && m_state) m_state->rtx_queue.add(now_ps(), +1);
            g.inflight -= s->nominal;
            if (g.credit) g.credit->add_demand(wire_size(packet_kind::uet_data, s->payload));
            g.cc->on_timeout(s->nominal);
            m_lb->feedback(g.lb_slot, s->entropy, path_feedback::timeout, now_ps());
            pds().enqueue(pdc.group, true);
            kick_scheduler();
        });
    if (rearm) m_timer_wake.notify_at_ps(m_timers.armed());
    if (m_probe) m_probe->changed();
}

}  // namespace uetsim
