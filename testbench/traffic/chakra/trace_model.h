// The Chakra execution trace as uetsim holds it: plain structures, kernel-free. The reader
// (et_reader.h) fills them from `<prefix>.<rank>.et` files, the Collectives list
// (collectives_list.h) builds them from a scenario, and trace preparation
// (trace_preparation.h) checks them and turns them into what the replay runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace uetsim::chakra {

// The format's NodeType values (et_def.proto).
enum class node_type : int {
    invalid = 0,
    metadata = 1,
    mem_load = 2,
    mem_store = 3,
    comp = 4,
    comm_send = 5,
    comm_recv = 6,
    comm_coll = 7,
};

// The format's CollectiveCommType values (et_def.proto).
enum class collective_type : int {
    all_reduce = 0,
    reduce = 1,
    all_gather = 2,
    gather = 3,
    scatter = 4,
    broadcast = 5,
    all_to_all = 6,
    reduce_scatter = 7,
    reduce_scatter_block = 8,
    barrier = 9,
};
inline constexpr int k_collective_types = 10;

// One node of a rank's trace, with the attributes the simulation reads.
struct node
{
    uint64_t id = 0;
    std::string name;
    node_type type = node_type::invalid;
    std::vector<uint64_t> ctrl_deps;
    std::vector<uint64_t> data_deps;
    uint64_t start_time_micros = 0;
    uint64_t duration_micros = 0;
    // Attributes by name (absent when the trace has none).
    std::optional<int64_t> comm_type;  // a collective_type value
    std::optional<uint64_t> comm_size;
    std::optional<int64_t> comm_src;
    std::optional<int64_t> comm_dst;
    std::optional<int64_t> comm_tag;
    std::optional<int64_t> root;  // root rank of Broadcast, Gather, Scatter, Reduce
    std::optional<std::string> pg_name;
    // uetsim's own attribute: the collective's algorithm, overriding Chakra.<Type>Algorithm
    // (what chakra-gen writes for a Collectives entry that names one).
    std::optional<std::string> algorithm;
    bool is_cpu_op = false;
};

// A process group a trace declares: its name and its members, in the order the algorithms use.
struct process_group
{
    std::string name;
    std::vector<uint32_t> ranks;
};

// One rank's trace file.
struct rank_trace
{
    uint32_t rank = 0;
    std::string file;                   // where it was read from (messages name it)
    std::string version;                // GlobalMetadata.version
    std::vector<process_group> groups;  // as declared by this trace
    std::vector<node> nodes;            // in file order
};

// A traceset: one trace per rank, rank r at index r.
struct traceset
{
    std::string prefix;  // `<prefix>.<rank>.et`
    std::vector<rank_trace> ranks;
};

}  // namespace uetsim::chakra
