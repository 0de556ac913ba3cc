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

}  // namespace uetsim
