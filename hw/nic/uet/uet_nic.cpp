#include "hw/nic/uet/uet_nic.h"

#include <algorithm>
#include <cmath>

#include "hw/common/activity.h"
#include "hw/common/time.h"
#include "hw/nic/uet/retransmit_timeout.h"

namespace uetsim {

namespace {

constexpr uint64_t rx_key(uint32_t src_host, uint16_t spdcid)
{
    return (uint64_t(src_host) << 16) | spdcid;
}

}  // namespace

uet_nic::uet_nic(const sc_core::sc_module_name& name, uint32_t host, uint32_t node_id, uint32_t ip,
                 const uet_nic_config& cfg, const nscc_config& cc, const entropy_config& lb,
                 uint64_t random_seed, packet_pool& pool, nic_host_interface& host_if)
    : sc_core::sc_module(name)
    , in("in")
    , tx("tx", [this]() { return next_frame(); })
    , m_host(host)
    , m_node_id(node_id)
    , m_ip(ip)
    , m_cfg(cfg)
    , m_cc_cfg(cc)
    , m_lb_cfg(lb)
    , m_seed(random_seed)
    , m_pool(pool)
    , m_host_if(host_if)
    , m_rng(random_seed, std::string(basename()) + ".psn")
    , m_cycle(seconds(cfg.cycle_s()))
    , m_fetch("fetch",
              [this](packet* p) {
                  m_data_q.push_back(p);
                  tx.kick();
              })
    , m_rx_pipeline("rx_pipeline", [this](packet* p) { process(p); })
    , m_ack_hold("ack_hold", [this](packet* p) { send_control(p); })
{
    m_tx_pdcs.resize(32768);
    in.on_receive([this](packet& p) {
        on_frame(p);
        return sc_core::SC_ZERO_TIME;
    });
    tx.on_frame_done([this] { frame_done(); });
    SC_HAS_PROCESS(uet_nic);
    SC_METHOD(schedule);
    sensitive << m_schedule_ev;
    dont_initialize();
    SC_METHOD(on_timer);
    sensitive << m_timer_ev;
    dont_initialize();
}

// ---------------------------------------------------------------------------------------------
// Host side

void uet_nic::post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                           uint8_t traffic_class, uint32_t queue_pair)
{
    message_state m;
    m.id = message;
    m.dst = dst_host;
    m.bytes = bytes;
    m.traffic_class = traffic_class;
    m.packets = bytes == 0 ? 1 : uint32_t((bytes + m_cfg.rdma_data_mss - 1) / m_cfg.rdma_data_mss);
    m_messages.push_back(m);
    ++m_counters.wqes_created;

    if (queue_pair != k_no_queue_pair) {
        auto it = m_pdc_of_queue_pair.find(queue_pair);
        if (it != m_pdc_of_queue_pair.end()) {
            // The queue pair's PDC carries on: its PSNs, its receiver and its group go on.
            sender_pdc& p = *tx_pdc(it->second);
            p.message = m_messages.size() - 1;
            enqueue_ready(p.group, false);
            kick_scheduler(m_cycle * double(m_cfg.doorbell_to_schedule_cycles));
            return;
        }
    }

    uint16_t id;
    if (!m_free_pdc_ids.empty()) {
        id = m_free_pdc_ids.back();
        m_free_pdc_ids.pop_back();
    } else {
        if (m_next_pdc_id > 32767)
            throw std::runtime_error(std::string(name()) + ": more than 32,767 open PDCs");
        id = m_next_pdc_id++;
    }
    if (!m_tx_pdcs[id]) m_tx_pdcs[id] = std::make_unique<sender_pdc>();
    sender_pdc& p = *m_tx_pdcs[id];
    p = sender_pdc{};
    p.id = id;
    p.dst = dst_host;
    p.dst_ip = dst_ip;
    p.first_psn = uint32_t(m_rng.next());  // random start: PSN wrap is exercised in real runs
    p.st = pdc_sender(p.first_psn);
    p.message = m_messages.size() - 1;
    p.open = true;
    p.group = group_for(dst_host, id);
    if (queue_pair != k_no_queue_pair) {
        p.kept_open = true;
        m_pdc_of_queue_pair[queue_pair] = id;
    }
    m_groups[p.group].pdcs.push_back(id);
    enqueue_ready(p.group, false);
    kick_scheduler(m_cycle * double(m_cfg.doorbell_to_schedule_cycles));
}

