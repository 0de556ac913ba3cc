// One pool of the switch's shared buffer as stages 2 to 4 of the shared-buffer page size it: its
// share of the buffer, the classes mapped to it and its priority group, headroom per port, and
// the egress limits the admission policy (admission_policy.h) fixes for it.
#pragma once

#include <cstdint>

namespace uetsim {

struct shared_buffer_pool
{
    bool allocated = false;        // a non-zero PoolAllocationMap entry (or a UET-policy pool)
    uint64_t nominal_bytes = 0;    // entry x sizing total: before the remainder moves to the last
    uint64_t bytes = 0;            // its size, the remainder included: what the accounting bounds
    uint8_t classes = 0;           // bit t: TCt is mapped to this pool
    uint8_t lossless_classes = 0;  // the priority group: the PFC-enabled classes among them
    uint64_t headroom_limit_bytes = 0;  // per port; HeadRoomPerPortLimit where lossless, else 0
    // The limit the ECN thresholds are fractions of, fixed at start (from the nominal size, as
    // the configuration page says for the last pool), and the fixed egress limit of a lossy
    // queue (0 under the dynamic form, where the limit moves with the free bytes).
    uint64_t static_egress_limit_bytes = 0;
    uint64_t fixed_egress_limit_bytes = 0;
};

}  // namespace uetsim
