// The sending side's question to CBFC, for the port's egress arbitration (kernel-free): may the
// next frame of a class go now? A port without CBFC has no gate.
#pragma once

#include "tlm/packet.h"

namespace uetsim {

class credit_gate
{
public:
    // True: `p` of class `tc` may go (its credit is spent). False: its virtual channel stalls
    // (the gate stalls its classes in the port's scheduler) and the caller picks again.
    virtual bool admit(int tc, packet& p) = 0;

protected:
    ~credit_gate() = default;
};

}  // namespace uetsim
