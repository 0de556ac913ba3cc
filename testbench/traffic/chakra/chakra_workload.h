// The Chakra workload as a run needs it before the simulation starts: the traceset (read from
// Chakra.Traces, or built from the Collectives list), prepared, and its ranks placed on hosts
// (in order, or by Chakra.MappingFile with its scale-up groups). Kernel-free: `run`, `inspect`
// and `validate` share it, so a bad trace is exit 2 for each of them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "testbench/traffic/chakra/chakra_config.h"
#include "testbench/traffic/chakra/mapping_file.h"
#include "testbench/traffic/chakra/prepared_workload.h"
#include "testbench/traffic/chakra/trace_model.h"

namespace uetsim::chakra {

// Where each rank runs and which ranks share a scale-up group.
struct rank_placement
{
    std::vector<uint32_t> host;  // by rank
    // By rank: the scale-up group and subgroup, -1 for none.
    std::vector<int64_t> group, subgroup;
};

struct loaded_workload
{
    traceset traces;  // kept for the annotated traces (node names, the files' prefix)
    prepared_workload prepared;
    rank_placement placement;
    std::optional<mapping> map;      // the mapping file, when it placed the ranks
    std::vector<std::string> notes;  // for stderr: idle hosts, warnings of trace preparation
};

// Throws run_input_error (testbench/run/run_input_error.h) with the message exit 2 prints: a
// trace, mapping or placement problem, naming the file, the node or line, and what is wrong.
loaded_workload load_workload(const chakra_config& cfg, uint32_t host_count);

}  // namespace uetsim::chakra