uint32_t uet_nic::group_for(uint32_t dst, uint16_t creator_pdc)
{
    if (m_cfg.pdc_groups_enabled) {
        auto it = m_group_of_dst.find(dst);
        if (it != m_group_of_dst.end()) return it->second;
    }
    uint32_t g;
    if (!m_free_groups.empty()) {
        g = m_free_groups.back();
        m_free_groups.pop_back();
    } else {
        g = uint32_t(m_groups.size());
        m_groups.emplace_back();
    }
    pdc_group& grp = m_groups[g];
    grp = pdc_group{};
    grp.alive = true;
    grp.dst = dst;
    grp.cc = std::make_unique<nscc>(m_cc_cfg);
    entropy_config lb = m_lb_cfg;
    // The None policy's fixed value: the local UDP port of the PDC that creates the group.
    lb.local_udp_port = none_port(creator_pdc);
    grp.lb = make_entropy_policy(lb, entropy_seed(m_seed, name(), m_groups_created++));
    if (m_cfg.pdc_groups_enabled) m_group_of_dst[dst] = g;
    return g;
}

void uet_nic::close_pdc(sender_pdc& p)
{
    p.open = false;
    pdc_group& g = m_groups[p.group];
    g.pdcs.erase(std::find(g.pdcs.begin(), g.pdcs.end(), p.id));
    m_free_pdc_ids.push_back(p.id);
    if (g.pdcs.empty()) {
        // The group dies with its last PDC: the next message starts a fresh window and state.
        g.alive = false;
        g.cc.reset();
        g.lb.reset();
        if (m_cfg.pdc_groups_enabled) m_group_of_dst.erase(g.dst);
        m_free_groups.push_back(p.group);
    }
}

// ---------------------------------------------------------------------------------------------
// Transmit scheduler

void uet_nic::enqueue_ready(uint32_t g, bool at_head)
{
    pdc_group& grp = m_groups[g];
    if (grp.queued || !grp.alive) return;
    grp.queued = true;
    if (at_head)
        m_ready.push_front(g);
    else
        m_ready.push_back(g);
}

void uet_nic::kick_scheduler(const sc_core::sc_time& after)
{
    if (m_schedule_pending) return;
    m_schedule_pending = true;
    m_schedule_ev.notify(after);
}

sent_packet* uet_nic::next_for_pdc(sender_pdc& p, bool& is_rtx, uint32_t& payload)
{
    if (sent_packet* r = p.st.peek_retransmission()) {
        is_rtx = true;
        payload = r->payload;
        return r;
    }
    is_rtx = false;
    const message_state& m = m_messages[p.message];
    if (m.packets_issued >= m.packets) return nullptr;
    payload = uint32_t(std::min<uint64_t>(m_cfg.rdma_data_mss, m.bytes - m.next_offset));
    return nullptr;
}

bool uet_nic::group_has_work(pdc_group& g)
{
    for (uint16_t id : g.pdcs) {
        auto& p = *m_tx_pdcs[id];
        if (p.st.peek_retransmission()) return true;
        const message_state& m = m_messages[p.message];
        if (m.packets_issued < m.packets) return true;
    }
    return false;
}

