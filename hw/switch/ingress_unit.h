// Ingress accounting of one switch: the bytes each (ingress port, traffic class) has in the
// buffer, charged when a packet arrives and released when it leaves (its serialization at the
// egress port ends) or is dropped. Pause thresholds (Xoff/Xon) and headroom read these counts
// (issue #13). Pure logic, one flat array per switch: a charge is one add.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hw/switch/traffic_class.h"

namespace uetsim {

class ingress_unit
{
public:
    explicit ingress_unit(size_t ports);

    void charge(uint16_t port, uint8_t tc, uint64_t bytes) { m_bytes[slot(port, tc)] += bytes; }
    void release(uint16_t port, uint8_t tc, uint64_t bytes) { m_bytes[slot(port, tc)] -= bytes; }

    size_t ports() const { return m_bytes.size() / num_traffic_classes; }
    uint64_t bytes(uint16_t port, uint8_t tc) const { return m_bytes[slot(port, tc)]; }
    uint64_t port_bytes(uint16_t port) const;  // all classes

private:
    static size_t slot(uint16_t port, uint8_t tc)
    {
        return size_t(port) * num_traffic_classes + tc;
    }

    std::vector<uint64_t> m_bytes;  // [port * num_traffic_classes + tc]
};

}  // namespace uetsim
