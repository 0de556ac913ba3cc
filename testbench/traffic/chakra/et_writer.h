// Writes trace_model.h's structures as Chakra execution traces, in the format et_reader.h reads
// (what it reads back is what was written). Kernel-free.
//
// GlobalMetadata: version = rank_trace::version, or "0.0.4" when that is empty; the process
// groups, when there are any, as its string attribute `pg_config`: a JSON list in the shape of
// PyTorch's pg_config_info, [{"pg_name": "0", "ranks": [0, 1, 2, 3], "group_size": 4}, ...],
// members in their order ("group_size" left out for a group with no members: all ranks). The
// GlobalMetadata, not a "## process_group:init ##" METADATA_NODE, because that would add a
// node the trace does not have, and ASTRA-sim refuses METADATA nodes; Chakra's tools pass
// GlobalMetadata attributes through.
//
// Nodes: id, name, type, ctrl_deps, data_deps, start and duration, and the attributes that are
// set, in the members Chakra's feeder reads them from: comm_type int64_val; comm_size int64_val
// (uint64_val above 2^63-1); comm_src, comm_dst, comm_tag int32_val (int64_val outside int32's
// range); root int64_val; pg_name string_val; is_cpu_op bool_val, always written (the feeder
// takes an absent is_cpu_op as true, uetsim as false).
//
// Errors (a file that cannot be written) are chakra::trace_error naming the file.
#pragma once

#include "testbench/traffic/chakra/trace_model.h"

#include <string>

namespace uetsim::chakra {

void write_rank_trace(const std::string& path, const rank_trace& trace);

// Rank r (traceset::ranks[r]) to `<prefix>.<r>.et`; the folder must exist. Files of higher ranks
// left from an earlier, larger traceset are not removed (read_traceset would read them).
void write_traceset(const std::string& prefix, const traceset& traces);

}  // namespace uetsim::chakra
