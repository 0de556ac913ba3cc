#include "hw/switch/buffer_manager.h"

namespace uetsim {

buffer_manager::buffer_manager(size_t ports, const buffer_config& cfg)
    : m_cfg(cfg)
    , m_limit(cfg.port_pool_limit_bytes)
    , m_rtx_limit(cfg.port_pool_limit_bytes + cfg.port_pool_limit_bytes / 2)
    , m_port_pool(ports * num_pools, 0)
    , m_port(ports, 0)
{
}

}  // namespace uetsim
