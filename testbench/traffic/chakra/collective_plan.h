// The expansion of one Chakra collective into the point-to-point transfers of its algorithm
// (docs: Workload execution, Collectives), with the ideal times and bus-bandwidth factors the
// collective records divide by. Pure logic: no SystemC, no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "testbench/traffic/chakra/trace_model.h"

namespace uetsim::chakra {

enum class algorithm {
    ring,
    tree,
    double_tree,
    halving_doubling,
    halving,
    sequential,
    interleaved,
    direct
};
inline constexpr int k_algorithms = 8;

// "ring", "tree", "double-tree", "halving-doubling", "halving", "sequential", "interleaved",
// "direct": the spellings of the <Type>Algorithm attributes.
const char* algorithm_name(algorithm a);
std::optional<algorithm> parse_algorithm(std::string_view name);

// "AllReduce", "Reduce", "AllGather", "Gather", "Scatter", "Broadcast", "AllToAll",
// "ReduceScatter", "ReduceScatterBlock", "Barrier".
const char* collective_name(collective_type t);
std::optional<collective_type> parse_collective(std::string_view name);

// The algorithms the type's <Type>Algorithm attribute allows, in the configuration page's order,
// and its default.
const std::vector<algorithm>& algorithms_for(collective_type t);
algorithm default_algorithm(collective_type t);
bool allows(collective_type t, algorithm a);
// halving and halving-doubling pair ranks by XOR, so the group size must be a power of two.
bool needs_power_of_two(algorithm a);
// Broadcast, Gather, Scatter and Reduce have a root.
bool has_root(collective_type t);

struct plan_error : std::runtime_error
{
    using runtime_error::runtime_error;
};

struct transfer_op
{
    uint32_t peer = 0;  // a position in the group (0..N-1)
    uint64_t bytes = 0;
};

// A rank's part of a collective: one or more lanes that run independently (double-tree has two);
// each lane is a sequence of steps. A send of step k of a lane starts when
//  - send_after_recv: every receive of steps 0..k-1 of that lane has finished, and
//  - send_after_send: every send of steps 0..k-1 of that lane has been sent;
// with neither flag, every send of the lane starts at once. Receives are never ordered (a receive
// finishes when its transfer has arrived, whenever that is).
//
// A receive sits in the step whose sends wait for it, so it is not always in the step of the
// matching send: in the trees and in Reduce ring, a parent receives in step 0 what its children
// send in their step 1, and a child receives in step 1 what its parent sends in step 2; in
// Broadcast sequential, every receiver has one step. Everywhere else a receive is in the step of
// its send.
class collective_plan
{
public:
    // root_index: the root's position in the group (Broadcast, Gather, Scatter, Reduce; ignored
    // for the other types). Throws plan_error when the algorithm is not one of the type's
    // choices, needs a power-of-two group that this is not, N == 0 or the root is not in the group.
    collective_plan(collective_type type, algorithm alg, uint32_t group_size, uint64_t comm_size,
                    uint32_t root_index = 0);

    collective_type type() const { return type_; }
    algorithm alg() const { return alg_; }
    uint32_t group_size() const { return n_; }
    uint64_t comm_size() const { return s_; }
    uint32_t root_index() const { return root_; }
    // C = ceil(S / N).
    uint64_t chunk() const { return c_; }

    uint32_t lanes() const;
    bool send_after_recv(uint32_t lane) const;
    bool send_after_send(uint32_t lane) const;
    // Steps of the rank at `position` in `lane` (0 for every rank when N == 1).
    uint32_t steps(uint32_t position, uint32_t lane) const;
    // The sends and receives of step k of the rank at `position` (both vectors are cleared
    // first), computed on demand: a 1,024-rank ring AllReduce has 2,046 steps per rank, and
    // nothing is stored per rank. Throws std::out_of_range for a position, lane or step outside
    // the plan.
    void step(uint32_t position, uint32_t lane, uint32_t k, std::vector<transfer_op>& sends,
              std::vector<transfer_op>& recvs) const;

    // The step of the receiving rank that holds the receive of what the rank at `position` sends
    // to `peer` in step k of `lane` (the rule above: one step earlier in the trees and Reduce,
    // the receiver's one step in Broadcast, the same step elsewhere).
    uint32_t recv_step(uint32_t position, uint32_t lane, uint32_t k, uint32_t peer) const;

    // Totals over the whole group (every rank's sends), counted through step() once per plan
    // (a 1,024-rank ring has 2 million transfers; instances of one signature share the plan).
    uint64_t transfers() const;
    uint64_t bytes() const;
    // Bytes the rank at `position` sends in total, over all its lanes and steps.
    uint64_t bytes_sent(uint32_t position) const;
    // The most steps any rank has in one lane (the longest chain of steps).
    uint32_t max_steps() const;

private:
    enum class shape {
        none,              // N == 1
        ring,              // every step: send unit_ to next, receive from previous
        tree,              // reduce up, broadcast down; one lane per tree
        halving_doubling,  // XOR partners, halving then doubling
        halving,           // the reduce-scatter half of halving_doubling
        reduce_chain,      // Reduce ring: a chain ending at the root
        reduce_tree,       // Reduce tree: the up phase of tree
        broadcast,         // Broadcast sequential and interleaved
        gather,            // Gather direct
        scatter,           // Scatter direct
        all_to_all,        // AllToAll sequential and interleaved
    };

    void check(uint32_t position, uint32_t lane) const;
    // The rotation of lane `lane`'s tree: tree index t is position (t + offset) mod N.
    uint32_t tree_offset(uint32_t lane) const;
    uint32_t to_position(uint32_t t, uint32_t offset) const
    {
        return uint32_t((uint64_t(t) + offset) % n_);
    }
    uint32_t to_tree(uint32_t position, uint32_t offset) const
    {
        return uint32_t((uint64_t(position) + n_ - offset) % n_);
    }

    collective_type type_;
    algorithm alg_;
    uint32_t n_;
    uint64_t s_;
    uint32_t root_;
    uint64_t c_;  // ceil(S / N)
    shape shape_ = shape::none;
    uint32_t steps_ = 0;  // steps of every rank where they all have the same
    uint64_t unit_ = 0;   // bytes per transfer of the ring, tree and direct shapes
    uint32_t log2n_ = 0;
    bool sequential_ = false;  // Broadcast and AllToAll sequential
    void count_totals() const;
    mutable std::optional<uint64_t> transfers_, bytes_;
};

// Every transfer of a plan (for tests, inspect and small groups), by sender, lane and step.
// `step` is the sender's step.
struct expanded_transfer
{
    uint32_t src, dst;
    uint64_t bytes;
    uint32_t lane, step;
};
std::vector<expanded_transfer> expand(const collective_plan& plan);

// The analytical time of the algorithm to move the collective's bytes at `link_bps` (bit/s, in
// each direction of each rank's link): bandwidth only, formulas in collective_plan.cpp. 0 for a
// Barrier and for N == 1. Throws plan_error as the plan would, or for a rate that is not > 0.
double ideal_time_s(collective_type type, algorithm alg, uint32_t group_size, uint64_t comm_size,
                    double link_bps);

// Bus bandwidth = S / time x factor: AllReduce 2(N-1)/N; AllGather, ReduceScatter,
// ReduceScatterBlock, AllToAll, Gather, Scatter (N-1)/N; Broadcast, Reduce 1; Barrier 0.
// Throws plan_error for N == 0.
double busbw_factor(collective_type type, uint32_t group_size);

}  // namespace uetsim::chakra
