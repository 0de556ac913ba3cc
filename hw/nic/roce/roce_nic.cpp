#include "hw/nic/roce/roce_nic.h"

#include <algorithm>

#include <stdexcept>
#include <string>

#include "hw/kernel/activity.h"
#include "hw/kernel/time.h"
#include "hw/nic/roce/roce_opcodes.h"
#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

nic_port_config port_config(const nic_context& ctx, const roce_nic_config& cfg)
{
    nic_port_config p;
    p.host = ctx.host;
    p.ip = ctx.ip;
    p.control_traffic_class = cfg.control_traffic_class;
    p.egress = cfg.egress;
    p.ingress = cfg.ingress;
    // The data ring stands for the data class: class 0's pool (the port has one data pool).
    for (int t = 0; t < 8; ++t)
        p.ingress.pfc_enable[size_t(t)] = cfg.pfc_enable_vector[size_t(t)] == 1;
    for (int t = 0; t < cfg.ingress.classes(); ++t)
        p.pfc.quanta[size_t(t)] = cfg.ingress.quanta[size_t(t)];
    p.pfc.ip = ctx.ip;
    p.pfc.frame_bytes = wire::pfc_roce_bytes;  // RoCE NIC transport page: 84 B
    // The RoCE pages model no receive pipeline: rx_stages stay zero latency.
    return p;
}

uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t direction_key(uint32_t qpn, uint32_t src, uint32_t dst)
{
    return (uint64_t(qpn) << 32) ^ (uint64_t(src & 0xFFFF) << 16) ^ uint64_t(dst & 0xFFFF);
}

}  // namespace

uint16_t roce_nic::udp_source_port(uint32_t qpn, uint32_t src, uint32_t dst)
{
    // RoCE v2 takes its source ports from the dynamic range 49152..65535; both directions of a
    // queue pair use the same one.
    const uint32_t a = std::min(src, dst), b = std::max(src, dst);
    return uint16_t(0xC000 | (splitmix64(direction_key(qpn, a, b)) & 0x3FFF));
}

uint32_t roce_nic::initial_psn(uint64_t seed, uint32_t qpn, uint32_t src, uint32_t dst)
{
    // Both ends derive it (no connection exchange carries it); random-looking so that PSN wrap
    // is exercised.
    return uint32_t(splitmix64(seed ^ splitmix64(direction_key(qpn, src, dst)))) & roce::psn_mask;
}

roce_nic::roce_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
                   const roce_nic_config& cfg, double line_rate_bps)
    : host_nic(name, ctx, port_config(ctx, cfg))
    , m_shared_cfg(share_settings(cfg))
    , m_cfg(*m_shared_cfg)
    , m_line_rate_bps(line_rate_bps)
    , m_rto_ps(ps_from_seconds(cfg.retransmit_timeout_s))
    , m_fetches("fetches", [this](fetch f) { on_fetched(f); })
{
    m_ack_policy.coalescing = cfg.ack_coalescing_enabled;
    m_ack_policy.threshold = cfg.ack_threshold;
    m_ack_policy.delay_ps = ps_from_seconds(cfg.ack_delay_s);
}

roce_transport_counters& roce_nic::sync_counters() const
{
    m_counters.conn_pkts_recvd = port.connection_frames_received();
    return m_counters;
}

std::vector<uint32_t> roce_nic::open_qpns() const
{
    std::vector<uint32_t> out;
    out.reserve(m_qps.size());
    for (const auto& [qpn, qp] : m_qps) out.push_back(qpn);
    std::sort(out.begin(), out.end());
    return out;
}

const roce_requester* roce_nic::requester(uint32_t qpn) const
{
    auto it = m_qps.find(qpn);
    return it == m_qps.end() ? nullptr : &it->second->req;
}

const dcqcn_rate* roce_nic::rate(uint32_t qpn) const
{
    auto it = m_qps.find(qpn);
    return it == m_qps.end() ? nullptr : &it->second->rate;
}

roce_nic::queue_pair* roce_nic::find_qp(uint32_t qpn)
{
    auto it = m_qps.find(qpn);
    return it == m_qps.end() ? nullptr : it->second.get();
}

// ---------------------------------------------------------------------------------------------
// Host side

