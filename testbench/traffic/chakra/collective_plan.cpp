#include "testbench/traffic/chakra/collective_plan.h"

#include <algorithm>
#include <string>

namespace uetsim::chakra {

namespace {

constexpr const char* k_algorithm_names[k_algorithms] = {
    "ring",    "tree",       "double-tree", "halving-doubling",
    "halving", "sequential", "interleaved", "direct"};

constexpr const char* k_collective_names[k_collective_types] = {
    "AllReduce", "Reduce",        "AllGather",          "Gather", "Scatter", "Broadcast",
    "AllToAll",  "ReduceScatter", "ReduceScatterBlock", "Barrier"};

bool power_of_two(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

uint32_t log2_floor(uint64_t n)
{
    uint32_t l = 0;
    while (n >>= 1) ++l;
    return l;
}

// ceil(a / b) without the overflow of (a + b - 1) / b.
uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

std::string label(collective_type t, algorithm a)
{
    return std::string(collective_name(t)) + " " + algorithm_name(a);
}

void validate(collective_type t, algorithm a, uint32_t n)
{
    if (!allows(t, a)) {
        std::string choices;
        for (algorithm c : algorithms_for(t)) {
            choices += (choices.empty() ? "" : ", ") + std::string(algorithm_name(c));
        }
        throw plan_error(std::string(collective_name(t)) + " does not allow the algorithm " +
                         algorithm_name(a) + " (" + collective_name(t) + "Algorithm: " + choices +
                         ")");
    }
    if (n == 0) throw plan_error(label(t, a) + ": the process group is empty (N = 0)");
    if (needs_power_of_two(a) && !power_of_two(n)) {
        throw plan_error(label(t, a) + " needs a process group whose size is a power of two; " +
                         "this group has " + std::to_string(n) + " ranks");
    }
}

// The tree of `tree` and `double-tree` over tree indices 0..N-1: index 0 is the root, its one
// child is index 1, and 1..N-1 form a balanced binary tree in heap layout (heap node j = index
// j+1), so that index t >= 2 has parent t/2 and index t >= 1 has children 2t and 2t+1.
uint64_t tree_parent(uint64_t t)
{
    return t == 1 ? 0 : t / 2;
}

template <typename F>
void tree_children(uint64_t t, uint32_t n, F&& f)
{
    if (t == 0) {
        if (n > 1) f(1);
        return;
    }
    for (uint64_t c = 2 * t; c <= 2 * t + 1 && c < n; ++c) f(c);
}

// Store-and-forward time of one direction of the tree, in transfers of the tree's bytes: one per
// level, a parent's link shared by its children, so a level costs its largest fan-out. The root
// edge costs 1; heap level i (i = 0..h-1, h = floor(log2(N-1))) costs 2, except the last, which
// costs min(2, N - 2^h) (a lone last node has its parent's link to itself). Closed form:
// F(2) = 1, F(N) = 2h - 1 + min(2, N - 2^h) for N >= 3.
uint64_t tree_levels(uint32_t n)
{
    if (n < 2) return 0;
    uint64_t m = n - 1;  // nodes of the heap
    uint64_t levels = 1;
    for (uint64_t first = 1; 2 * first - 1 < m; first *= 2) {
        // Heap depth d holds nodes first-1..2 first-2; the next depth has this many nodes.
        uint64_t below = std::min(2 * first, m - (2 * first - 1));
        levels += std::min<uint64_t>(2, below);
    }
    return levels;
}

}  // namespace

const char* algorithm_name(algorithm a)
{
    return k_algorithm_names[static_cast<int>(a)];
}

std::optional<algorithm> parse_algorithm(std::string_view name)
{
    for (int i = 0; i < k_algorithms; ++i) {
        if (name == k_algorithm_names[i]) return static_cast<algorithm>(i);
    }
    return std::nullopt;
}

const char* collective_name(collective_type t)
{
    return k_collective_names[static_cast<int>(t)];
}

std::optional<collective_type> parse_collective(std::string_view name)
{
    for (int i = 0; i < k_collective_types; ++i) {
        if (name == k_collective_names[i]) return static_cast<collective_type>(i);
    }
    return std::nullopt;
}

const std::vector<algorithm>& algorithms_for(collective_type t)
{
    using a = algorithm;
    // Configuration page, "Collective algorithms"; the first of each list is the default.
    static const std::vector<algorithm> choices[k_collective_types] = {
        {a::ring, a::tree, a::double_tree, a::halving_doubling},  // AllReduce
        {a::ring, a::tree},                                       // Reduce
        {a::ring},                                                // AllGather
        {a::direct},                                              // Gather
        {a::direct},                                              // Scatter
        {a::interleaved, a::sequential},                          // Broadcast
        {a::interleaved, a::sequential},                          // AllToAll
        {a::ring, a::halving},                                    // ReduceScatter
        {a::ring},                                                // ReduceScatterBlock
        {a::ring, a::tree, a::double_tree, a::halving_doubling},  // Barrier
    };
    return choices[static_cast<int>(t)];
}

algorithm default_algorithm(collective_type t)
{
    return algorithms_for(t).front();
}

bool allows(collective_type t, algorithm a)
{
    for (algorithm c : algorithms_for(t)) {
        if (c == a) return true;
    }
    return false;
}

bool needs_power_of_two(algorithm a)
{
    return a == algorithm::halving || a == algorithm::halving_doubling;
}

bool has_root(collective_type t)
{
    return t == collective_type::broadcast || t == collective_type::gather ||
           t == collective_type::scatter || t == collective_type::reduce;
}

collective_plan::collective_plan(collective_type type, algorithm alg, uint32_t group_size,
                                 uint64_t comm_size, uint32_t root_index)
    : type_(type), alg_(alg), n_(group_size), s_(comm_size), root_(0), c_(0)
{
    validate(type, alg, group_size);
    if (has_root(type)) {
        if (root_index >= n_) {
            throw plan_error(label(type, alg) + ": the root index " + std::to_string(root_index) +
                             " is not in the process group of " + std::to_string(n_) + " ranks");
        }
        root_ = root_index;
    }
    c_ = ceil_div(s_, n_);
    log2n_ = log2_floor(n_);
    bool barrier = type == collective_type::barrier;
    bool all_reduce = type == collective_type::all_reduce || barrier;
    if (n_ == 1) return;  // nothing to send: shape none, zero steps
    switch (alg) {
        case algorithm::ring:
            if (all_reduce) {
                shape_ = shape::ring;
                steps_ = 2 * (n_ - 1);
                unit_ = barrier ? 0 : c_;
            } else if (type == collective_type::reduce) {
                shape_ = shape::reduce_chain;
                steps_ = 2;
                unit_ = s_;
            } else {
                shape_ = shape::ring;
                steps_ = n_ - 1;
                unit_ = type == collective_type::all_gather ? s_ : c_;
            }
            break;
        case algorithm::tree:
        case algorithm::double_tree:
            if (type == collective_type::reduce) {
                shape_ = shape::reduce_tree;
                steps_ = 2;
                unit_ = s_;
            } else {
                shape_ = shape::tree;
                steps_ = 3;
                unit_ = barrier ? 0 : alg == algorithm::tree ? s_ : ceil_div(s_, 2);
            }
            break;
        case algorithm::halving_doubling:
            shape_ = shape::halving_doubling;
            steps_ = 2 * log2n_;
            unit_ = barrier ? 0 : c_;
            break;
        case algorithm::halving:
            shape_ = shape::halving;
            steps_ = log2n_;
            unit_ = c_;
            break;
        case algorithm::sequential:
        case algorithm::interleaved:
            sequential_ = alg == algorithm::sequential;
            if (type == collective_type::broadcast) {
                shape_ = shape::broadcast;
                unit_ = s_;
            } else {
                shape_ = shape::all_to_all;
                steps_ = sequential_ ? n_ - 1 : 1;
                unit_ = c_;
            }
            break;
        case algorithm::direct:
            shape_ = type == collective_type::gather ? shape::gather : shape::scatter;
            steps_ = 1;
            unit_ = type == collective_type::gather ? s_ : c_;
            break;
    }
}

uint32_t collective_plan::lanes() const
{
    return alg_ == algorithm::double_tree ? 2 : 1;
}

bool collective_plan::send_after_recv(uint32_t lane) const
{
    check(0, lane);
    // Everything that forwards or reduces what it received; the root-to-all and all-to-all
    // patterns send data they already hold.
    switch (alg_) {
        case algorithm::ring:
        case algorithm::tree:
        case algorithm::double_tree:
        case algorithm::halving_doubling:
        case algorithm::halving:
            return true;
        default:
            return false;
    }
}

bool collective_plan::send_after_send(uint32_t lane) const
{
    check(0, lane);
    return alg_ == algorithm::sequential;
}

void collective_plan::check(uint32_t position, uint32_t lane) const
{
    if (position >= n_) {
        throw std::out_of_range("position " + std::to_string(position) +
                                " is not in the process group of " + std::to_string(n_) + " ranks");
    }
    if (lane >= lanes()) {
        throw std::out_of_range("lane " + std::to_string(lane) + " of a plan with " +
                                std::to_string(lanes()) + " lanes");
    }
}

uint32_t collective_plan::tree_offset(uint32_t lane) const
{
    if (shape_ == shape::reduce_tree) return root_;  // the group order rotated to the root
    return lane == 0 ? 0 : n_ - 1;  // double-tree's second tree: last rank, then 0..N-2
}

uint32_t collective_plan::steps(uint32_t position, uint32_t lane) const
{
    check(position, lane);
    if (shape_ == shape::broadcast) {
        // Only the root has a chain; a receiver has one step with its one receive.
        return position == root_ && sequential_ ? n_ - 1 : 1;
    }
    return steps_;
}

void collective_plan::step(uint32_t position, uint32_t lane, uint32_t k,
                           std::vector<transfer_op>& sends, std::vector<transfer_op>& recvs) const
{
    sends.clear();
    recvs.clear();
    if (k >= steps(position, lane)) {
        throw std::out_of_range("step " + std::to_string(k) + " of position " +
                                std::to_string(position) + ", which has " +
                                std::to_string(steps(position, lane)) + " steps");
    }
    const uint32_t n = n_;
    const uint32_t p = position;
    auto at = [n](uint64_t base, uint64_t plus) { return uint32_t((base + plus) % n); };
    switch (shape_) {
        case shape::none:
            break;
        case shape::ring:
            sends.push_back({at(p, 1), unit_});
            recvs.push_back({at(p, n - 1), unit_});
            break;
        case shape::tree: {
            // Step 0 receives from the children; step 1 sends up and receives from the parent;
            // step 2 sends down. With send_after_recv, a rank sends up once its children have sent,
            // and down once its parent has (the root, once its child has).
            uint32_t off = tree_offset(lane);
            uint32_t t = to_tree(p, off);
            auto each_child = [&](std::vector<transfer_op>& ops) {
                tree_children(t, n, [&](uint64_t c) {
                    ops.push_back({to_position(uint32_t(c), off), unit_});
                });
            };
            if (k == 0) {
                each_child(recvs);
            } else if (k == 1) {
                if (t != 0) {
                    uint32_t parent = to_position(uint32_t(tree_parent(t)), off);
                    sends.push_back({parent, unit_});
                    recvs.push_back({parent, unit_});
                }
            } else {
                each_child(sends);
            }
            break;
        }
        case shape::reduce_tree: {
            uint32_t off = tree_offset(lane);
            uint32_t t = to_tree(p, off);
            if (k == 0) {
                tree_children(t, n, [&](uint64_t c) {
                    recvs.push_back({to_position(uint32_t(c), off), s_});
                });
            } else if (t != 0) {
                sends.push_back({to_position(uint32_t(tree_parent(t)), off), s_});
            }
            break;
        }
        case shape::reduce_chain: {
            // d = distance after the root: root+1 -> root+2 -> ... -> root-1 -> root. Step 0
            // receives from the predecessor, step 1 sends to the successor.
            uint32_t d = to_tree(p, root_);
            if (k == 0) {
                if (d == 0) recvs.push_back({at(root_, n - 1), s_});
                if (d >= 2) recvs.push_back({at(p, n - 1), s_});
            } else if (d != 0) {
                sends.push_back({at(p, 1), s_});
            }
            break;
        }
        case shape::halving_doubling:
        case shape::halving:
            if (k < log2n_) {
                uint32_t half = n >> (k + 1);  // reduce-scatter: halve the data each step
                sends.push_back({p ^ half, unit_ * half});
            } else {
                uint32_t j = k - log2n_;  // all-gather: double it back
                sends.push_back({p ^ (1u << j), unit_ << j});
            }
            recvs.push_back(sends.back());
            break;
        case shape::broadcast:
            if (p == root_) {
                if (sequential_) {
                    sends.push_back({at(root_, k + 1), s_});
                } else {
                    for (uint32_t d = 1; d < n; ++d) sends.push_back({at(root_, d), s_});
                }
            } else {
                recvs.push_back({root_, s_});
            }
            break;
        case shape::gather:
        case shape::scatter: {
            // Gather: the others send to the root; Scatter: the root sends to the others.
            bool to_root = shape_ == shape::gather;
            if (p == root_) {
                auto& ops = to_root ? recvs : sends;
                for (uint32_t d = 1; d < n; ++d) ops.push_back({at(root_, d), unit_});
            } else {
                (to_root ? sends : recvs).push_back({root_, unit_});
            }
            break;
        }
        case shape::all_to_all: {
            // Step s-1 of sequential (s = 1..N-1): send to p+s, receive from p-s; interleaved puts
            // every s in its one step.
            uint32_t first = sequential_ ? k + 1 : 1;
            uint32_t last = sequential_ ? k + 1 : n - 1;
            for (uint32_t s = first; s <= last; ++s) {
                sends.push_back({at(p, s), unit_});
                recvs.push_back({at(p, n - s), unit_});
            }
            break;
        }
    }
}

uint32_t collective_plan::recv_step(uint32_t position, uint32_t lane, uint32_t k,
                                    uint32_t peer) const
{
    (void)position;
    (void)lane;
    (void)peer;
    switch (shape_) {
        case shape::tree:
        case shape::reduce_tree:
        case shape::reduce_chain:
            return k - 1;  // sends are in steps 1 and 2, their receives one step earlier
        case shape::broadcast:
            return 0;
        default:
            return k;
    }
}

uint64_t collective_plan::bytes_sent(uint32_t position) const
{
    std::vector<transfer_op> sends, recvs;
    uint64_t total = 0;
    for (uint32_t lane = 0; lane < lanes(); ++lane) {
        for (uint32_t k = 0; k < steps(position, lane); ++k) {
            step(position, lane, k, sends, recvs);
            for (const auto& s : sends) total += s.bytes;
        }
    }
    return total;
}

void collective_plan::count_totals() const
{
    std::vector<transfer_op> sends, recvs;
    uint64_t count = 0, total = 0;
    for (uint32_t p = 0; p < n_; ++p)
        for (uint32_t lane = 0; lane < lanes(); ++lane)
            for (uint32_t k = 0; k < steps(p, lane); ++k) {
                step(p, lane, k, sends, recvs);
                count += sends.size();
                for (const auto& s : sends) total += s.bytes;
            }
    transfers_ = count;
    bytes_ = total;
}

uint64_t collective_plan::transfers() const
{
    if (!transfers_) count_totals();
    return *transfers_;
}

uint64_t collective_plan::bytes() const
{
    if (!bytes_) count_totals();
    return *bytes_;
}

uint32_t collective_plan::max_steps() const
{
    uint32_t most = 0;
    for (uint32_t lane = 0; lane < lanes(); ++lane) {
        // Only Broadcast has ranks of different lengths, and its root is the longest.
        uint32_t p = shape_ == shape::broadcast ? root_ : 0;
        most = std::max(most, steps(p, lane));
    }
    return most;
}

std::vector<expanded_transfer> expand(const collective_plan& plan)
{
    std::vector<expanded_transfer> out;
    std::vector<transfer_op> sends, recvs;
    for (uint32_t p = 0; p < plan.group_size(); ++p) {
        for (uint32_t lane = 0; lane < plan.lanes(); ++lane) {
            for (uint32_t k = 0; k < plan.steps(p, lane); ++k) {
                plan.step(p, lane, k, sends, recvs);
                for (const auto& s : sends) out.push_back({p, s.peer, s.bytes, lane, k});
            }
        }
    }
    return out;
}

// Ideal times, bandwidth only: B bit/s in each direction of each rank's link, no latency; a rank
// sending to (or receiving from) k ranks at once shares its link among them; steps that wait for
// one another add up. The shares of S are the unrounded S/N and S/2. With F(N) the tree's level
// count (tree_levels):
//   AllReduce ring, halving-doubling     2 x 8S (N-1) / (N B)
//   AllReduce tree                       2 x F(N) x 8S / B     (up, then down)
//   AllReduce double-tree                F(N) x 8S / B         (two trees of S/2 at once)
//   Reduce ring                          (N-1) x 8S / B        (a chain of whole-S hops)
//   Reduce tree                          F(N) x 8S / B         (up only)
//   AllGather ring                       (N-1) x 8S / B
//   ReduceScatter(Block) ring, halving   8S (N-1) / (N B)
//   Broadcast sequential, interleaved    (N-1) x 8S / B        (the root's link, N-1 copies of S)
//   Gather direct                        (N-1) x 8S / B        (the root's link, N-1 copies of S)
//   Scatter direct                       8S (N-1) / (N B)      (the root's link, N-1 shares)
//   AllToAll sequential, interleaved     8S (N-1) / (N B)      (each link, N-1 shares)
//   Barrier                              0
double ideal_time_s(collective_type type, algorithm alg, uint32_t group_size, uint64_t comm_size,
                    double link_bps)
{
    validate(type, alg, group_size);
    if (!(link_bps > 0)) {
        throw plan_error(label(type, alg) + ": the link rate must be > 0 bit/s, not " +
                         std::to_string(link_bps));
    }
    if (type == collective_type::barrier || group_size == 1) return 0;
    const double n = group_size;
    const double s = double(comm_size);
    const double b = link_bps;
    const double shares = s * 8.0 * (n - 1) / (n * b);  // N-1 transfers of S/N, one at a time
    const double copies = s * 8.0 * (n - 1) / b;        // N-1 transfers of S, one at a time
    const double levels = double(tree_levels(group_size));
    switch (type) {
        case collective_type::all_reduce:
            switch (alg) {
                case algorithm::tree:
                    return 2 * levels * s * 8.0 / b;
                case algorithm::double_tree:
                    return levels * s * 8.0 / b;
                default:
                    // The records page's formula, in its order of operations.
                    return 2 * s * 8 * (n - 1) / (n * b);
            }
        case collective_type::reduce:
            return alg == algorithm::tree ? levels * s * 8.0 / b : copies;
        case collective_type::all_gather:
        case collective_type::broadcast:
        case collective_type::gather:
            return copies;
        case collective_type::reduce_scatter:
        case collective_type::reduce_scatter_block:
        case collective_type::scatter:
        case collective_type::all_to_all:
            return shares;
        case collective_type::barrier:
            break;
    }
    return 0;
}

double busbw_factor(collective_type type, uint32_t group_size)
{
    if (group_size == 0) {
        throw plan_error(std::string(collective_name(type)) +
                         ": the process group is empty (N = 0)");
    }
    const double n = group_size;
    switch (type) {
        case collective_type::all_reduce:
            return 2 * (n - 1) / n;
        case collective_type::all_gather:
        case collective_type::reduce_scatter:
        case collective_type::reduce_scatter_block:
        case collective_type::all_to_all:
        case collective_type::gather:
        case collective_type::scatter:
            return (n - 1) / n;
        case collective_type::broadcast:
        case collective_type::reduce:
            return 1;
        case collective_type::barrier:
            break;
    }
    return 0;
}

}  // namespace uetsim::chakra
