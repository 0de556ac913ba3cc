#include "hw/switch/buffer_manager.h"

namespace uetsim {

buffer_manager::buffer_manager(const shared_buffer_layout& layout, size_t ports)
    : m_acc(layout, ports)
{
}

uint64_t buffer_manager::port_egress_bytes(uint16_t port) const
{
    uint64_t sum = 0;
    for (int pool = 0; pool < num_pools; ++pool)
        sum += m_acc.egress_queue_bytes(port, uint8_t(pool));
    return sum;
}

uint64_t buffer_manager::held_bytes() const
{
    uint64_t sum = 0;
    for (int pool = 0; pool < num_pools; ++pool) sum += m_acc.pool_egress_bytes(uint8_t(pool));
    return sum;
}

void buffer_manager::sample_ingress_credit(uint16_t port, uint8_t pool)
{
    m_occupancy->ingress(
        port, pool, m_acc.ingress_occupancy(port, pool) + m_acc.credit_held(port, pool),
        m_acc.headroom(port, pool), m_acc.pool_ingress_bytes(pool) + m_acc.pool_credit_bytes(pool));
}

void buffer_manager::credit_transmit_complete(const switch_tag& tag, const egress_charge& charge)
{
    const pfc_signal xon = m_acc.on_transmit_complete(tag, charge);
    if (xon.send && m_pause) m_pause->xon(tag.in_port, tag.pool);
    return_credit(tag);
    if (m_occupancy) {
        sample_egress(charge.out_port, charge.pool);
        sample_ingress(tag.in_port, tag.pool);
    }
}

}  // namespace uetsim