void roce_nic::post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                            uint8_t traffic_class, uint32_t queue_pair_number, delivery_mode)
{
    uint32_t qpn = 0;
    const bool flows = queue_pair_number == k_no_queue_pair;
    if (flows) ++m_counters.wqe_created;  // a doorbell counts the others
    if (flows) {
        qpn = k_roce_flows_qp_base | (m_flows_qps++ & (k_roce_flows_qp_base - 1));
    } else if (queue_pair_number < k_roce_flows_qp_base - k_roce_first_data_qp) {
        qpn = queue_pair_number + k_roce_first_data_qp;
    } else {
        throw std::runtime_error(std::string(name()) + ": connection " +
                                 std::to_string(queue_pair_number) +
                                 " is above the 8,388,606 a RoCE NIC numbers");
    }
    queue_pair* qp = find_qp(qpn);
    if (!qp) {
        auto made = std::make_unique<queue_pair>(initial_psn(m_seed, qpn, m_host, dst_host),
                                                 m_cfg.mss, m_cfg.ecn, m_line_rate_bps);
        qp = made.get();
        qp->qpn = qpn;
        qp->dst_host = dst_host;
        qp->dst_ip = dst_ip;
        qp->udp_src_port = udp_source_port(qpn, m_host, dst_host);
        qp->flows = flows;
        m_qps.emplace(qpn, std::move(made));
    }
    // The RDMA application's WQEs are RDMA WRITEs (its page); a Flows message, which names no
    // remote buffer, is a SEND, so both verbs run.
    const pending_message m{message, bytes, traffic_class,
                            flows ? roce::verb::send : roce::verb::rdma_write};
    if (qp->req.busy())
        qp->waiting.push_back(m);  // one message at a time per queue pair
    else
        start_message(*qp, m);
}

void roce_nic::start_message(queue_pair& qp, const pending_message& m)
{
    qp.message = m.id;
    qp.sent_reported = false;
    qp.data_class = m.traffic_class;
    m_data_classes |= uint8_t(1u << m.traffic_class);
    qp.req.start_message(m.bytes, m.verb);
    make_ready(qp);
    kick_generation();
}

void roce_nic::send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m)
{
    ++m_counters.conn_pkts_sent;
    ++m_counters.non_verb_pkts_sent;
    ++m_counters.pkts_sent;
    port.send_connection_message(dst_host, dst_ip, m);
}

// ---------------------------------------------------------------------------------------------
// Packet generation

void roce_nic::make_ready(queue_pair& qp)
{
    if (qp.ready || !qp.req.has_segment()) return;
    qp.ready = true;
    m_ready.push_back(qp.qpn);
}

// Generation starts 80 ns after it was idle or blocked (the transport page).
void roce_nic::kick_generation()
{
    if (m_gen_pending || m_gen_blocked || m_ready.empty()) return;
    m_gen_pending = true;
    m_gen_wake.notify(picoseconds(k_roce_generation_start_ps));
}

void roce_nic::on_pool_free(int traffic_class)
{
    m_gen_blocked = false;
    resume_class(traffic_class);
    kick_generation();
}

// With several data classes, the queue pairs of a class whose pool is full wait for it apart, in
// their order, and go back to the head of the ready queue once it has drained to half.
void roce_nic::resume_class(int traffic_class)
{
    m_waiting_classes &= uint8_t(~(1u << traffic_class));
    ring<uint32_t>& w = m_pool_waiting[size_t(traffic_class)];
    for (size_t i = w.size(); i-- > 0;) m_ready.push_front(w.at(i));
    while (!w.empty()) w.pop_front();
}

