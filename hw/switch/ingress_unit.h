// The ingress stage of one switch (packet-handling page, ingress steps 3 to 7): an arriving
// packet, classified, is charged to the shared buffer through buffer_manager, which may pause
// the port's sender, admit it to headroom or drop it; an admitted packet carries the tag its
// ingress charge is released with. Pure logic.
#pragma once

#include <cstdint>

#include "hw/switch/buffer_manager.h"

namespace uetsim {

class ingress_unit
{
public:
    explicit ingress_unit(buffer_manager& buffers) : m_buffers(buffers) {}

    // The packet of class `tc` that arrived on `port`, charged as the buffer counts it.
    ingress_decision admit(uint16_t port, uint8_t tc, const packet& p)
    {
        return m_buffers.on_ingress(port, tc, buffer_charge(p));
    }

private:
    buffer_manager& m_buffers;
};

}  // namespace uetsim
