#include "hw/switch/shared_buffer_accounting.h"

namespace uetsim {

const char* to_string(buffer_drop d)
{
    switch (d) {
        case buffer_drop::none:
            return "none";
        case buffer_drop::headroom:
            return "headroom";
        case buffer_drop::ingress_pool:
            return "ingress_pool";
        case buffer_drop::egress_limit:
            return "egress_limit";
        case buffer_drop::egress_pool:
            return "egress_pool";
    }
    return "?";
}

shared_buffer_accounting::shared_buffer_accounting(const shared_buffer_layout& layout, size_t ports)
    : m_layout(layout)
    , m_occupancy(ports * shared_buffer_pools, 0)
    , m_headroom(ports * shared_buffer_pools, 0)
    , m_egress(ports * shared_buffer_pools, 0)
    , m_paused(ports * shared_buffer_pools, false)
{
}

ingress_decision shared_buffer_accounting::on_ingress(uint16_t port, uint8_t tc, uint32_t bytes)
{
    ingress_decision d;
    const uint8_t pool = m_layout.pool_of(tc);
    const size_t s = slot(port, pool);
    d.tag = {port, tc, pool, bytes, false};

    if (m_layout.lossless(tc)) {
        if (m_paused[s]) {
            // The port has paused its sender: what is still in flight goes to headroom, which
            // is not part of the pool and is not checked against it.
            if (m_headroom[s] + bytes > m_layout.pools[pool].headroom_limit_bytes) {
                d.drop = buffer_drop::headroom;
                ++m_stats.dropped_headroom;
                return d;
            }
            m_headroom[s] += bytes;
            d.tag.headroom = true;
            ++m_stats.admitted;
            return d;
        }
        // Xoff is checked before the charge: the packet that crosses it is still admitted.
        if (m_occupancy[s] + bytes > m_layout.xoff_bytes) {
            m_paused[s] = true;
            d.xoff = {true, port, pool, m_layout.pools[pool].lossless_classes};
            ++m_stats.xoff_sent;
        }
    }
    // Lossless (not paused) and lossy alike: the pool and the port's occupancy; over the pool's
    // size the charge is rolled back and the packet dropped, whatever its class.
    if (m_pool_ingress[pool] + bytes > m_layout.pools[pool].bytes) {
        d.drop = buffer_drop::ingress_pool;
        ++m_stats.dropped_ingress_pool;
        return d;
    }
    m_pool_ingress[pool] += bytes;
    m_occupancy[s] += bytes;
    ++m_stats.admitted;
    return d;
}

buffer_drop shared_buffer_accounting::egress_refusal(uint16_t out_port, uint8_t tc, uint32_t bytes,
                                                     bool trimmable_rtx) const
{
    if (m_layout.lossless(tc)) return buffer_drop::none;
    // Two bounds: the port's queue limit for the pool, and the pool's size at egress.
    const uint8_t pool = m_layout.pool_of(tc);
    const double limit = m_layout.egress_queue_limit(pool, m_pool_egress[pool], trimmable_rtx);
    if (double(m_egress[slot(out_port, pool)] + bytes) > limit) return buffer_drop::egress_limit;
    if (m_pool_egress[pool] + bytes > m_layout.pools[pool].bytes) return buffer_drop::egress_pool;
    return buffer_drop::none;
}

egress_decision shared_buffer_accounting::on_egress(const switch_tag& tag, uint16_t out_port,
                                                    uint8_t tc, uint32_t bytes, bool trimmable_rtx)
{
    egress_decision d;
    d.drop = egress_refusal(out_port, tc, bytes, trimmable_rtx);
    if (!d.admitted()) {
        ++(d.drop == buffer_drop::egress_limit ? m_stats.dropped_egress_limit
                                               : m_stats.dropped_egress_pool);
        release_ingress(tag);
        return d;
    }
    const uint8_t pool = m_layout.pool_of(tc);
    m_egress[slot(out_port, pool)] += bytes;
    m_pool_egress[pool] += bytes;
    d.charge = {out_port, pool, bytes};
    return d;
}

void shared_buffer_accounting::shrink_ingress(switch_tag& tag, uint32_t bytes)
{
    // Only lossy packets are trimmed (trimming excludes PFC), so the cut comes off the occupancy.
    const uint32_t cut = tag.bytes - bytes;
    const size_t s = slot(tag.in_port, tag.pool);
    if (tag.headroom) {
        m_headroom[s] -= cut;
    } else {
        m_occupancy[s] -= cut;
        m_pool_ingress[tag.pool] -= cut;
    }
    tag.bytes = bytes;
}

void shared_buffer_accounting::release_ingress(const switch_tag& tag)
{
    const size_t s = slot(tag.in_port, tag.pool);
    uint64_t rest = tag.bytes;
    if (m_layout.lossless(tag.tc)) {
        // Headroom is given back first, whichever bucket this packet was charged to, so it is
        // ready for the next pause; only the remainder lowers the occupancy (and the pool).
        const uint64_t h = rest < m_headroom[s] ? rest : m_headroom[s];
        m_headroom[s] -= h;
        rest -= h;
    }
    m_occupancy[s] -= rest;
    m_pool_ingress[tag.pool] -= rest;
}

pfc_signal shared_buffer_accounting::on_transmit_complete(const switch_tag& tag,
                                                          const egress_charge& charge)
{
    const size_t e = slot(charge.out_port, charge.pool);
    m_egress[e] -= charge.bytes;
    m_pool_egress[charge.pool] -= charge.bytes;
    release_ingress(tag);

    pfc_signal xon;
    const size_t s = slot(tag.in_port, tag.pool);
    if (m_layout.lossless(tag.tc) && m_paused[s] && m_headroom[s] == 0 &&
        m_occupancy[s] <= m_layout.xon_bytes) {
        m_paused[s] = false;
        xon = {true, tag.in_port, tag.pool, m_layout.pools[tag.pool].lossless_classes};
        ++m_stats.xon_sent;
    }
    return xon;
}

}  // namespace uetsim
