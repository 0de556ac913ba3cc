#include "hw/switch/ingress_unit.h"

namespace uetsim {

ingress_unit::ingress_unit(size_t ports) : m_bytes(ports * num_traffic_classes, 0) {}

uint64_t ingress_unit::port_bytes(uint16_t port) const
{
    uint64_t sum = 0;
    for (int tc = 0; tc < num_traffic_classes; ++tc) sum += m_bytes[slot(port, uint8_t(tc))];
    return sum;
}

}  // namespace uetsim
