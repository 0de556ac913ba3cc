// The seam for a switch admission policy other than the static limit: the shared buffer's
// dynamic threshold, headroom for paused lossless classes (issue #13). A policy decides from the
// occupancy the buffer_manager keeps; it holds no packet state of its own. Pure logic.
#pragma once

#include <cstdint>

namespace uetsim {

class buffer_manager;

class admission_policy
{
public:
    virtual ~admission_policy() = default;

    // May `bytes` more be held for egress port `out_port` in `pool`, arriving on `in_port` in
    // traffic class `tc`? `rtx_allowance`: a trimmable retransmission (UET policy).
    virtual bool admit(const buffer_manager& occupancy, uint16_t in_port, uint16_t out_port,
                       uint8_t pool, uint8_t tc, uint64_t bytes, bool rtx_allowance) const = 0;
};

}  // namespace uetsim
