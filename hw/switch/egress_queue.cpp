#include "hw/switch/egress_queue.h"

namespace uetsim {

admit_result egress_queue::admit(packet* p, switch_tag& tag)
{
    uint8_t tc = tag.tc;
    uint32_t c = tag.bytes;  // what the ingress charge holds for it
    // The trimmable-retransmission codepoint may use 1.5x a fixed limit (UET policy only).
    bool rtx = dscp::role_of(p->ip.dscp) == dscp::role::trimmable_rtx;
    admit_result result = admit_result::queued;
    if (m_cfg.trimming && p->is_data() && !p->trimmed && dscp::is_trimmable(p->ip.dscp) &&
        m_buffers.egress_refusal(m_port, tc, c, rtx) != buffer_drop::none) {
        // Over the limit: cut to the headers and offer again in the trimmed class; the cut
        // payload never stays, so the ingress charge shrinks with it.
        p->trim(m_nic_facing);
        tc = m_cls.traffic_class(*p);
        c = buffer_charge(*p);
        m_buffers.shrink_ingress(tag, c);
        rtx = false;  // a trimmed header has the trimmed role, no allowance
        result = admit_result::trimmed;
    }
    const egress_decision d = m_buffers.on_egress(tag, m_port, tc, c, rtx);
    if (!d.admitted()) {
        ++m_stats.dropped;
        return admit_result::dropped;
    }
    if (result == admit_result::trimmed) ++m_stats.trimmed;
    ++m_packets;
    ++m_stats.admitted;
    const uint8_t pool = d.charge.pool;
    m_red[pool].on_admit(m_cfg.red[pool], m_buffers.egress_bytes(m_port, pool));
    m_fifo[tc].push_back({p, tag, d.charge});
    m_waiting |= uint8_t(1u << tc);
    return result;
}

packet* egress_queue::dequeue(double draw)
{
    // A port with CBFC is known before the run: one test here, none in the pick.
    packet* p = __builtin_expect(m_gate != nullptr, 0) ? next_with_credit(draw) : next(draw);
    if (m_probe) m_probe->changed();
    return p;
}

packet* egress_queue::next(double draw)
{
    // Called when the port is free again: the frame that was serialising has left, so its
    // charges are released now (held until serialization completes); a resume may follow.
    release_sent();
    const int tc = m_scheduler.pick(false, m_waiting);  // the switch port has no control slot
    if (tc == port_scheduler::none) return nullptr;
    return take(tc, draw);
}

// CBFC: a class whose VC lacks credit for its head frame stalls; the others may pass.
packet* egress_queue::next_with_credit(double draw)
{
    release_sent();
    int tc = m_scheduler.pick(false, m_waiting);
    while (tc != port_scheduler::none && !m_gate->admit(tc, *m_fifo[size_t(tc)].front().p))
        tc = m_scheduler.pick(false, m_waiting);
    if (tc == port_scheduler::none) return nullptr;
    return take(tc, draw);
}

packet* egress_queue::take(int tc, double draw)
{
    auto& q = m_fifo[size_t(tc)];
    // The charges are copied whole, in place, before the entry leaves its ring.
    const entry& e = q.front();
    packet* p = e.p;
    const uint8_t pool = e.charge.pool;
    m_tx_tag = e.tag;
    m_tx_charge = e.charge;
    q.pop_front();
    if (q.empty()) m_waiting &= uint8_t(~(1u << tc));
    m_tx_held = true;
    --m_packets;
    const uint8_t ecn_field = p->ip.ecn;
    if ((ecn_field == ecn::ect0 || ecn_field == ecn::ect1) &&
        m_red[pool].should_mark(m_cfg.red[pool], draw)) {
        p->ip.ecn = ecn::ce;
        ++m_stats.ecn_marked;
        ++m_stats.ecn_marked_tc[size_t(tc)];
    }
    return p;
}

}  // namespace uetsim