void roce_nic::generate()
{
    activity::tick();
    m_gen_pending = false;
    const uint64_t now = now_ps();
    // One segment from the queue pair at the head, which goes to the tail if it has more; every
    // fetch is issued now (the PCIe lanes queue them) until the egress data pool is full.
    while (!m_ready.empty()) {
        queue_pair* qp = find_qp(m_ready.front());
        if (!qp || !qp->req.has_segment()) {
            if (qp) qp->ready = false;
            m_ready.pop_front();
            continue;
        }
        const uint32_t bytes = wire_size(packet_kind::roce_data, qp->req.next_payload());
        const int tc = qp->data_class;
        if (port.pool_room(tc) < bytes || ((m_waiting_classes >> tc) & 1u)) {
            if (!several_data_classes()) {
                // Generation stops until the pool has drained to half its size.
                m_gen_blocked = true;
                port.block_on_pool(tc);
                return;
            }
            // Several data classes: only this class's generation stops, the others go on.
            m_ready.pop_front();
            m_pool_waiting[size_t(tc)].push_back(qp->qpn);
            if (!((m_waiting_classes >> tc) & 1u)) {
                m_waiting_classes |= uint8_t(1u << tc);
                port.block_on_pool(tc);
            }
            continue;
        }
        m_ready.pop_front();
        const roce_segment s = qp->req.next_segment();
        port.reserve_data(tc, bytes);
        packet* p = m_pool.acquire();
        p->kind = packet_kind::roce_data;
        p->src_node = uint16_t(m_host);
        p->dst_node = uint16_t(qp->dst_host);
        p->payload_bytes = s.payload;
        p->wire_bytes = bytes;
        p->ip.src = m_ip;
        p->ip.dst = qp->dst_ip;
        p->ip.dscp = dscp::make(uint8_t(tc), dscp::role::no_trim);  // CSn: class x 8
        p->ip.ecn = m_cfg.ecn.enable_ecn ? ecn::ect0 : ecn::not_ect;
        p->udp.src_port = qp->udp_src_port;
        p->udp.dst_port = wire::roce_udp_port;
        p->bth.opcode = s.opcode;
        p->bth.dest_qp = qp->qpn;
        p->bth.psn = s.psn;
        p->bth.ack_request = s.last;
        p->bth.solicited = s.last;
        // RETH's role (the message and offset the payload goes to), carried as sideband.
        p->ses.message_id = qp->message;
        p->ses.offset = s.offset;
        p->ses.message_bytes = qp->req.message_bytes();
        p->ses.last = s.last;
        p->flow_id = qp->qpn;
        const uint64_t arrived = m_dma.fetch_payload(now, s.payload);
        // Go-back-N fetches a message's last segment again: "all bytes sent" is the first time.
        if (s.last && !qp->sent_reported) {
            qp->sent_reported = true;
            m_dma.message_sent(qp->message, now);
        }
        m_fetches.push({p, qp->qpn, s.epoch}, std::max(arrived, m_fetches.last_due_ps()));
        if (qp->req.has_segment())
            m_ready.push_back(qp->qpn);
        else
            qp->ready = false;
    }
}

// A segment's payload arrived: it gets its PSN (unless a rewind made it stale) and joins the
// data ring with its reservation.
void roce_nic::on_fetched(const fetch& f)
{
    queue_pair* qp = find_qp(f.qpn);
    if (!qp || f.epoch != qp->req.epoch()) {
        m_pool.release(f.p);  // counted and its reservation released at the rewind
        return;
    }
    packet* p = f.p;
    if (qp->req.number()) start_transport_timer(*qp);
    // A congested queue pair's data is serialized at its allowed rate (the link reads it).
    const double r = qp->rate.rate_bps();
    if (r < m_line_rate_bps) p->tx_rate_bps = r;
    ++m_counters.pkts_sent;
    ++m_counters.verb_pkts_sent;
    if (roce::is_send(p->bth.opcode))
        ++m_counters.rdma_send_cnt;
    else
        ++m_counters.rdma_write_cnt;
    m_queued[dscp::traffic_class(p->ip.dscp)].push_back({qp->qpn, p->bth.psn});
    port.push_reserved_data(p);
    if (m_probe) m_probe->changed();
}

bool roce_nic::sent_is_silent(const sent_frame& f) const
{
    return !f.data;  // on_sent below
}

void roce_nic::on_sent(const sent_frame& f)
{
    if (!f.data) return;
    ring<queued_data>& queued = m_queued[f.traffic_class];
    const queued_data q = queued.front();
    queued.pop_front();
    if (queue_pair* qp = find_qp(q.qpn)) {
        qp->req.sent(q.psn, now_ps());
        qp->rate.on_data_sent();
    }
    if (m_probe) m_probe->changed();
}

