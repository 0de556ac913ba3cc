// hw/switch/pause_signal.h
// What the switch's shared buffer tells PFC: a priority group of an ingress port crossed its
// Xoff threshold (pause the sender on that link) or came back to Xon (resume it). The buffer
// decides, PFC frames and times the pauses; neither knows the other's internals.
#pragma once

#include <cstdint>

namespace uetsim {

class pause_signal
{
public:
    virtual ~pause_signal() = default;
    virtual void xoff(uint32_t ingress_port, uint32_t priority_group) = 0;
    virtual void xon(uint32_t ingress_port, uint32_t priority_group) = 0;
};

}  // namespace uetsim
