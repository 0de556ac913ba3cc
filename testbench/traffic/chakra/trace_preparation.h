// Trace preparation: checks a traceset and turns it into the prepared workload the replay runs,
// before the simulation starts. It resolves every collective's process group, algorithm and
// root, matches the k-th collective of a group across its ranks into one instance, applies
// Scaling, process group serialization and collective synchronization, links dependencies and
// checks them (a missing node, a cycle, a receive no send matches). What stops the run is a
// trace_error naming the file, the node id and what is wrong; what does not is a warning.
#pragma once

#include <cstdint>

#include "testbench/traffic/chakra/chakra_config.h"
#include "testbench/traffic/chakra/prepared_workload.h"
#include "testbench/traffic/chakra/trace_error.h"
#include "testbench/traffic/chakra/trace_model.h"

namespace uetsim::chakra {

// Throws trace_error; with AbortOnChakraWarning a warning throws too.
prepared_workload prepare_traces(const traceset& ts, const chakra_config& cfg);

// A collective node's (type, size) after Scaling; what the warnings and records call it.
uint64_t scaled(uint64_t value, const chakra_config& cfg);

}  // namespace uetsim::chakra
