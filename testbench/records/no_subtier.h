// The subtier cells of nd-stats, ecn-pfc-stats, the load-balancing stats and topology-report:
// uetsim's fabrics have no subtiers, so each holds the reference's "none", 4294967295 (2^32 - 1).
#pragma once

#include <cstdint>

namespace uetsim {

inline constexpr uint32_t no_subtier = 4294967295u;

}  // namespace uetsim
