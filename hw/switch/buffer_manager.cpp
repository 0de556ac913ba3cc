#include "hw/switch/buffer_manager.h"

namespace uetsim {

buffer_config switch_buffer_config(const switch_config& cfg)
{
    buffer_config b;
    b.port_pool_limit_bytes = cfg.effective_egress_limit();
    return b;
}

buffer_manager::buffer_manager(size_t ports, const buffer_config& cfg)
    : m_cfg(cfg)
    , m_limit(cfg.port_pool_limit_bytes)
    , m_rtx_limit(cfg.port_pool_limit_bytes + cfg.port_pool_limit_bytes / 2)
    , m_port_pool(ports * num_pools, 0)
{
}

uint64_t buffer_manager::port_bytes(uint16_t port) const
{
    uint64_t sum = 0;
    for (int pool = 0; pool < num_pools; ++pool) sum += m_port_pool[slot(port, uint8_t(pool))];
    return sum;
}

}  // namespace uetsim
