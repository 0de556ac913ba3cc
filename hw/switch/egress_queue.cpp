#include "hw/switch/egress_queue.h"

namespace uetsim {

admit_result egress_queue::admit(packet* p, uint16_t in_port, uint8_t tc)
{
    const uint8_t in_tc = tc;
    const uint64_t arrived = charge(*p);  // what the ingress unit holds for it
    uint8_t pool = m_cls.pool(tc);
    if (fits(*p, arrived, in_port, tc, pool)) {
        enqueue(p, tc, pool, arrived, in_port, in_tc);
        return admit_result::queued;
    }
    if (m_cfg.trimming && p->is_data() && !p->trimmed && dscp::is_trimmable(p->ip.dscp)) {
        p->trim(m_cfg.nic_facing);
        tc = m_cls.traffic_class(*p);
        pool = m_cls.pool(tc);
        const uint64_t c = charge(*p);
        if (fits(*p, c, in_port, tc, pool)) {
            ++m_stats.trimmed;
            m_ingress.release(in_port, in_tc, arrived - c);  // the cut payload never stays
            enqueue(p, tc, pool, c, in_port, in_tc);
            return admit_result::trimmed;
        }
    }
    ++m_stats.dropped;
    m_ingress.release(in_port, in_tc, arrived);
    return admit_result::dropped;
}

void egress_queue::enqueue(packet* p, uint8_t tc, uint8_t pool, uint64_t c, uint16_t in_port,
                           uint8_t in_tc)
{
    m_buffers.charge(m_port, pool, c);
    ++m_packets;
    ++m_stats.admitted;
    m_red[pool].on_admit(m_cfg.red, m_buffers.port_pool_bytes(m_port, pool));
    m_fifo[tc].push_back({p, pool, in_tc, in_port});
    m_waiting |= uint8_t(1u << tc);
}

packet* egress_queue::dequeue(double draw)
{
    packet* p = next(draw);
    if (m_probe) m_probe->changed();
    return p;
}

packet* egress_queue::next(double draw)
{
    // Called when the port is free again: the frame that was serialising has left, so its
    // charge is released now (charges are held until serialization completes).
    release_sent();
    const int tc = m_scheduler.pick(false, m_waiting);  // the switch port has no control slot
    if (tc == port_scheduler::none) return nullptr;
    auto& q = m_fifo[size_t(tc)];
    entry e = q.front();
    q.pop_front();
    if (q.empty()) m_waiting &= uint8_t(~(1u << tc));
    m_tx_charge = charge(*e.p);
    m_tx_pool = e.pool;
    m_tx_in_tc = e.in_tc;
    m_tx_in_port = e.in_port;
    --m_packets;
    const uint8_t ecn_field = e.p->ip.ecn;
    if ((ecn_field == ecn::ect0 || ecn_field == ecn::ect1) &&
        m_red[e.pool].should_mark(m_cfg.red, draw)) {
        e.p->ip.ecn = ecn::ce;
        ++m_stats.ecn_marked;
        ++m_stats.ecn_marked_tc[size_t(tc)];
    }
    return e.p;
}

}  // namespace uetsim
