// The substitution seam of the switch's flow hash: where the 16-bit hash comes from when it is
// not the C++ model flow_hash16. The testbench installs one per switch for Rtl.FlowHash rtl|both
// (rtl/flow_hash: the Verilated block's answer, or the model's answer checked against it).
// Without one (model mode, the default) the selector calls flow_hash16 directly: no virtual call
// on the packet path. hw never includes rtl; the seam is this interface.
#pragma once

#include <cstdint>

#include "hw/switch/flow_hash.h"

namespace uetsim {

class flow_hasher
{
public:
    virtual ~flow_hasher() = default;
    // Must equal flow_hash16(m, k, salt) for a correct block.
    virtual uint16_t hash16(ecmp_hash_method m, const flow_key& k, uint32_t salt) = 0;
};

}  // namespace uetsim
