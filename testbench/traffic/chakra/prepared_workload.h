// A traceset after trace preparation: what the replay runs. Each rank's nodes are in file
// order with their dependencies as indices and their dependents flattened; each collective node
// refers to one collective instance, shared by every rank of its process group, whose transfers
// the instance's plan gives step by step at run time (a collective is not expanded into nodes,
// so memory grows with the collectives in flight, not with their transfers).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "testbench/traffic/chakra/collective_plan.h"
#include "testbench/traffic/chakra/trace_model.h"

namespace uetsim::chakra {

// What the replay does with a node.
enum class op_kind : uint8_t {
    none,        // METADATA, or a collective trace preparation did not expand: no time
    npu,         // COMP_NODE on the NPU (shared unless TraceFamily is collected)
    timed,       // COMP_NODE with is_cpu_op, MEM_LOAD_NODE, MEM_STORE_NODE: its duration
    send,        // COMM_SEND_NODE
    recv,        // COMM_RECV_NODE
    collective,  // COMM_COLL_NODE
};

inline constexpr uint32_t k_none = UINT32_MAX;

struct prepared_node
{
    uint64_t trace_id = 0;  // the node's id in its trace
    node_type type = node_type::invalid;
    op_kind kind = op_kind::none;
    uint64_t duration_us = 0;      // after scaling
    uint64_t bytes = 0;            // send and receive: comm_size after scaling
    uint32_t peer = 0;             // send: the receiving rank; receive: the sending rank
    int64_t tag = 0;               // send and receive: comm_tag
    uint32_t collective = k_none;  // collective: its instance
    uint32_t deps = 0;             // how many nodes it waits for
    uint32_t dependents_begin = 0, dependents_end = 0;  // into prepared_rank::dependents
};

struct prepared_rank
{
    std::string file;
    std::vector<prepared_node> nodes;
    std::vector<uint32_t> dependents;  // node indices
    std::vector<uint32_t> ready;       // nodes with no dependency, in file order
    // The node's dependency lists as the trace gives them (trace ids), for the profiling file.
    std::vector<std::vector<uint64_t>> data_deps, ctrl_deps;
};

struct prepared_group
{
    std::string name;
    std::vector<uint32_t> ranks;    // in the order the algorithms use
    std::vector<int32_t> position;  // by rank: its position in `ranks`, -1 if not a member
};

// One collective, across every rank of its group: the k-th collective of a group on each
// member rank.
struct collective_instance
{
    uint32_t id = 0;  // collective_hash and metric_aggregation_id
    collective_type type = collective_type::all_reduce;
    algorithm alg = algorithm::ring;
    uint64_t comm_size = 0;  // after scaling
    uint32_t group = 0;
    uint32_t root_position = 0;
    bool synchronized = false;  // a zero-byte tree barrier runs first
    uint32_t plan = 0;          // into prepared_workload::plans
    uint32_t barrier_plan = k_none;
};

struct prepared_workload
{
    std::vector<prepared_rank> ranks;
    std::vector<prepared_group> groups;
    std::vector<collective_instance> collectives;
    // One plan per distinct (type, algorithm, group size, size, root): instances share them.
    std::vector<std::unique_ptr<collective_plan>> plans;
    std::vector<std::string> warnings;
    uint64_t warnings_total = 0;  // with those not logged (MaxCountWarningsLoggedPerInstance)

    // Totals over the run (the chakra-cdf denominators); synchronization barriers excluded.
    uint64_t total_sends = 0;  // send nodes plus collective transfers
    uint64_t total_recvs = 0;
    uint64_t total_send_bytes = 0;
    uint64_t total_computations = 0;  // COMP_NODEs

    const collective_plan& plan_of(const collective_instance& c) const { return *plans[c.plan]; }
};

}  // namespace uetsim::chakra
