// Reads Chakra execution traces (`.et` files) into trace_model.h's structures. Kernel-free.
//
// THE FILE. A stream of protobuf messages of et_def.proto, each preceded by its length as a
// varint (base 128, least significant group first): one GlobalMetadata, then one Node per node
// up to the end of the file. A traceset is the files `<prefix>.<rank>.et` (rank in decimal, as
// Chakra's tools name them) for ranks 0..N-1; the ranks present are found by listing the
// prefix's folder and must run from 0 without a gap.
//
// WHAT IS TAKEN FROM A NODE. id, name, type (INVALID_NODE..COMM_COLL_NODE), ctrl_deps and
// data_deps (in file order, unchecked: dependency checks are trace preparation's), start and
// duration, and these attributes by name (any other attribute, and inputs/outputs, are ignored):
//   comm_type   integer, a CollectiveCommType value (0..9); may be absent (trace preparation
//               decides what that means)
//   comm_size   integer >= 0
//   comm_src, comm_dst, comm_tag, root   integer
//   pg_name     string (an integer is taken as its decimal text)
//   is_cpu_op   bool, or an integer (non-zero is true); absent is false
//   algorithm   string: uetsim's own, the collective's algorithm (chakra-gen writes it for a
//               Collectives entry that names one; it overrides Chakra.<Type>Algorithm)
// "Integer" is any integer member of AttributeProto's oneof: int32, int64, uint32, uint64,
// sint32, sint64, fixed32, fixed64, sfixed32, sfixed64 (producers differ: Chakra's PyTorch
// converter writes int64, its feeder reads comm_src/comm_dst/comm_tag as int32).
//
// PROCESS GROUPS (rank_trace::groups). Declared by any of, merged in file order:
//   1. a GlobalMetadata attribute `pg_config` (string or bytes) holding group JSON (below);
//      what et_writer.h writes;
//   2. a node attribute `pg_config` (string or bytes) holding group JSON, on a node of any type;
//   3. a node whose name contains "process_group:init" and that has no `pg_config` attribute,
//      by its inputs.values. That is where Chakra's PyTorch converter leaves the declaration:
//      PyTorch records `json.dumps(torch.distributed...._world.pg_config_info)` as the one
//      argument of a record_function "## process_group:init ##", and the converter (which makes
//      it a METADATA_NODE or, in other versions, a COMP_NODE) writes inputs.values as Python's
//      str() of that argument list: `['[{"pg_name": "0", "pg_desc": "default_pg", ...}]']`.
//      Accepted there: a Python list of string literals ('...' or "...", with Python's
//      backslash escapes), each string holding group JSON; or JSON itself: group JSON, a JSON
//      list of strings holding group JSON, or a JSON list of group JSON (`[[{...}]]`).
//      Empty inputs.values, or an empty list, declares nothing.
// Group JSON is a list of group objects, a single group object, or an object whose values are
// group objects (`{"0": {"pg_name": "0", "ranks": [0, 1]}}`; the key names a group without
// "pg_name"). A group object has
//   "pg_name"   string or integer >= 0 (required, unless its key names it)
//   "ranks"     list of distinct integers 0..2^32-1, the members in the listed order; may be
//               absent or empty: PyTorch writes [] for a group of all ranks
//   "group_size" (or "pg_size") integer >= 0, optional: with an empty "ranks" the group is
//               ranks 0..size-1; with a non-empty "ranks" it must equal their count
// and any other key (pg_desc, backend_config, group_count) is ignored. A group with no ranks and
// no size is all ranks of the traceset: read_traceset fills in 0..N-1, read_rank_trace leaves
// its list empty. A group declared twice with the same members is kept once; with different
// members it is an error.
//
// ERRORS. A chakra::trace_error (trace_error.h) naming the file, the node id where known (for a
// message that does not parse, the node before it), and the problem: a file that cannot be
// opened or is empty; a stream cut short (in a length prefix or in a message) or a malformed
// message (a length prefix over 10 bytes, bytes that do not parse as the message, a known field
// with the wrong wire type); a node type outside 0..7; a node id used twice; a comm_type outside
// 0..9; a negative comm_size; an attribute above of the wrong kind, out of range, or given twice
// on one node; process-group declarations that are not as described above. For a traceset: no
// file `<prefix>.<rank>.et` at all (names the prefix), a rank missing below the highest (names
// the missing file), or a rank file name with a leading zero.
#pragma once

#include "testbench/traffic/chakra/trace_model.h"

#include <cstdint>
#include <string>

namespace uetsim::chakra {

// One rank's file; `rank` is stored in the result (the file does not say it).
rank_trace read_rank_trace(const std::string& path, uint32_t rank);

// The files `<prefix>.<rank>.et`; `prefix` may include a folder ("traces/llama").
traceset read_traceset(const std::string& prefix);

}  // namespace uetsim::chakra
