#include "hw/switch/fabric_switch.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup_queue.h"
#include "hw/kernel/time.h"

namespace uetsim {

switch_port::switch_port(const std::string& name, uint16_t index, const egress_queue_config& cfg,
                         bool nic_facing, const traffic_classifier& cls, buffer_manager& buffers,
                         random_stream& rng, const pfc_settings& pfc, packet_pool& pool,
                         deferred_frame_ends& frame_ends, switch_port_owner& owner)
    : in((name + "_in").c_str())
    , tx((name + "_tx").c_str(),
         [this, &rng]() {
             if (__builtin_expect(m_pfc.waiting(), 0)) return next_pfc();  // PFC frames first
             return m_queue.dequeue(rng.uniform());
         })
    , m_buffers(buffers)
    , m_frame_ends(frame_ends)
    , m_owner(owner)
    , m_index(index)
    , m_queue(cfg, nic_facing, cls, buffers, index)
    , m_pool(pool)
    , m_pfc(pfc, pool, m_queue.scheduler(), *this)
{
    tx.set_deferral(this);
}

uint64_t switch_port::pfc_watchdog_drop(int tc)
{
    return m_queue.drop_class(uint8_t(tc), [this](packet* p) { m_pool.release(p); });
}

// The end of a frame that nothing waits to follow only releases the frame's charges (and draws
// the switch's ECN number, unused): held back, it is done before anything the switch does next,
// in the order of the wake-ups, so that every decision and every buffer record sees what it
// would have. Not while a pause is out (a release may send the resume, which has its time on
// the wire) nor while the queue is traced (its waveform has the release's time).
bool switch_port::may_defer_frame_end(uint64_t end_ps)
{
    // With CBFC a release returns credit at its time: frame ends run when due.
    return m_queue.empty() && !m_pfc.waiting() && !m_queue.traced() &&
           !m_buffers.accounting().any_paused() && !m_buffers.returns_credit() &&
           m_frame_ends.may_defer(end_ps);
}

void switch_port::enable_cbfc(const cbfc_settings& s, packet_pool& pool)
{
    m_cbfc = std::make_unique<cbfc_unit>(
        s, pool, m_queue.scheduler(),
        [this](packet* f) {
            m_owner.settle();
            m_pfc.push_frame(f);
            tx.kick();
        },
        [this] {
            m_owner.settle();
            tx.kick();
        });
    m_queue.set_credit_gate(m_cbfc.get());
}

packet* switch_port::next_pfc()
{
    m_queue.release_transmitted();  // the frame that was serialising has left
    return m_pfc.pop();
}

fabric_switch::fabric_switch(const sc_core::sc_module_name& name, uint32_t node_id,
                             const switch_config& cfg, routing_table routes,
                             const std::vector<port_spec>& ports, uint64_t random_seed,
                             packet_pool& pool)
    : sc_core::sc_module(name)
    , m_node_id(node_id)
    , m_routes(std::move(routes))
    , m_ecmp(cfg.hash_method, switch_salt(node_id, random_seed))
    , m_pool(pool)
    , m_classifier(cfg.buffer.uet_policy_enabled)
    , m_rng(random_seed, std::string(basename()) + ".ecn")
    , m_port_specs(ports)
    // Every port of a switch has a link (the topology creates ports per link): all are connected.
    , m_buffers(derive_shared_buffer_layout(cfg.buffer, uint32_t(ports.size()),
                                            cbfc_reserved_bytes(ports)),
                ports.size())
    , m_ingress(m_buffers)
    , m_pipeline([this] { exits_due(); }, ports.size(), ps_from_seconds(cfg.forwarding_latency_s))
    , m_scheduler(model_scheduler::instance())
    , m_members(m_routes.member_slots())
    , m_set_formed_ps(m_routes.set_count(), UINT64_MAX)
{
    // The shared buffer's Xoff/Xon name a pool; its priority group is the pool's lossless
    // classes, one pause frame per class.
    m_pause_generator.sw = this;
    m_frame_ends.list_through([this] { list_with_scheduler(); });
    // What all ports can bring in while a frame taken as it starts is on its way (at most its
    // serialization plus the longest delay): each link what its rate carries in that time plus
    // what its wire holds already, and a frame (take_ahead's pool margin).
    constexpr double k_largest_frame_bytes = 16384;
    double slowest_bps = 0, longest_ps = 0;
    for (const port_spec& s : ports) {
        slowest_bps = slowest_bps == 0 ? s.link.rate_bps : std::min(slowest_bps, s.link.rate_bps);
        longest_ps = std::max(longest_ps, double(s.link.delay_ps));
    }
    const double window_ps = longest_ps + k_largest_frame_bytes * 8e12 / std::max(slowest_bps, 1.0);
    double margin = 0;
    for (const port_spec& s : ports)
        margin +=
            s.link.rate_bps / 8e12 * (double(s.link.delay_ps) + window_ps) + k_largest_frame_bytes;
    m_buffers.set_arrival_margin(uint64_t(std::ceil(margin)));
    for (uint8_t pool = 0; pool < shared_buffer_pools; ++pool)
        m_pause_generator.groups[pool] = m_buffers.layout().pools[pool].lossless_classes;
    m_buffers.attach(&m_pause_generator);
    // RED per pool, its band a fraction of the pool's static egress limit (X3); lossless
    // classes are marked against the same band.
    egress_queue_config& q = m_queue_cfg;
    q.trimming = cfg.buffer.trimming_enabled;
    for (uint8_t pool = 0; pool < shared_buffer_pools; ++pool) {
        const ecn_band band =
            m_buffers.layout().ecn_thresholds(pool, cfg.min_threshold, cfg.max_threshold);
        red_params& r = q.red[pool];
        r.enabled = cfg.enable_ecn;
        r.ewma_weight = cfg.ewma_weight;
        r.min_bytes = double(band.min_bytes);
        r.max_bytes = double(band.max_bytes);
        r.max_probability = cfg.max_mark_probability;
    }
    for (size_t i = 0; i < ports.size(); ++i) {
        pfc_settings pfc;
        pfc.link = ports[i].link;
        // 64 B until the fabric sets its link's NIC's size (pfc_unit::set_frame_bytes).
        pfc.watchdog_ps = ps_from_seconds(cfg.pfc_watchdog_timeout_s);
        auto name_i = "port" + std::to_string(i);
        m_ports.push_back(std::make_unique<switch_port>(
            name_i, uint16_t(i), q, ports[i].nic_facing, m_classifier, m_buffers, m_rng, pfc, pool,
            m_frame_ends, static_cast<switch_port_owner&>(*this)));
        // A port on a CBFC link takes its arrivals through the credit path, chosen here so
        // that no other port tests for credit.
        if (ports[i].cbfc.enabled)
            m_ports.back()->in.on_receive([this, i](packet& p) {
                on_cbfc_arrival(i, p);
                return sc_core::SC_ZERO_TIME;
            });
        else
            m_ports.back()->in.on_receive([this, i](packet& p) {
                on_arrival(i, p);
                return sc_core::SC_ZERO_TIME;
            });
    }
    for (size_t i = 0; i < ports.size(); ++i)
        if (ports[i].cbfc.enabled) {
            m_ports[i]->enable_cbfc(ports[i].cbfc, pool);
            m_buffers.attach_credit_return(this);
        }
    if (cfg.lb_method == load_balancing_method::flowlet) {
        // Ties draw from a stream of the switch's own, seeded from RandomSeed and its name.
        const flowlet_config fc{ps_from_seconds(cfg.flowlet_gap_s), cfg.flowlet_pfc_aware};
        m_flowlet = std::make_unique<flowlet_selector>(
            cfg.hash_method, m_ecmp.salt(), fc, m_routes, m_view,
            random_stream(random_seed, std::string(basename()) + ".flowlet"));
    }
}

void fabric_switch::on_arrival(size_t port, packet& p)
{
    settle();
    auto& c = m_ports[port]->live_counters();
    ++c.rx_packets;
    c.rx_bytes += p.wire_bytes;
    if (__builtin_expect(is_link_control(p.kind), 0)) return receive_control(port, p);
    ++p.hops;
    // Classified once, at ingress, and charged to the shared buffer until it leaves.
    const uint8_t tc = m_classifier.traffic_class(p);
    const ingress_decision d = m_ingress.admit(uint16_t(port), tc, p);
    // A pause is out: a release may send its resume from now on, so frame ends run when due.
    if (__builtin_expect(d.xoff.send, 0)) m_frame_ends.realize_all();
    if (!d.admitted()) {
        ++c.rx_drops;
        m_pool.release(&p);
        return;
    }
    // In the order of arrival: this link delivery's place among same-time wake-ups.
    m_pipeline.push({&p, d.tag}, m_scheduler.current_key());
}

void fabric_switch::sample_buffer_occupancy(bool aggregate, bool per_port)
{
    m_sample_aggregate = m_sample_aggregate || aggregate;
    m_sample_per_port = m_sample_per_port || per_port;
    if (!m_sample_aggregate && !m_sample_per_port) return;
    std::vector<bool> uplink(m_port_specs.size());
    for (size_t i = 0; i < m_port_specs.size(); ++i) uplink[i] = m_port_specs[i].uplink;
    m_buffers.sample_occupancy(std::make_unique<buffer_occupancy>(
        std::move(uplink), m_sample_aggregate, m_sample_per_port));
}

void fabric_switch::receive_control(size_t port, packet& p)
{
    // A MAC control frame: consumed here, never buffered or forwarded.
    if (p.kind == packet_kind::pfc)
        m_ports[port]->pfc().receive(p);
    else
        m_ports[port]->cbfc()->receive(p);
    m_pool.release(&p);
}

// An arrival on a port with CBFC: a frame that spent credit of its VC on the link is always
// admitted, charged to the port's credit space, its credits returned when it leaves; any other
// frame (a class without a VC) takes the ordinary path.
void fabric_switch::on_cbfc_arrival(size_t port, packet& p)
{
    if (p.cbfc_vc == 0 || is_link_control(p.kind)) return on_arrival(port, p);
    settle();
    auto& c = m_ports[port]->live_counters();
    ++c.rx_packets;
    c.rx_bytes += p.wire_bytes;
    ++p.hops;
    const uint8_t tc = m_classifier.traffic_class(p);
    m_ports[port]->cbfc()->arrived(p);
    const uint8_t vc = uint8_t(p.cbfc_vc - 1);
    p.cbfc_vc = 0;
    const ingress_decision d = m_buffers.on_credit_ingress(uint16_t(port), tc, buffer_charge(p), vc,
                                                           m_ports[port]->cbfc()->credits_of(p));
    m_pipeline.push({&p, d.tag}, m_scheduler.current_key());
}

uint64_t fabric_switch::cbfc_reserved_bytes(const std::vector<port_spec>& ports)
{
    uint64_t bytes = 0;
    for (const port_spec& s : ports)
        if (s.cbfc.enabled) bytes += uint64_t(s.cbfc.vcs()) * s.cbfc.vc_buffer_bytes();
    return bytes;
}

// A frame taken as it starts on the link of `port` (ahead_receiver.h): only when its arrival
// can neither fail nor send anything (shared_buffer_accounting::promise_admission: its pool
// holds it with the arrival margin, a lossless class stays short of Xoff), on a port without
// CBFC, with a forwarding latency, while the model runs ahead. It enters the pipeline now, for its
// arrival time plus the latency, in its arrival's place; the arrival itself (counters, the ingress
// charge, the buffer records' sample) is applied at its time by settle().
bool fabric_switch::take_ahead(uint16_t port, packet& p, uint64_t arrive_ps, uint64_t place,
                               uint64_t bytes_before)
{
    if (is_link_control(p.kind) || m_ports[port]->cbfc() != nullptr ||
        m_pipeline.latency_ps() == 0 || !m_scheduler.running_ahead())
        return false;
    const uint8_t tc = m_classifier.traffic_class(p);
    const uint32_t bytes = buffer_charge(p);
    if (!m_buffers.promise_admission(port, tc, bytes, bytes_before)) return false;
    const switch_tag tag{port, tc, m_buffers.layout().pool_of(tc), bytes, false};
    m_pipeline.push_ahead(port, {&p, tag}, arrive_ps, place);
    list_with_scheduler();
    return true;
}

void fabric_switch::list_with_scheduler()
{
    if (m_listed) return;
    m_listed = true;
    m_scheduler.owe(this);
}

bool fabric_switch::settle_before(uint64_t at_ps, uint64_t key)
{
    const uint64_t exit_place = m_pipeline.place_key();
    const uint64_t latency = m_pipeline.latency_ps();
    for (;;) {
        // The next of the held arrivals and held exits, if before (at_ps, key).
        bool arrival = false, exit = false;
        timed_place at{};
        if (m_pipeline.arrivals_waiting()) {
            at = m_pipeline.next_arrival().arrival;
            arrival = wakeup_queue::before(at.ps, at.place, at_ps, key);
        }
        if (!m_held_exits.empty()) {
            const timed_place e{m_held_exits.front().arrival.ps + latency, exit_place};
            if (wakeup_queue::before(e.ps, e.place, at_ps, key) &&
                (!arrival || wakeup_queue::before(e.ps, e.place, at.ps, at.place))) {
                at = e;
                arrival = false;
                exit = true;
            }
        }
        if (!arrival && !exit) break;
        // The frame ends held back before it first: all change the shared buffer.
        if (m_frame_ends.holds_before(at.ps, at.place)) m_frame_ends.settle_before(at.ps, at.place);
        if (exit) {
            apply_held_exit();
        } else {
            const switch_item a = m_pipeline.next_arrival().item;
            m_pipeline.arrival_applied();
            apply_arrival(a);
        }
    }
    const bool frame_ends = m_frame_ends.holds_before(at_ps, key)
                                ? m_frame_ends.settle_before(at_ps, key)
                                : m_frame_ends.holding();
    m_listed = frame_ends || m_pipeline.arrivals_waiting() || !m_held_exits.empty();
    return m_listed;
}

// A held exit at its time: what the pipeline's wake-up would have done then.
void fabric_switch::apply_held_exit()
{
    const held_exit h = m_held_exits.front();
    m_held_exits.pop_front();
    const uint64_t exit_ps = h.arrival.ps + m_pipeline.latency_ps();
    const sim_clock_as_of then(exit_ps);
    admit_to(h.item, exit_ps, h.route.set, h.route.member);
}

// What on_arrival does, at the frame's arrival time; the pipeline holds it already.
void fabric_switch::apply_arrival(const switch_item& a)
{
    auto& c = m_ports[a.tag.in_port]->live_counters();
    ++c.rx_packets;
    c.rx_bytes += a.p->wire_bytes;
    ++a.p->hops;
    const ingress_decision d = m_buffers.on_promised_ingress(a.tag.in_port, a.tag.tc, a.tag.bytes);
    if (!d.admitted() || d.xoff.send || d.tag.headroom)
        throw std::logic_error(std::string(name()) +
                               ": an arrival taken ahead was not admitted as promised");
}

void fabric_switch::recall_ahead(uint16_t port, const std::function<void(packet*)>& lost)
{
    settle();                   // those that arrived before now did
    std::vector<packet*> gone;  // in arrival order
    m_pipeline.recall(port, [&](const switch_item& item) {
        m_buffers.break_promise(port, item.tag.tc, item.tag.bytes);
        gone.push_back(item.p);
    });
    for (packet* p : gone) lost(p);
}

fabric_switch::~fabric_switch()
{
    if (m_listed) m_scheduler.forget(this);
}

void fabric_switch::exits_due()
{
    activity::tick();
    settle();  // the arrivals and held exits before now, the exiting frames' among them
    const uint64_t now = sim_now_ps();
    const uint64_t latency = m_pipeline.latency_ps();
    m_exiting = true;
    for (;;) {
        // Held exits due now too, in arrival order with the pipeline's.
        const bool held = !m_held_exits.empty() && m_held_exits.front().arrival.ps + latency <= now;
        const bool due = m_pipeline.exit_due(now);
        if (held && (!due || m_held_exits.front().arrival < m_pipeline.next_exit().arrival)) {
            const held_exit h = m_held_exits.front();
            m_held_exits.pop_front();
            admit_to(h.item, now, h.route.set, h.route.member);
        } else if (due) {
            const auto& e = m_pipeline.next_exit();
            const switch_item item = e.item;
            // hold_exits() chose its route already (the same choice).
            const bool routed = e.arrival == m_blocked_exit && m_blocked_route.port != no_port;
            m_pipeline.exited();
            if (routed)
                admit_to(item, now, m_blocked_route.set, m_blocked_route.member);
            else
                forward(item, now);
        } else {
            break;
        }
    }
    m_exiting = false;
    hold_exits();
    m_pipeline.rearm();
}

// The egress port a frame leaves by, if it has a route (the choice is a pure function of the
// packet: hold_exits() asks only then).
fabric_switch::route_choice fabric_switch::egress_of(const switch_item& item)
{
    route_choice r;
    r.set = m_routes.set_of(item.p->dst_node);
    if (r.set == routing_table::no_route) return r;
    r.member = uint16_t(m_ecmp.select(*item.p, item.tag.tc, r.set, m_routes.set_size(r.set), 0));
    r.port = m_routes.member_port(r.set, r.member);
    return r;
}

// An exit whose egress port is busy past it only queues the frame there (the port's kick
// finds it sending): held back, it is done in order with the switch's other held work before
// anything uses the switch, at the latest by that port's frame end, which then pulls it.
// From the front of the pipeline while that holds; the pipeline's wake-up goes to the first
// exit that does not (docs/performance.md, "Held-back pipeline exits").
void fabric_switch::hold_exits()
{
    if (m_flowlet || !m_ecmp.pure() || m_pipeline.latency_ps() == 0 || !m_scheduler.running_ahead())
        return;
    const uint64_t latency = m_pipeline.latency_ps();
    bool held = false;
    while (!m_pipeline.empty() && m_pipeline.next_exit_arrived()) {
        const auto& e = m_pipeline.next_exit();
        const uint64_t exit_ps = e.arrival.ps + latency;
        if (!m_scheduler.may_defer(exit_ps)) break;
        const route_choice r = e.arrival == m_blocked_exit ? m_blocked_route : egress_of(e.item);
        switch_port* out = r.port == no_port ? nullptr : m_ports[r.port].get();
        if (!out || !out->tx.busy_past(exit_ps) || out->queue().traced() || out->cbfc()) {
            m_blocked_exit = e.arrival;  // until its port starts a frame
            m_blocked_route = r;
            break;
        }
        // Its end runs as a wake-up: it settles the exit and pulls the frame.
        if (out->tx.frame_end().deferred()) out->tx.realize_frame_end();
        m_held_exits.push_back({e.arrival, e.item, r});
        m_pipeline.exited();
        held = true;
    }
    if (!held) return;
    list_with_scheduler();
    m_pipeline.rearm();
}

void fabric_switch::forward(const switch_item& item, uint64_t now_ps)
{
    packet* p = item.p;
    const int32_t set = m_routes.set_of(p->dst_node);
    if (set == routing_table::no_route) {
        ++m_no_route_drops;
        m_buffers.release_ingress(item.tag);
        m_pool.release(p);
        return;
    }
    const size_t members = m_routes.set_size(set);
    const size_t member = m_flowlet ? m_flowlet->select(*p, item.tag.tc, set, members, now_ps)
                                    : m_ecmp.select(*p, item.tag.tc, set, members, now_ps);
    admit_to(item, now_ps, set, member);
}

// Into the egress queue of the member chosen (for a held exit, chosen when it was held: the
// same choice, a pure function of the packet).
void fabric_switch::admit_to(const switch_item& item, uint64_t now_ps, int32_t set, size_t member)
{
    packet* p = item.p;
    switch_port& out = *m_ports[m_routes.member_port(set, member)];
    if (out.queue().offer(p, item.tag) == admit_result::dropped) {
        ++out.live_counters().tx_drops;
        m_pool.release(p);
        return;
    }
    out.pfc().egress_changed();  // a paused class may now hold a frame back
    if (m_flowlet) m_flowlet->admitted(now_ps);
    auto& mc = m_members[m_routes.member_slot(set, member)];
    mc.bytes += p->wire_bytes;  // as admitted (a trimmed packet counts its trimmed size)
    ++mc.packets;
    if (m_set_formed_ps[size_t(set)] == UINT64_MAX) m_set_formed_ps[size_t(set)] = now_ps;
    out.tx.kick();
}

}  // namespace uetsim