void uet_nic::schedule()
{
    activity::tick();
    m_schedule_pending = false;
    size_t attempts = m_ready.size();
    while (attempts-- > 0 && !m_ready.empty()) {
        const uint32_t gi = m_ready.front();
        pdc_group& g = m_groups[gi];
        // One PDC of the group, in turn; within it a retransmission first, then new data.
        sender_pdc* chosen = nullptr;
        sent_packet* rtx = nullptr;
        uint32_t payload = 0;
        for (size_t k = 0; k < g.pdcs.size(); ++k) {
            sender_pdc& p = *m_tx_pdcs[g.pdcs[(g.turn + k) % g.pdcs.size()]];
            bool is_rtx = false;
            uint32_t pl = 0;
            sent_packet* r = next_for_pdc(p, is_rtx, pl);
            if (!is_rtx && m_messages[p.message].packets_issued >= m_messages[p.message].packets)
                continue;
            if (!g.cc->window_allows(g.inflight, m_cfg.nominal_bytes(pl))) continue;
            chosen = &p;
            rtx = r;
            payload = pl;
            g.turn = (g.turn + k + 1) % std::max<size_t>(1, g.pdcs.size());
            break;
        }
        if (!chosen) {
            // Nothing this group may send now: it leaves the queue until an ACK, NACK,
            // timeout (head) or new message (tail) brings it back.
            m_ready.pop_front();
            g.queued = false;
            continue;
        }
        const uint32_t wire = wire_size(packet_kind::uet_data, payload);
        if (m_egress_data_reserved + wire > m_cfg.egress_data_pool_bytes) {
            m_pool_blocked = true;  // stop with the group at the head
            return;
        }
        m_ready.pop_front();
        g.queued = false;
        send_data(g, *chosen, rtx, payload);
        if (group_has_work(g)) enqueue_ready(gi, false);
        if (!m_ready.empty()) kick_scheduler(m_cycle * double(m_cfg.scheduler_cycles));
        return;
    }
}

void uet_nic::send_data(pdc_group& g, sender_pdc& p, sent_packet* rtx, uint32_t payload)
{
    const bool is_rtx = rtx != nullptr;
    sent_packet* sp;
    message_state& m = m_messages[p.message];
    if (is_rtx) {
        sp = p.st.take_retransmission();
        ++m_counters.num_rtx;
    } else {
        const bool last = m.packets_issued + 1 == m.packets;
        sp = &p.st.assign(p.message, m.next_offset, payload, m_cfg.nominal_bytes(payload), last);
        m.next_offset += payload;
        ++m.packets_issued;
        m_counters.cwnd_bytes.add(g.cc->cwnd_bytes());
    }
    ++sp->tx_count;
    m_counters.max_tx_count = std::max<uint64_t>(m_counters.max_tx_count, sp->tx_count);
    m_counters.ivl_max_tx_count = std::max<uint64_t>(m_counters.ivl_max_tx_count, sp->tx_count);
    sp->entropy = g.lb->next(now_s());
    sp->in_flight = true;
    g.inflight += sp->nominal;
    m_counters.bytes_in_flight.add(double(g.inflight));

    packet* pk = m_pool.acquire();
    pk->kind = packet_kind::uet_data;
    pk->src_node = uint16_t(m_host);
    pk->dst_node = uint16_t(p.dst);
    pk->payload_bytes = payload;
    pk->wire_bytes = wire_size(packet_kind::uet_data, payload);
    pk->ip.src = m_ip;
    pk->ip.dst = p.dst_ip;
    const dscp::role role = is_rtx && m_cfg.use_distinct_dscp_for_retransmits
                                ? dscp::role::trimmable_rtx
                            : m_cfg.trimming_enabled ? dscp::role::trimmable
                                                     : dscp::role::no_trim;
    pk->ip.dscp = dscp::make(m.traffic_class, role);
    pk->ip.ecn = ecn::ect1;
    pk->udp.src_port = sp->entropy;
    pk->udp.dst_port = wire::uet_udp_port;
    pk->pds.psn = sp->psn;
    pk->pds.spdcid = p.id;
    pk->pds.dpdcid = p.remote_id;
    pk->pds.syn = p.remote_id == 0;
    pk->pds.first_psn = p.first_psn;
    pk->pds.retransmit = is_rtx;
    ++p.ar_count;
    const uint64_t n = m_cfg.ack_request_every_nth_packet;
    bool ar = m_cfg.ack_request_first_packet ? (p.ar_count - 1) % n == 0 : p.ar_count % n == 0;
    if (sp->last && m_cfg.ack_request_last_packet) ar = true;
    pk->pds.ack_request = ar;
    pk->ses.message_id = m.id;
    pk->ses.offset = sp->offset;
    pk->ses.message_bytes = m.bytes;
    pk->ses.last = sp->last;
    pk->flow_id = uint32_t(p.message);

    m_egress_data_reserved += pk->wire_bytes;
    ++m_counters.write_pkts_sent;
    ++m_counters.total_pkts_sent;

    // Payload fetch: a read request on the NIC-to-host lanes, then the completion on the
    // host-to-NIC lanes. A retransmission is rebuilt from its recorded size: no fetch.
    uint64_t ready_ps = now_ps();
    if (!is_rtx) {
        g.fetched += payload;
        ready_ps = m_host_if.fetch_payload(ready_ps, payload);
    }
    ready_ps +=
        uint64_t(m_cycle.value()) * (m_cfg.entropy_lookup_cycles + m_cfg.header_build_cycles);
    m_fetch.push(pk, std::max(picoseconds(ready_ps), sc_core::sc_time_stamp()));
}

