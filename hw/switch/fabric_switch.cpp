#include "hw/switch/fabric_switch.h"

#include <string>

#include "hw/common/time.h"

namespace uetsim {

switch_port::switch_port(const sc_core::sc_module_name& name, uint16_t index,
                         const egress_queue_config& cfg, const traffic_classifier& cls,
                         buffer_manager& buffers, ingress_unit& ingress, random_stream& rng,
                         const pfc_settings& pfc, packet_pool& pool)
    : sc_core::sc_module(name)
    , in("in")
    , tx("tx",
         [this, &rng]() {
             if (__builtin_expect(m_pfc.waiting(), 0)) return next_pfc();  // PFC frames first
             return m_queue.dequeue(rng.uniform());
         })
    , m_queue(cfg, cls, buffers, ingress, index)
    , m_pfc("pfc", pfc, pool, m_queue.scheduler(), [this] { tx.kick(); })
{
    m_pfc.on_watchdog([this, &pool](int t) {
        return m_queue.drop_class(uint8_t(t), [&pool](packet* p) { pool.release(p); });
    });
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
    , m_classifier(cfg.uet_policy_enabled)
    , m_rng(random_seed, std::string(basename()) + ".ecn")
    , m_buffers(ports.size(), switch_buffer_config(cfg))
    , m_ingress(ports.size())
    , m_pipeline("pipeline", [this](switch_item item) { forward(item); })
    , m_members(m_routes.member_slots())
    , m_set_formed_ps(m_routes.set_count(), UINT64_MAX)
    , m_latency(seconds(cfg.forwarding_latency_s))
{
    m_pause_generator.sw = this;
    m_pause_generator.groups = {uint8_t(1u << 0), uint8_t(1u << 1), 0, 0, 0, 0, 0, 0};
    const uint64_t limit = m_buffers.limit(false);  // RED thresholds are fractions of it
    for (size_t i = 0; i < ports.size(); ++i) {
        egress_queue_config q;
        q.trimming = cfg.trimming_enabled;
        q.nic_facing = ports[i].nic_facing;
        q.red.enabled = cfg.enable_ecn;
        q.red.ewma_weight = cfg.ewma_weight;
        q.red.min_bytes = cfg.min_threshold * double(limit);
        q.red.max_bytes = cfg.max_threshold * double(limit);
        q.red.max_probability = cfg.max_mark_probability;
        pfc_settings pfc;
        pfc.link = ports[i].link;
        pfc.frame_bytes = ports[i].pfc_frame_bytes;
        pfc.watchdog_ps = ps_from_seconds(cfg.pfc_watchdog_timeout_s);
        auto name_i = "port" + std::to_string(i);
        m_ports.push_back(std::make_unique<switch_port>(
            name_i.c_str(), uint16_t(i), q, m_classifier, m_buffers, m_ingress, m_rng, pfc, pool));
        m_ports.back()->in.on_receive([this, i](packet& p) {
            on_arrival(i, p);
            return sc_core::SC_ZERO_TIME;
        });
    }
}

void fabric_switch::on_arrival(size_t port, packet& p)
{
    auto& c = m_ports[port]->counters();
    ++c.rx_packets;
    c.rx_bytes += p.wire_bytes;
    if (__builtin_expect(p.kind == packet_kind::pfc, 0)) return receive_pfc(port, p);
    ++p.hops;
    // Classified once, at ingress: its bytes count against (port, class) until they leave.
    const uint8_t tc = m_classifier.traffic_class(p);
    m_ingress.charge(uint16_t(port), tc, egress_queue::charge(p));
    m_pipeline.push({&p, uint16_t(port), tc}, sc_core::sc_time_stamp() + m_latency);
}

void fabric_switch::receive_pfc(size_t port, packet& p)
{
    // A MAC control frame: consumed here, never buffered or forwarded.
    m_ports[port]->pfc().receive(p);
    m_pool.release(&p);
}

void fabric_switch::forward(const switch_item& item)
{
    packet* p = item.p;
    const int32_t set = m_routes.set_of(p->dst_node);
    if (set == routing_table::no_route) {
        ++m_no_route_drops;
        m_ingress.release(item.in_port, item.in_tc, egress_queue::charge(*p));
        m_pool.release(p);
        return;
    }
    const uint64_t now_ps = to_ps(sc_core::sc_time_stamp());
    const size_t member = m_ecmp.select(*p, set, m_routes.set_size(set), now_ps);
    switch_port& out = *m_ports[m_routes.member_port(set, member)];
    if (out.queue().offer(p, item.in_port, item.in_tc) == admit_result::dropped) {
        ++out.counters().tx_drops;
        m_pool.release(p);
        return;
    }
    auto& mc = m_members[m_routes.member_slot(set, member)];
    mc.bytes += p->wire_bytes;  // as admitted (a trimmed packet counts its trimmed size)
    ++mc.packets;
    if (m_set_formed_ps[size_t(set)] == UINT64_MAX) m_set_formed_ps[size_t(set)] = now_ps;
    out.tx.kick();
}

}  // namespace uetsim
