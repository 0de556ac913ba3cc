#include "hw/nic/common/nic_port.h"

#include <vector>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup_queue.h"
#include "hw/kernel/time.h"
#include "tlm/dscp.h"

namespace uetsim {

namespace {

// What ports configured alike share: their settings without the host's own address.
nic_port_config without_identity(nic_port_config c)
{
    c.host = c.ip = c.pfc.ip = 0;
    return c;
}

}  // namespace

nic_port::nic_port(const sc_core::sc_module_name& name, const nic_port_config& cfg,
                   packet_pool& pool, host_dma& dma, nic_port_client& client)
    : sc_core::sc_module(name)
    , in("in")
    , tx("tx", [this]() { return next_frame(); })
    , m_scheduler(model_scheduler::instance())
    , m_shared_cfg(share_settings(without_identity(cfg)))
    , m_cfg(*m_shared_cfg)
    , m_host(cfg.host)
    , m_ip(cfg.ip)
    , m_pool(pool)
    , m_dma(dma)
    , m_client(client)
    , m_tx_sched(cfg.egress)
    , m_rx_buf(cfg.ingress)
    , m_pfc(cfg.pfc, pool, m_arbiter, *this)
    , m_fetch("fetch",
              [this](packet* p) {
                  settle();
                  queue_data(p);
                  m_pfc.egress_changed();
                  tx.kick();
              })
    , m_rx_pipeline("rx_pipeline", [this](packet* p) { received(p); })
    , m_ack_hold("ack_hold", [this](packet* p) { push_control(p); })
    , m_control_built("control_built", [this](packet* p) { push_control(p); })
    , m_pooled(m_tx_sched.classes_mask())
    , m_egress(cfg.egress)
{
    for (int i = 0; i < k_rx_stages; ++i) {
        m_rx[i] = pipeline_stage(cfg.rx_stages[i], cfg.cycle_ps);
        m_rx_delays_only = m_rx_delays_only && m_rx[i].delay_only();
        m_rx_latency_ps += m_rx[i].latency_ps();
    }
    in.on_receive([this](packet& p) {
        settle();
        ++m_stats.rx_packets;
        m_stats.rx_bytes += p.wire_bytes;
        if (__builtin_expect(is_link_control(p.kind), 0)) return receive_control(p);
        if (__builtin_expect(p.cbfc_vc != 0, 0)) m_cbfc->arrived(p);
        const uint64_t now = sim_now_ps();
        if (!m_rx[0].has_room(now)) {
            // The MAC's receive FIFO is full: the frame is lost here; the transport recovers
            // it as any other loss.
            ++m_stats.rx_drops;
            if (__builtin_expect(p.cbfc_vc != 0, 0)) return_credit(p.cbfc_vc, p.wire_bytes, true);
            m_pool.release(&p);
            return sc_core::SC_ZERO_TIME;
        }
        // The receive buffer: releases due by now first, then this frame's pool.
        if (m_rx_buf.releases_pending()) rx_released(m_rx_buf.drain(now));
        const int cls = rx_class(p);
        const rx_admission a = m_rx_buf.arrive(cls, p.wire_bytes - k_rx_uncharged_bytes);
        if (a.send_xoff) {
            m_pfc.xoff(uint8_t(1u << cls));
            arm_rx_release();
        }
        if (!a.admitted) {
            // Its pool cannot hold it (nd-stats rx_drops): lost as on the wire.
            ++m_stats.rx_drops;
            if (__builtin_expect(p.cbfc_vc != 0, 0)) return_credit(p.cbfc_vc, p.wire_bytes, true);
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
        m_rx_pipeline.push(&p, out);
        return sc_core::SC_ZERO_TIME;
    });
    tx.on_frame_done([this] { frame_done(); });
    tx.set_deferral(this);
    if (m_rx_buf.any_pfc()) {
        // The page's refresh: pause again while the pool is at or above Xoff, else XON.
        m_pfc.on_refresh([this](int c) {
            const uint64_t now = sim_now_ps();
            m_rx_xon_pending |= m_rx_buf.drain(now);
            if (m_rx_xon_pending) m_rx_release_wake.notify_at_ps(now);
            return m_rx_buf.refresh(c);
        });
    }
}

// Received bytes released: XON for the classes whose pool drained to Xon with a pause out.
void nic_port::rx_released(uint8_t xon_classes)
{
    if (xon_classes) m_pfc.xon(xon_classes);
}

// While a pause is outstanding, releases are performed when due (an XON may follow); otherwise
// they wait until the next arrival or read needs the occupancy.
void nic_port::arm_rx_release()
{
    if (!m_rx_buf.any_pause_outstanding() || !m_rx_buf.releases_pending()) return;
    const uint64_t now = sim_now_ps();
    const uint64_t due = m_rx_buf.next_release_ps();
    m_rx_release_wake.notify_at_ps(due > now ? due : now);
}

void nic_port::on_rx_release_due()
{
    settle();
    const uint8_t xon = m_rx_xon_pending | m_rx_buf.drain(sim_now_ps());
    m_rx_xon_pending = 0;
    rx_released(xon);
    arm_rx_release();
}

uint64_t nic_port::rx_backlog(const packet& p)
{
    settle();
    const uint64_t now = sim_now_ps();
    if (m_rx_buf.releases_pending()) rx_released(m_rx_buf.drain(now));
    const uint64_t held = m_rx_buf.occupancy(rx_class(p));
    const uint64_t own = m_rx_buf.pool_bytes(rx_class(p)) ? p.wire_bytes - k_rx_uncharged_bytes : 0;
    return held > own ? held - own : 0;
}

packet* nic_port::take(ring<packet*>& q, int cls, bool data)
{
    packet* p = q.front();
    q.pop_front();
    if (data && q.empty()) m_data_waiting &= uint8_t(~(1u << cls));
    m_pfc.egress_changed();  // the class may have nothing left waiting
    m_wire.kind = p->kind;
    m_wire.data = data;
    m_wire.traffic_class = uint8_t(cls);
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
    if (m_observe_tx) *m_wire_copy = *p;
    return p;
}

packet* nic_port::take_class(int cls)
{
    // The control class's queue: its control frames ahead of its data.
    if (cls == m_cfg.control_traffic_class && !m_control_q.empty())
        return take(m_control_q, cls, false);
    return take(m_data_q[size_t(cls)], cls, true);
}

sc_core::sc_time nic_port::receive_control(packet& p)
{
    // Consumed by the MAC, ahead of the receive FIFO and never charged to a pool.
    if (p.kind == packet_kind::pfc)
        m_pfc.receive(p);
    else
        m_cbfc->receive(p);
    m_pool.release(&p);
    return sc_core::SC_ZERO_TIME;
}

void nic_port::enable_cbfc(const cbfc_settings& s)
{
    m_cbfc = std::make_unique<cbfc_unit>(
        s, m_pool, m_arbiter,
        [this](packet* f) {
            m_pfc.push_frame(f);
            tx.kick();
        },
        [this] { tx.kick(); });
    // A class on a VC never pauses its sender: credit holds it back instead.
    for (int c = 0; c < k_tc_count; ++c)
        if ((m_cbfc->classes() >> c) & 1u) m_rx_buf.disable_pfc(c);
}

void nic_port::return_credit(uint8_t vc_stamp, uint32_t wire_bytes, bool now)
{
    const int vc = vc_stamp - 1;
    const uint32_t credits = m_cbfc->settings().credits_for(wire_bytes);
    if (now || m_rx_hold_ps <= sim_now_ps())
        m_cbfc->freed(vc, credits);
    else
        m_cbfc->freed_at(vc, credits, m_rx_hold_ps);
}

// A VC without credit for its next frame stalls its classes; the scheduler picks again.
packet* nic_port::next_with_credit(uint8_t waiting, int cls)
{
    const int ctc = m_cfg.control_traffic_class;
    for (;;) {
        packet* head = cls == ctc && !m_control_q.empty() ? m_control_q.front()
                                                          : m_data_q[size_t(cls)].front();
        if (m_cbfc->admit(cls, *head)) return take_class(cls);
        const uint8_t sendable = waiting & uint8_t(~m_arbiter.blocked());
        if (!sendable) return nullptr;
        cls = choose(sendable);
    }
}

packet* nic_port::next_pfc()
{
    packet* p = m_pfc.pop();
    m_wire = sent_frame{};
    m_wire.kind = p->kind;  // a PFC frame, or a CNP the RoCE NIC queued with push_urgent()
    m_wire.wire_bytes = p->wire_bytes;
    ++m_stats.tx_packets;
    m_stats.tx_bytes += p->wire_bytes;
    m_wire_copied = false;
    return p;
}

packet* nic_port::next_frame()
{
    // The PFC queue goes ahead of every class and is never paused.
    if (__builtin_expect(m_pfc.waiting(), 0)) return next_pfc();
    // One traffic class by the EgressBufferManager's QueueSchedulingType among those with a
    // frame that PFC has not paused; the scheduler is asked only when there is a choice.
    const int ctc = m_cfg.control_traffic_class;
    uint8_t waiting = m_data_waiting;
    if (!m_control_q.empty()) waiting |= uint8_t(1u << ctc);
    if (!waiting) return nullptr;
    const uint8_t sendable = waiting & uint8_t(~m_arbiter.blocked());
    if (!sendable) return nullptr;
    const int cls = choose(sendable);
    if (__builtin_expect(m_cbfc != nullptr, 0)) return next_with_credit(waiting, cls);
    return take_class(cls);
}

// A frame end may wait when all it would do is release the frame's egress pool charge: a control
// frame whose on_sent does nothing, with nothing queued to follow it. Everything that could
// follow it (a frame queued, a pause or credit frame) goes through kick(), which queues the
// held-back frame end in its place; everything that reads the pools or queues settles first.
bool nic_port::may_defer_frame_end(uint64_t end_ps)
{
    return !m_wire.data && !is_link_control(m_wire.kind) && !m_observe_tx && m_cbfc == nullptr &&
           m_data_waiting == 0 && m_control_q.empty() && m_control_wait.empty() &&
           !m_pfc.waiting() && m_client.sent_is_silent(m_wire) && m_frame_ends.may_defer(end_ps);
}

void nic_port::frame_done()
{
    if (is_link_control(m_wire.kind)) return;  // the transport never sees PFC or CBFC frames
    const int cls = m_wire.traffic_class;
    m_egress.release(cls, m_wire.wire_bytes);
    if (!m_wire.data) m_control_reserved -= m_wire.wire_bytes;
    if (m_tx_pools) (*m_tx_pools)[size_t(cls)].released(m_wire.wire_bytes);
    if (__builtin_expect(!m_control_wait.empty(), 0) && cls == m_cfg.control_traffic_class)
        admit_waiting_control();
    if (m_wire_copied) m_client.on_transmit(*m_wire_copy);
    m_client.on_sent(m_wire);
    if (m_wire.data && __builtin_expect(m_egress.blocked() != 0, 0) &&
        m_egress.half_drained_after_release(cls))
        m_client.on_pool_free(cls);
}

bool nic_port::take_ahead(packet& p, uint64_t arrive_ps, uint64_t place_key, const on_wire& ahead)
{
    // Behind an empty wire only: the receive pipeline is a FIFO, so frames enter it in order.
    if (ahead.frames != 0) return false;
    // Only an arrival that cannot fail or send anything at its time: a transport frame into
    // receive stages that are pure delays (no FIFO to fill, no context to wait for), a pool that
    // holds it whatever arrives before it, no PFC (a pause or resume goes out at its time) and
    // no CBFC (credit is returned by the arrival's release).
    if (is_link_control(p.kind) || !m_rx_delays_only || m_rx_latency_ps == 0 ||
        m_cfg.pdc_context_lookup || m_cbfc != nullptr || m_rx_buf.any_pfc() ||
        !m_scheduler.running_ahead())
        return false;
    const int cls = rx_class(p);
    const uint32_t charge = p.wire_bytes - k_rx_uncharged_bytes;
    if (!m_rx_buf.surely_admits(cls, m_ahead_bytes[size_t(cls)] + charge)) return false;
    m_ahead.push_back({&p, arrive_ps, place_key, charge, cls});
    m_ahead_bytes[size_t(cls)] += charge;
    m_rx_pipeline.push(&p, arrive_ps + m_rx_latency_ps);
    if (!m_ahead_owed) {
        m_ahead_owed = true;
        m_scheduler.owe(this);
    }
    return true;
}

void nic_port::settle_arrivals()
{
    settle_before(m_scheduler.current_ps(), m_scheduler.current_key());
}

bool nic_port::settle_before(uint64_t at_ps, uint64_t key)
{
    while (!m_ahead.empty() &&
           wakeup_queue::before(m_ahead.front().arrive_ps, m_ahead.front().place, at_ps, key)) {
        const ahead_arrival a = m_ahead.front();
        m_ahead.pop_front();
        apply_arrival(a);
    }
    m_ahead_owed = !m_ahead.empty();
    return m_ahead_owed;
}

// What in.on_receive does at the frame's arrival, at its time: the receive pipeline already
// holds it (pushed when it was taken).
void nic_port::apply_arrival(const ahead_arrival& a)
{
    ++m_stats.rx_packets;
    m_stats.rx_bytes += a.p->wire_bytes;
    if (m_rx_buf.releases_pending()) m_rx_buf.drain(a.arrive_ps);  // no PFC: no XON to send
    m_rx_buf.arrive(a.cls, a.charge);                              // surely admitted
    m_ahead_bytes[size_t(a.cls)] -= a.charge;
    pass_through_delays(m_rx, k_rx_stages, a.arrive_ps, m_rx_latency_ps);  // the stages' counts
}

void nic_port::recall_ahead(const std::function<void(packet*)>& lost)
{
    settle();  // those that arrived before now did
    // The receive pipeline's last items are these frames: nothing arrived behind them.
    std::vector<packet*> gone;
    while (!m_ahead.empty()) {
        const ahead_arrival& a = m_ahead.back();
        m_ahead_bytes[size_t(a.cls)] -= a.charge;
        gone.push_back(m_rx_pipeline.pop_back());
        m_ahead.pop_back();
    }
    for (auto it = gone.rbegin(); it != gone.rend(); ++it) lost(*it);
}

void nic_port::received(packet* p)
{
    settle();
    // The frame leaves the receive buffer once processed, or when the client says (data: its
    // write to the host done).
    const int cls = rx_class(*p);
    const uint32_t charge = p->wire_bytes - k_rx_uncharged_bytes;
    const uint64_t now = sim_now_ps();
    if (p->kind != packet_kind::connection) {
        m_rx_hold_ps = 0;
        // The credit goes back when the buffer lets the frame go (read before the client
        // releases the frame).
        const uint8_t credit_vc = p->cbfc_vc;
        const uint32_t credit_bytes = p->wire_bytes;
        if (__builtin_expect(credit_vc != 0, 0)) p->cbfc_vc = 0;
        m_client.on_receive(p);
        if (__builtin_expect(credit_vc != 0, 0)) return_credit(credit_vc, credit_bytes, false);
        if (m_rx_hold_ps > now) {
            m_rx_buf.release_at(cls, charge, m_rx_hold_ps);
            arm_rx_release();
        } else {
            rx_released(m_rx_buf.release(cls, charge) ? uint8_t(1u << cls) : uint8_t(0));
        }
        return;
    }
    rx_released(m_rx_buf.release(cls, charge) ? uint8_t(1u << cls) : uint8_t(0));
    if (__builtin_expect(p->cbfc_vc != 0, 0)) return_credit(p->cbfc_vc, p->wire_bytes, true);
    ++m_cm_received;
    const cm_fields m = p->cm;
    const uint32_t src = p->src_node;
    m_pool.release(p);
    m_dma.connection_message_received(src, m);
}

// Room freed in the control class's pool: the control frames waiting for it go, in order,
// while each fits.
void nic_port::admit_waiting_control()
{
    while (!m_control_wait.empty() &&
           m_egress.fits(m_cfg.control_traffic_class, m_control_wait.front()->wire_bytes)) {
        packet* p = m_control_wait.front();
        m_control_wait.pop_front();
        queue_control(p);
    }
}

nic_pool_sample nic_port::tx_sample(int c) const
{
    settle();
    const nic_pool_counters n = m_tx_pools ? (*m_tx_pools)[size_t(c)] : nic_pool_counters{};
    return n.sample(m_cfg.egress.pool_bytes(c), tx_occupancy(c), 0);
}

void nic_port::start_buffer_stats_interval(uint64_t now_ps)
{
    settle();
    m_rx_buf.start_interval(now_ps);
    if (m_tx_pools)
        for (int c = 0; c < k_tc_count; ++c)
            (*m_tx_pools)[size_t(c)].start_interval(tx_occupancy(c));
}

void nic_port::send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m)
{
    packet* c = m_pool.acquire();
    c->kind = packet_kind::connection;
    c->src_node = uint16_t(m_host);
    c->dst_node = uint16_t(dst_host);
    c->wire_bytes = wire_size(packet_kind::connection, 0);
    c->ip.src = m_ip;
    c->ip.dst = dst_ip;
    c->ip.dscp = dscp::make(m_cfg.control_traffic_class, dscp::role::control);
    c->ip.ecn = ecn::ect1;
    c->cm = m;
    c->udp.src_port = wire::cm_udp_port;
    c->udp.dst_port = wire::cm_udp_port;
    push_control(c);
}

}  // namespace uetsim