packet* uet_nic::next_frame()
{
    // Strict priority: the control class (ACKs, NACKs, probes) before data.
    ring<packet*>* q = !m_control_q.empty() ? &m_control_q
                       : !m_data_q.empty()  ? &m_data_q
                                            : nullptr;
    if (!q) return nullptr;
    packet* p = q->front();
    q->pop_front();
    m_wire = on_wire{};
    m_wire.data = p->kind == packet_kind::uet_data;
    m_wire.retx = p->pds.retransmit;
    m_wire.probe =
        p->kind == packet_kind::uet_probe && p->pds.ack_request;  // a probe, not its answer
    m_wire.pdc = p->pds.spdcid;
    m_wire.psn = p->pds.psn;
    m_wire.wire_bytes = p->wire_bytes;
    ++m_port.tx_packets;
    m_port.tx_bytes += p->wire_bytes;
    if (m_monitor) {
        sender_pdc* sp = m_wire.data || m_wire.probe ? tx_pdc(m_wire.pdc) : nullptr;
        monitor(*p, m_wire.retx ? uet_monitor_row::dir::retx : uet_monitor_row::dir::tx, sp,
                sp ? &m_groups[sp->group] : nullptr);
    }
    return p;
}

void uet_nic::frame_done()
{
    if (m_wire.data) {
        m_egress_data_reserved -= m_wire.wire_bytes;
        sender_pdc& p = *m_tx_pdcs[m_wire.pdc];
        if (p.open)
            if (sent_packet* sp = p.st.find(m_wire.psn)) {
                // The retransmission timer starts when serialization ends.
                sp->sent_end_ps = now_ps();
                arm({now_ps() + uint64_t(retransmit_timeout_s(m_cfg, sp->tx_count) * 1e12), p.id,
                     sp->psn, sp->tx_count, false});
                const double fd =
                    failure_detection_deadline_s(m_lb_cfg, m_groups[p.group].cc->base_rtt_s());
                if (fd > 0)
                    arm({now_ps() + uint64_t(fd * 1e12), p.id, sp->psn, sp->tx_count, true});
            }
        if (m_pool_blocked && m_egress_data_reserved <= m_cfg.egress_data_pool_bytes / 2) {
            m_pool_blocked = false;
            kick_scheduler();
        }
    } else if (m_wire.probe) {
        m_tx_pdcs[m_wire.pdc]->probe_sent_ps = now_ps();
    }
    m_wire = on_wire{};
}

void uet_nic::send_control(packet* p)
{
    m_control_q.push_back(p);
    tx.kick();
}

packet* uet_nic::make_control(packet_kind kind, uint32_t dst_host, uint32_t dst_ip)
{
    packet* c = m_pool.acquire();
    c->kind = kind;
    c->src_node = uint16_t(m_host);
    c->dst_node = uint16_t(dst_host);
    c->wire_bytes = wire_size(kind, 0);
    c->ip.src = m_ip;
    c->ip.dst = dst_ip;
    c->ip.dscp = dscp::make(m_cfg.control_traffic_class, dscp::role::control);
    c->ip.ecn = ecn::ect1;
    c->udp.dst_port = wire::uet_udp_port;
    return c;
}

