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
    , m_paused(ports * shared_buffer_pools, 0)
    , m_promised(ports * shared_buffer_pools, 0)
{
}

}  // namespace uetsim
