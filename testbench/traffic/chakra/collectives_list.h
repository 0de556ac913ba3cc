// The Collectives list as a Chakra traceset: one rank per host, each entry a chain of
// COMM_COLL_NODEs (Iterations of them, after a MEM_LOAD_NODE holding back its Start) on the
// entry's process group. `uetsim chakra-gen` writes this traceset; a run of the list replays it
// in memory, so both give the same records.
#pragma once

#include <cstdint>

#include "testbench/traffic/chakra/chakra_config.h"
#include "testbench/traffic/chakra/trace_model.h"

namespace uetsim::chakra {

// `prefix` names the files in messages (chakra-gen's --out, or "Collectives").
traceset collectives_traceset(const chakra_config& cfg, uint32_t host_count,
                              const std::string& prefix);

}  // namespace uetsim::chakra
