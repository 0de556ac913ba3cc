// What a PFC unit asks of the port it serves (a switch port or a NIC port). An interface, not
// four std::functions: those were 128 bytes in every port of the fabric (docs/performance.md,
// "Memory per host and per port").
#pragma once

#include <cstdint>

namespace uetsim {

class pfc_owner
{
public:
    // Its transmitter may have a frame to send now (a PFC frame queued, a class resumed).
    virtual void pfc_kick() = 0;
    // Called first whenever the unit acts on its own (its timers) or is told to pause or resume
    // (xoff, xon: a fault does so from outside the owner's work): an owner that holds work back
    // settles it here (deferred_frame_ends.h).
    virtual void pfc_settle() = 0;
    // The classes with a frame waiting in the owner's egress queues (ecn-pfc-stats' XOFF time
    // due to egress occupancy).
    virtual uint8_t pfc_egress_waiting() = 0;
    // The watchdog's action on class `tc`: drop its queue; returns how many packets. An owner
    // without a watchdog action drops none.
    virtual uint64_t pfc_watchdog_drop(int tc) { return 0; }

protected:
    ~pfc_owner() = default;
};

}  // namespace uetsim