// ---------------------------------------------------------------------------------------------
// Receive side

void uet_nic::on_frame(packet& p)
{
    ++m_port.rx_packets;
    m_port.rx_bytes += p.wire_bytes;
    m_rx_pipeline.push(&p, sc_core::sc_time_stamp() + m_cycle * double(m_cfg.rx_process_cycles));
}

void uet_nic::process(packet* p)
{
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
        case packet_kind::connection: {
            const cm_fields m = p->cm;
            const uint32_t src = p->src_node;
            m_pool.release(p);
            m_host_if.connection_message_received(src, m);
            break;
        }
        default:
            m_pool.release(p);
            break;
    }
}

void uet_nic::send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m)
{
    packet* c = make_control(packet_kind::connection, dst_host, dst_ip);
    c->cm = m;
    c->udp.src_port = wire::cm_udp_port;
    c->udp.dst_port = wire::cm_udp_port;
    send_control(c);
}

void uet_nic::on_data(packet* p)
{
    ++m_counters.write_pkts_rcvd;
    ++m_counters.total_pkts_rcvd;
    if (m_monitor) monitor(*p, uet_monitor_row::dir::rx);
    const uint64_t key = rx_key(p->src_node, p->pds.spdcid);
    auto it = m_rx_pdcs.find(key);
    if (it != m_rx_pdcs.end() && it->second->first_psn != p->pds.first_psn) {
        // The sender reuses a PDC id once its message is done. A SYN packet with another first
        // PSN opens the new PDC; anything else is a late copy from the old one.
        if (!p->pds.syn) {
            ++m_counters.num_dup_events_on_nic;
            m_pool.release(p);
            return;
        }
        m_rx_pdcs.erase(it);
        it = m_rx_pdcs.end();
    }
    if (it == m_rx_pdcs.end()) {
        // The first packet of the PDC to arrive creates the receiving end (SYN information).
        auto r = std::make_unique<receiver_pdc>(p->pds.first_psn);
        r->id = m_next_rx_pdc_id;
        r->first_psn = p->pds.first_psn;
        m_next_rx_pdc_id = m_next_rx_pdc_id == 65535 ? 32769 : m_next_rx_pdc_id + 1;
        it = m_rx_pdcs.emplace(key, std::move(r)).first;
    }
    receiver_pdc& rp = *it->second;

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
        m_ack_hold.push(n, std::max(sc_core::sc_time_stamp(), m_ack_hold.last_due()));
        return;
    }

    const auto arrival = rp.st.on_data(p->pds.psn);
    if (arrival == pdc_receiver::arrival::out_of_order) ++m_counters.num_out_of_order_events_on_nic;
    if (arrival == pdc_receiver::arrival::duplicate) ++m_counters.num_dup_events_on_nic;
    m_counters.max_out_of_order_on_flow =
        std::max<uint64_t>(m_counters.max_out_of_order_on_flow, rp.st.out_of_order_held());
    m_counters.ivl_max_out_of_order_on_flow =
        std::max<uint64_t>(m_counters.ivl_max_out_of_order_on_flow, rp.st.out_of_order_held());

    // The ACK is held for the receiver's PCIe service time: the data waiting for the host
    // link plus this packet, at the link's rate.
    const uint64_t backlog = m_host_if.write_backlog_bytes(now_ps());
    const uint64_t hold_ps =
        uint64_t(double(backlog + p->ip_bytes()) * 8e12 / m_host_if.nic_to_host_bps() + 0.5);
    if (arrival != pdc_receiver::arrival::duplicate) {
        m_counters.rx_bytes_delivered += p->payload_bytes;
        m_host_if.write_payload(p->src_node, p->ses.message_id, p->ses.offset, p->payload_bytes);
    }
    if (p->pds.ack_request) {
        packet* a = make_control(packet_kind::uet_ack, p->src_node, p->ip.src);
        a->pds.spdcid = rp.id;
        a->pds.dpdcid = p->pds.spdcid;
        a->pds.ack_psn = p->pds.psn;
        a->pds.first_psn = rp.first_psn;
        a->pds.psn = p->pds.psn;
        a->pds.cack_psn = rp.st.cack();
        const auto s = rp.st.next_sack();
        a->pds.sack_base = s.base;
        a->pds.sack_bitmap = s.bitmap;
        a->pds.ecn_echo = p->ip.ecn == ecn::ce;
        a->pds.retransmit = p->pds.retransmit;
        a->pds.service_time = uint16_t(std::min<uint64_t>(65535, hold_ps / 128'000));
        a->pds.rcv_penalty =
            receiver_penalty(100.0 * double(backlog) / double(m_cfg.ingress_data_pool_bytes),
                             m_cc_cfg.receiver_congestion_low_threshold,
                             m_cc_cfg.receiver_congestion_high_threshold);
        a->udp.src_port = p->udp.src_port;  // the entropy value goes back as path feedback
        if (a->pds.ecn_echo) ++m_counters.m_marked_pkts_sent;
        ++m_counters.ack_pkts_sent;
        ++m_counters.total_pkts_sent;
        m_ack_hold.push(
            a, std::max(sc_core::sc_time_stamp() + picoseconds(hold_ps), m_ack_hold.last_due()));
    }
    m_pool.release(p);
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
    m_ack_hold.push(a, std::max(sc_core::sc_time_stamp(), m_ack_hold.last_due()));  // not held
}

void uet_nic::on_ack(packet* p)
{
    ++m_counters.ack_pkts_rcvd;
    ++m_counters.total_pkts_rcvd;
    sender_pdc* found = p->pds.dpdcid < m_tx_pdcs.size() ? tx_pdc(p->pds.dpdcid) : nullptr;
    // A late ACK for a closed PDC, or for the earlier PDC that had this id (another first PSN).
    if (!found || !found->open || found->dst != p->src_node ||
        found->first_psn != p->pds.first_psn) {
        m_pool.release(p);
        return;
    }
    sender_pdc& pdc = *found;
    pdc_group& g = m_groups[pdc.group];
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
        if (!s->retired && s->tx_count <= 2 && s->sent_end_ps && s->tx_count > 0)
            rtt = double(now_ps() - s->sent_end_ps) * 1e-12 - p->pds.service_time * 128e-9;

    m_retired.clear();
    pdc.st.on_ack(p->pds.cack_psn, p->pds.sack_base, p->pds.sack_bitmap, m_retired);
    uint64_t acked = 0;
    message_state& m = m_messages[pdc.message];
    for (sent_packet* s : m_retired) {
        acked += s->nominal;
        if (s->in_flight) g.inflight -= s->nominal, s->in_flight = false;
        m.bytes_acked += s->payload;
    }
    nscc_ack_info info;
    info.acked_bytes = acked;
    if (rtt >= 0) info.rtt_s = rtt;
    info.ecn_echo = p->pds.ecn_echo;
    info.receiver_penalty = p->pds.rcv_penalty;
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
    g.lb->feedback(p->udp.src_port, p->pds.ecn_echo ? path_feedback::ack_ecn : path_feedback::ack,
                   now_s());
    if (m_monitor) monitor(*p, uet_monitor_row::dir::rx, &pdc, &g, rtt >= 0 ? rtt * 1e9 : -1);
    pdc.st.release_retired();
    m_pool.release(p);

    if (!m.first_ack_seen) {
        // One base-RTT probe after the first data ACK of each message.
        m.first_ack_seen = true;
        packet* pr = make_control(packet_kind::uet_probe, pdc.dst, pdc.dst_ip);
        pr->pds.ack_request = true;
        pr->pds.spdcid = pdc.id;
        pr->pds.dpdcid = pdc.remote_id;
        pr->pds.psn = pdc.st.next_psn();
        pr->pds.first_psn = pdc.first_psn;
        pr->udp.src_port = pdc.id;
        pdc.probe_outstanding = true;
        ++m_counters.probe_sent;
        send_control(pr);
    }
    if (!m.done && m.bytes_acked >= m.bytes && m.packets_issued == m.packets && pdc.st.idle()) {
        m.done = true;
        ++m_counters.wqes_completed;
        const uint32_t gi = pdc.group;
        if (!pdc.kept_open) close_pdc(pdc);
        m_host_if.message_complete(m.id);
        if (m_groups[gi].alive && group_has_work(m_groups[gi])) enqueue_ready(gi, true);
    } else if (group_has_work(g)) {
        enqueue_ready(pdc.group, true);
    }
    kick_scheduler();
}

void uet_nic::on_nack(packet* p)
{
    ++m_counters.nack_pkts_rcvd;
    ++m_counters.total_pkts_rcvd;
    sender_pdc* found = p->pds.dpdcid < m_tx_pdcs.size() ? tx_pdc(p->pds.dpdcid) : nullptr;
    const bool live =
        found && found->open && found->dst == p->src_node && found->first_psn == p->pds.first_psn;
    if (m_monitor)
        monitor(*p, uet_monitor_row::dir::rx, live ? found : nullptr,
                live ? &m_groups[found->group] : nullptr);
    if (live) {
        sender_pdc& pdc = *found;
        if (sent_packet* s = pdc.st.on_loss(p->pds.psn)) {
            pdc_group& g = m_groups[pdc.group];
            g.inflight -= s->nominal;
            const uint64_t qa_before = g.cc->quick_adapt_count();
            g.cc->on_trim_nack(now_s(), std::nullopt, s->nominal, g.inflight);
            m_counters.num_quick_adapt += g.cc->quick_adapt_count() - qa_before;
            g.lb->feedback(s->entropy,
                           p->pds.nack_code == 2 ? path_feedback::nack_trimmed_last_hop
                                                 : path_feedback::nack_trimmed,
                           now_s());
            enqueue_ready(pdc.group, true);
            kick_scheduler();
        }
    }
    m_pool.release(p);
}

// ---------------------------------------------------------------------------------------------
// Timers: one pending event per NIC, for the earliest deadline.

void uet_nic::arm(const timer& t)
{
    m_timers.push(t);
    if (t.deadline_ps < m_timer_armed_ps) {
        m_timer_armed_ps = t.deadline_ps;
        m_timer_ev.cancel();
        m_timer_ev.notify(picoseconds(t.deadline_ps - now_ps()));
    }
}

bool uet_nic::timer_live(const timer& t)
{
    sender_pdc* p = tx_pdc(t.pdc);
    if (!p || !p->open) return false;
    const sent_packet* s = p->st.find(t.psn);
    return s && !s->retired && s->in_flight && s->tx_count == t.tx_count;
}

void uet_nic::on_timer()
{
    activity::tick();
    m_timer_armed_ps = UINT64_MAX;
    const uint64_t now = now_ps();
    // Most deadlines belong to packets acknowledged long before: drop them without waking the
    // kernel for each one, so the NIC has one pending timer event per live deadline.
    while (!m_timers.empty() &&
           (m_timers.top().deadline_ps <= now || !timer_live(m_timers.top()))) {
        const timer t = m_timers.top();
        m_timers.pop();
        if (t.deadline_ps > now || !timer_live(t)) continue;
        sender_pdc& pdc = *tx_pdc(t.pdc);
        sent_packet* s = pdc.st.find(t.psn);
        pdc_group& g = m_groups[pdc.group];
        if (t.failure_detection) {
            // Early failure detection: path feedback only; no retransmission, timer unchanged.
            g.lb->feedback(s->entropy, path_feedback::failure_detected, now_s());
            continue;
        }
        ++m_counters.num_rto;
        pdc.st.on_loss(t.psn);
        g.inflight -= s->nominal;
        g.cc->on_timeout(s->nominal);
        g.lb->feedback(s->entropy, path_feedback::timeout, now_s());
        enqueue_ready(pdc.group, true);
        kick_scheduler();
    }
    if (!m_timers.empty()) {
        m_timer_armed_ps = m_timers.top().deadline_ps;
        m_timer_ev.notify(picoseconds(m_timer_armed_ps - now));
    }
}

// ---------------------------------------------------------------------------------------------
// uet-monitor rows

void uet_nic::monitor(const packet& p, uet_monitor_row::dir d, const sender_pdc* sp,
                      const pdc_group* g, double rtt_ns)
{
    uet_monitor_row r;
    r.sim_time_ps = now_ps();
    r.fep_id = m_node_id;
    r.packet_uid = p.id;
    r.packet_size = p.wire_bytes;
    r.direction = d;
    r.dscp = p.ip.dscp;
    r.local_ip = m_ip;
    r.remote_ip = d == uet_monitor_row::dir::rx ? p.ip.src : p.ip.dst;
    const bool sent = d != uet_monitor_row::dir::rx;
    r.local_pdc = sent ? p.pds.spdcid : p.pds.dpdcid;
    r.remote_pdc = sent ? p.pds.dpdcid : p.pds.spdcid;
    if (sp && g && g->cc) {
        r.has_sender_state = true;
        r.bytes_fetched = g->fetched;
        r.bytes_in_flight = g->inflight;
        r.congestion_window = g->cc->cwnd_bytes();
        r.job_id = m_messages[sp->message].id;
    }
    switch (p.kind) {
        case packet_kind::uet_data:
            r.packet_type = uet_monitor_row::type::rud_request;
            r.has_entropy = true;
            r.entropy_value = p.udp.src_port;
            r.has_ar = true;
            r.ar = p.pds.ack_request;
            r.has_psn = true;
            r.psn = p.pds.psn;
            if (!sent) r.has_ecn_marked = true, r.ecn_marked = p.ip.ecn == ecn::ce;
            break;
        case packet_kind::uet_ack:
            r.packet_type = uet_monitor_row::type::ack_cc;
            r.has_entropy = true;
            r.entropy_value = p.udp.src_port;
            r.has_penalty = true;
            r.penalty = p.pds.rcv_penalty;
            r.has_m_flag = true;
            r.m_flag = p.pds.ecn_echo;
            r.has_psn = true;
            r.psn = p.pds.ack_psn;
            r.has_ack = true;
            r.cack_psn = p.pds.cack_psn;
            r.sack_base_psn = p.pds.sack_base;
            for (uint32_t b = 0; b < 64; ++b)
                if ((p.pds.sack_bitmap >> b) & 1u) r.bitmap_psns.push_back(p.pds.sack_base + b);
            if (!sent) {
                r.has_ecn_marked = true;
                r.ecn_marked = p.ip.ecn == ecn::ce;
                if (rtt_ns >= 0) r.has_rtt = true, r.rtt_ns = rtt_ns;
            }
            break;
        case packet_kind::uet_nack:
            r.packet_type = uet_monitor_row::type::nack;
            r.has_nack_code = true;
            r.nack_last_hop = p.pds.nack_code == 2;
            r.has_psn = true;
            r.psn = p.pds.psn;
            r.has_m_flag = true;
            r.m_flag = p.pds.ecn_echo;
            r.has_entropy = true;
            r.entropy_value = p.pds.spdcid;  // the sender's PDC id: local on Tx, remote on Rx
            break;
        case packet_kind::uet_probe:
            r.packet_type =
                p.pds.ack_request ? uet_monitor_row::type::ctrl : uet_monitor_row::type::ack_cc;
            r.has_psn = true;
            r.psn = p.pds.psn;
            r.has_entropy = true;
            r.entropy_value = p.pds.spdcid;  // the sender's PDC id: local on Tx, remote on Rx
            if (!sent) r.has_ecn_marked = true, r.ecn_marked = p.ip.ecn == ecn::ce;
            break;
        default:
            return;
    }
    m_monitor->row(r);
}

}  // namespace uetsim