void roce_nic::release_stale(const roce_requester::discard& d, int traffic_class)
{
    if (!d.segments) return;
    m_counters.tx_payload_discards += d.segments;
    port.release_data(traffic_class,
                      uint32_t(d.payload_bytes + d.segments * wire::roce_data_overhead));
    // The discarded reservations may be all the pool held (nothing left to drain it): below
    // half, generation may restart.
    const nic_egress_pools& pools = port.egress_pools();
    if (2 * uint64_t(pools.reserved(traffic_class)) > pools.pool_bytes(traffic_class)) return;
    m_gen_blocked = false;
    if ((m_waiting_classes >> traffic_class) & 1u) resume_class(traffic_class);
}

// After a rewind (a NAK or a timer expiry): stale payload discarded, the window empty, the queue
// pair back in the ready queue to fetch everything from the PSN it rewound to.
void roce_nic::rewind_done(queue_pair& qp, const roce_requester::discard& d)
{
    ++m_counters.rtx;
    release_stale(d, qp.data_class);
    stop_transport_timer(qp);
    make_ready(qp);
    kick_generation();
}

void roce_nic::complete(queue_pair& qp)
{
    stop_transport_timer(qp);
    ++m_counters.wqe_completed;
    m_dma.message_complete(qp.message);
    if (!qp.waiting.empty()) {
        const pending_message next = qp.waiting.front();
        qp.waiting.pop_front();
        start_message(qp, next);
    } else if (qp.flows) {
        const uint32_t qpn = qp.qpn;  // `qp` dies with its entry
        m_qps.erase(qpn);             // a late ACK or CNP for it finds no queue pair
    }
}

// ---------------------------------------------------------------------------------------------
// Timers: one pending event per NIC, for the earliest live deadline.

void roce_nic::arm(const timer& t)
{
    if (m_timers.push(t)) {
        m_timer_wake.reschedule_at_ps(t.deadline_ps);
    }
}

void roce_nic::start_transport_timer(queue_pair& qp)
{
    qp.timer_running = true;
    arm({now_ps() + m_rto_ps, qp.qpn, ++qp.timer_gen, timer_kind::transport});
}

void roce_nic::stop_transport_timer(queue_pair& qp)
{
    if (!qp.timer_running) return;
    qp.timer_running = false;
    ++qp.timer_gen;  // its heap entry is dropped when it reaches the top
}

bool roce_nic::timer_live(const timer& t)
{
    switch (t.kind) {
        case timer_kind::transport: {
            const queue_pair* qp = find_qp(uint32_t(t.key));
            return qp && qp->timer_running && qp->timer_gen == t.gen;
        }
        case timer_kind::rate_loop: {
            const queue_pair* qp = find_qp(uint32_t(t.key));
            return qp && qp->loop_gen == t.gen;
        }
        case timer_kind::ack_delay: {
            auto it = m_responders.find(t.key);
            return it != m_responders.end() && it->second->rsp.ack_timer_running() &&
                   it->second->rsp.ack_deadline_ps() == t.deadline_ps;
        }
    }
    return false;
}

void roce_nic::fire(const timer& t)
{
    switch (t.kind) {
        case timer_kind::transport: {
            // Expiry: resend the whole window from the oldest outstanding PSN.
            queue_pair& qp = *find_qp(uint32_t(t.key));
            qp.timer_running = false;
            ++m_counters.rto;
            rewind_done(qp, qp.req.on_timeout());
            break;
        }
        case timer_kind::rate_loop: {
            queue_pair& qp = *find_qp(uint32_t(t.key));
            if (qp.rate.run_half())
                arm({now_ps() + qp.rate.half_interval_ps(), qp.qpn, ++qp.loop_gen,
                     timer_kind::rate_loop});
            break;
        }
        case timer_kind::ack_delay: {
            responder& r = *m_responders.at(t.key);
            if (r.rsp.on_ack_timer()) send_ack(r, false);
            break;
        }
    }
}

void roce_nic::on_timer()
{
    activity::tick();
    const uint64_t now = now_ps();
    const bool rearm = m_timers.expire(
        now, [this](const timer& t) { return timer_live(t); }, [this](const timer& t) { fire(t); });
    if (rearm) m_timer_wake.notify_at_ps(m_timers.armed());
    if (m_probe) m_probe->changed();
}

}  // namespace uetsim
