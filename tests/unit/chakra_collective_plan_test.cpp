// The expansion of Chakra collectives into point-to-point transfers (pure logic), with the
// worked example of the Workload execution page, hand counts for every algorithm of every type,
// pattern checks, a round-by-round run of the ordering rule, ideal times and busbw factors.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "testbench/traffic/chakra/collective_plan.h"

using namespace uetsim::chakra;

namespace {

using ct = collective_type;
using al = algorithm;

constexpr ct k_types[] = {ct::all_reduce, ct::reduce,         ct::all_gather,
                          ct::gather,     ct::scatter,        ct::broadcast,
                          ct::all_to_all, ct::reduce_scatter, ct::reduce_scatter_block,
                          ct::barrier};

bool power_of_two(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}
bool fits(al a, uint32_t n)
{
    return !needs_power_of_two(a) || power_of_two(n);
}

std::string name(ct t, al a, uint32_t n, uint32_t root = 0)
{
    return std::string(collective_name(t)) + " " + algorithm_name(a) + " N=" + std::to_string(n) +
           " root=" + std::to_string(root);
}

// The step of the receive that a send of step k is matched with (collective_plan.h): the trees
// and Reduce receive in the step whose sends wait for them, Broadcast receivers have one step.
uint32_t recv_step_of(const collective_plan& pl, uint32_t k)
{
    if (pl.type() == ct::reduce) return 0;  // children send in step 1, the parent receives in 0
    if (pl.alg() == al::tree || pl.alg() == al::double_tree) return k - 1;
    if (pl.type() == ct::broadcast) return 0;
    return k;
}

struct op
{
    uint32_t step;
    uint64_t bytes;
    bool operator==(const op& o) const { return step == o.step && bytes == o.bytes; }
};

// Every send matches one receive at its peer, in the same lane, with the same bytes, at
// recv_step_of its step; and per (src, dst, lane) the i-th send is the i-th receive (so a run can
// match them in order). Also: peers in the group, never the rank itself.
void check_matching(const collective_plan& pl, const std::string& what)
{
    using key = std::tuple<uint32_t, uint32_t, uint32_t>;  // src, dst, lane
    std::map<key, std::vector<op>> sent, received;
    std::vector<transfer_op> sends, recvs;
    const uint32_t n = pl.group_size();
    for (uint32_t p = 0; p < n; ++p) {
        for (uint32_t lane = 0; lane < pl.lanes(); ++lane) {
            for (uint32_t k = 0; k < pl.steps(p, lane); ++k) {
                pl.step(p, lane, k, sends, recvs);
                for (const auto& s : sends) {
                    ASSERT_LT(s.peer, n) << what;
                    ASSERT_NE(s.peer, p) << what;
                    // The run's recv_step() must agree with the rule worked out by hand.
                    ASSERT_EQ(pl.recv_step(p, lane, k, s.peer), recv_step_of(pl, k)) << what;
                    sent[{p, s.peer, lane}].push_back({pl.recv_step(p, lane, k, s.peer), s.bytes});
                }
                for (const auto& r : recvs) {
                    ASSERT_LT(r.peer, n) << what;
                    ASSERT_NE(r.peer, p) << what;
                    received[{r.peer, p, lane}].push_back({k, r.bytes});
                }
            }
        }
    }
    EXPECT_EQ(sent.size(), received.size()) << what;
    for (const auto& [k, v] : sent) {
        auto it = received.find(k);
        ASSERT_NE(it, received.end()) << what << ": no receive for " << std::get<0>(k) << " -> "
                                      << std::get<1>(k) << " lane " << std::get<2>(k);
        EXPECT_EQ(v, it->second) << what << ": " << std::get<0>(k) << " -> " << std::get<1>(k)
                                 << " lane " << std::get<2>(k);
    }
}

// Runs the plan in rounds by the rule of collective_plan.h: in each round every send whose step's
// conditions held at the end of the previous round is sent, and arrives by the end of the round.
// Returns the number of rounds, or -1 when sends are left that can never start.
int run_rounds(const collective_plan& pl)
{
    const uint32_t n = pl.group_size();
    const uint32_t lanes = pl.lanes();
    struct rank_lane
    {
        std::vector<std::vector<transfer_op>> sends;
        std::vector<size_t> recvs, arrived, sent;  // per step
    };
    std::vector<std::vector<rank_lane>> r(n, std::vector<rank_lane>(lanes));
    size_t left = 0;
    std::vector<transfer_op> sends, recvs;
    for (uint32_t p = 0; p < n; ++p) {
        for (uint32_t l = 0; l < lanes; ++l) {
            for (uint32_t k = 0; k < pl.steps(p, l); ++k) {
                pl.step(p, l, k, sends, recvs);
                r[p][l].sends.push_back(sends);
                r[p][l].recvs.push_back(recvs.size());
                left += sends.size();
            }
            r[p][l].arrived.assign(r[p][l].recvs.size(), 0);
            r[p][l].sent.assign(r[p][l].recvs.size(), 0);
        }
    }
    int rounds = 0;
    while (left > 0) {
        struct go
        {
            uint32_t p, l, k;
        };
        std::vector<go> ready;
        for (uint32_t p = 0; p < n; ++p) {
            for (uint32_t l = 0; l < lanes; ++l) {
                const rank_lane& x = r[p][l];
                bool recvd = true, sent = true;  // steps 0..k-1 so far
                for (uint32_t k = 0; k < x.sends.size(); ++k) {
                    bool ok = (!pl.send_after_recv(l) || recvd) && (!pl.send_after_send(l) || sent);
                    if (ok && x.sent[k] < x.sends[k].size()) ready.push_back({p, l, k});
                    recvd = recvd && x.arrived[k] == x.recvs[k];
                    sent = sent && x.sent[k] == x.sends[k].size();
                }
            }
        }
        if (ready.empty()) return -1;
        ++rounds;
        for (const go& g : ready) {
            rank_lane& x = r[g.p][g.l];
            for (const auto& s : x.sends[g.k]) {
                rank_lane& to = r[s.peer][g.l];
                size_t& a = to.arrived.at(recv_step_of(pl, g.k));
                ++a;
                EXPECT_LE(a, to.recvs.at(recv_step_of(pl, g.k)));
            }
            left -= x.sends[g.k].size() - x.sent[g.k];
            x.sent[g.k] = x.sends[g.k].size();
        }
    }
    // Every receive has arrived.
    for (uint32_t p = 0; p < n; ++p) {
        for (uint32_t l = 0; l < lanes; ++l) EXPECT_EQ(r[p][l].arrived, r[p][l].recvs);
    }
    return rounds;
}

uint32_t log2_of(uint32_t n)
{
    uint32_t l = 0;
    while (n >>= 1) ++l;
    return l;
}

// Rounds of run_rounds with unit-time transfers: the length of each algorithm's chain.
int expected_rounds(ct t, al a, uint32_t n)
{
    if (n == 1) return 0;
    const int depth = 1 + int(log2_of(n - 1));  // edges from the root to the deepest leaf
    switch (a) {
        case al::ring:
            if (t == ct::all_reduce || t == ct::barrier) return 2 * int(n - 1);
            return int(n - 1);
        case al::tree:
        case al::double_tree:
            return t == ct::reduce ? depth : 2 * depth;
        case al::halving_doubling:
            return 2 * int(log2_of(n));
        case al::halving:
            return int(log2_of(n));
        case al::sequential:
            return int(n - 1);
        case al::interleaved:
        case al::direct:
            return 1;
    }
    return -2;
}

std::vector<uint32_t> roots_for(ct t, uint32_t n)
{
    if (!has_root(t)) return {0};
    std::vector<uint32_t> roots = {0};
    if (n > 2) roots.push_back(n / 2);
    if (n > 1) roots.push_back(n - 1);
    return roots;
}

// Per-rank bytes of one plan, in step order, of lane 0.
std::vector<uint64_t> step_bytes(const collective_plan& pl, uint32_t p)
{
    std::vector<uint64_t> out;
    std::vector<transfer_op> sends, recvs;
    for (uint32_t k = 0; k < pl.steps(p, 0); ++k) {
        pl.step(p, 0, k, sends, recvs);
        for (const auto& s : sends) out.push_back(s.bytes);
    }
    return out;
}

}  // namespace

TEST(chakra_collective_plan, names_parse_back)
{
    const char* algs[] = {"ring",    "tree",       "double-tree", "halving-doubling",
                          "halving", "sequential", "interleaved", "direct"};
    for (int i = 0; i < k_algorithms; ++i) {
        EXPECT_STREQ(algorithm_name(algorithm(i)), algs[i]);
        EXPECT_EQ(parse_algorithm(algs[i]), algorithm(i));
    }
    const char* types[] = {
        "AllReduce", "Reduce",        "AllGather",          "Gather", "Scatter", "Broadcast",
        "AllToAll",  "ReduceScatter", "ReduceScatterBlock", "Barrier"};
    for (int i = 0; i < k_collective_types; ++i) {
        EXPECT_STREQ(collective_name(collective_type(i)), types[i]);
        EXPECT_EQ(parse_collective(types[i]), collective_type(i));
    }
    EXPECT_FALSE(parse_algorithm("double_tree"));
    EXPECT_FALSE(parse_algorithm("Ring"));
    EXPECT_FALSE(parse_algorithm(""));
    EXPECT_FALSE(parse_collective("allreduce"));
    EXPECT_FALSE(parse_collective("All-Reduce"));
}

TEST(chakra_collective_plan, choices_and_defaults_follow_the_configuration_page)
{
    using v = std::vector<algorithm>;
    EXPECT_EQ(algorithms_for(ct::all_reduce),
              (v{al::ring, al::tree, al::double_tree, al::halving_doubling}));
    EXPECT_EQ(algorithms_for(ct::reduce), (v{al::ring, al::tree}));
    EXPECT_EQ(algorithms_for(ct::all_gather), (v{al::ring}));
    EXPECT_EQ(algorithms_for(ct::gather), (v{al::direct}));
    EXPECT_EQ(algorithms_for(ct::scatter), (v{al::direct}));
    EXPECT_EQ(algorithms_for(ct::broadcast), (v{al::interleaved, al::sequential}));
    EXPECT_EQ(algorithms_for(ct::all_to_all), (v{al::interleaved, al::sequential}));
    EXPECT_EQ(algorithms_for(ct::reduce_scatter), (v{al::ring, al::halving}));
    EXPECT_EQ(algorithms_for(ct::reduce_scatter_block), (v{al::ring}));
    EXPECT_EQ(algorithms_for(ct::barrier),
              (v{al::ring, al::tree, al::double_tree, al::halving_doubling}));

    EXPECT_EQ(default_algorithm(ct::all_reduce), al::ring);
    EXPECT_EQ(default_algorithm(ct::reduce), al::ring);
    EXPECT_EQ(default_algorithm(ct::all_gather), al::ring);
    EXPECT_EQ(default_algorithm(ct::gather), al::direct);
    EXPECT_EQ(default_algorithm(ct::scatter), al::direct);
    EXPECT_EQ(default_algorithm(ct::broadcast), al::interleaved);
    EXPECT_EQ(default_algorithm(ct::all_to_all), al::interleaved);
    EXPECT_EQ(default_algorithm(ct::reduce_scatter), al::ring);
    EXPECT_EQ(default_algorithm(ct::reduce_scatter_block), al::ring);
    EXPECT_EQ(default_algorithm(ct::barrier), al::ring);

    for (int i = 0; i < k_algorithms; ++i) {
        al a = algorithm(i);
        EXPECT_EQ(needs_power_of_two(a), a == al::halving || a == al::halving_doubling);
    }
    EXPECT_TRUE(has_root(ct::broadcast));
    EXPECT_TRUE(has_root(ct::gather));
    EXPECT_TRUE(has_root(ct::scatter));
    EXPECT_TRUE(has_root(ct::reduce));
    EXPECT_FALSE(has_root(ct::all_reduce));
    EXPECT_FALSE(has_root(ct::barrier));
}

// The worked example of the Workload execution page: one AllReduce of S = 1,000 B over N = 8.
TEST(chakra_collective_plan, worked_example_all_reduce_1000_bytes_8_ranks)
{
    collective_plan ring(ct::all_reduce, al::ring, 8, 1000);
    EXPECT_EQ(ring.chunk(), 125u);
    EXPECT_EQ(ring.transfers(), 112u);  // 8 ranks x 14
    EXPECT_EQ(ring.bytes(), 14000u);    // 112 x 125 B
    for (uint32_t p = 0; p < 8; ++p) {
        EXPECT_EQ(ring.steps(p, 0), 14u);
        EXPECT_EQ(step_bytes(ring, p), std::vector<uint64_t>(14, 125));
    }
    for (const auto& t : expand(ring)) EXPECT_EQ(t.bytes, 125u);

    collective_plan tree(ct::all_reduce, al::tree, 8, 1000);
    EXPECT_EQ(tree.transfers(), 14u);  // 7 edges, one up and one down
    EXPECT_EQ(tree.bytes(), 14000u);   // 14 x 1,000 B
    for (const auto& t : expand(tree)) EXPECT_EQ(t.bytes, 1000u);

    collective_plan hd(ct::all_reduce, al::halving_doubling, 8, 1000);
    EXPECT_EQ(hd.transfers(), 48u);  // 8 ranks x 6
    EXPECT_EQ(hd.bytes(), 14000u);   // 8 x 1,750 B
    for (uint32_t p = 0; p < 8; ++p) {
        EXPECT_EQ(hd.steps(p, 0), 6u);
        EXPECT_EQ(step_bytes(hd, p), (std::vector<uint64_t>{500, 250, 125, 125, 250, 500}));
        EXPECT_EQ(hd.bytes_sent(p), 1750u);
    }
}

// Transfers and bytes of every algorithm of every type, worked out by hand, S = 1,000 B
// (C = ceil(1000 / N): 125 for N=8, 167 for N=6, 200 for N=5, 250 for N=4).
TEST(chakra_collective_plan, hand_counts_for_every_algorithm)
{
    struct hand
    {
        ct type;
        al alg;
        uint32_t n;
        uint64_t s;
        uint64_t transfers;
        uint64_t bytes;
    };
    const hand cases[] = {
        // AllReduce ring: N x 2(N-1) transfers of C.
        {ct::all_reduce, al::ring, 8, 1000, 112, 14000},  // 8 x 14 = 112; x 125
        {ct::all_reduce, al::ring, 6, 1000, 60, 10020},   // 6 x 10 = 60; x 167
        {ct::all_reduce, al::ring, 5, 1000, 40, 8000},    // 5 x 8 = 40; x 200
        // AllReduce tree: 2(N-1) of S.
        {ct::all_reduce, al::tree, 8, 1000, 14, 14000},
        {ct::all_reduce, al::tree, 6, 1000, 10, 10000},
        {ct::all_reduce, al::tree, 5, 1000, 8, 8000},
        // AllReduce double-tree: 4(N-1) of ceil(S/2).
        {ct::all_reduce, al::double_tree, 8, 1000, 28, 14000},  // 28 x 500
        {ct::all_reduce, al::double_tree, 6, 1000, 20, 10000},  // 20 x 500
        {ct::all_reduce, al::double_tree, 5, 1001, 16, 8016},   // 16 x 501 (1001/2 rounded up)
        // AllReduce halving-doubling: N x 2 log2 N; per rank 2 C (N-1).
        {ct::all_reduce, al::halving_doubling, 8, 1000, 48, 14000},  // 8 x (500+250+125) x 2
        {ct::all_reduce, al::halving_doubling, 4, 1000, 16, 6000},   // 4 x (500+250) x 2
        // Reduce ring and tree: N-1 of S.
        {ct::reduce, al::ring, 8, 1000, 7, 7000},
        {ct::reduce, al::ring, 5, 1000, 4, 4000},
        {ct::reduce, al::tree, 8, 1000, 7, 7000},
        {ct::reduce, al::tree, 6, 1000, 5, 5000},
        // AllGather ring: N(N-1) of S.
        {ct::all_gather, al::ring, 8, 1000, 56, 56000},
        {ct::all_gather, al::ring, 6, 1000, 30, 30000},
        // ReduceScatter ring: N(N-1) of C; halving: N log2 N, per rank C (N-1).
        {ct::reduce_scatter, al::ring, 8, 1000, 56, 7000},     // 56 x 125
        {ct::reduce_scatter, al::ring, 6, 1000, 30, 5010},     // 30 x 167
        {ct::reduce_scatter, al::halving, 8, 1000, 24, 7000},  // 8 x (500+250+125)
        {ct::reduce_scatter, al::halving, 4, 1000, 8, 3000},   // 4 x (500+250)
        // ReduceScatterBlock ring: as ReduceScatter ring.
        {ct::reduce_scatter_block, al::ring, 8, 1000, 56, 7000},
        {ct::reduce_scatter_block, al::ring, 5, 1000, 20, 4000},  // 20 x 200
        // Broadcast: N-1 of S, either way.
        {ct::broadcast, al::sequential, 8, 1000, 7, 7000},
        {ct::broadcast, al::sequential, 6, 1000, 5, 5000},
        {ct::broadcast, al::interleaved, 8, 1000, 7, 7000},
        {ct::broadcast, al::interleaved, 5, 1000, 4, 4000},
        // Gather: N-1 of S; Scatter: N-1 of C.
        {ct::gather, al::direct, 8, 1000, 7, 7000},
        {ct::gather, al::direct, 5, 1000, 4, 4000},
        {ct::scatter, al::direct, 8, 1000, 7, 875},  // 7 x 125
        {ct::scatter, al::direct, 6, 1000, 5, 835},  // 5 x 167
        // AllToAll: N(N-1) of C, either way.
        {ct::all_to_all, al::sequential, 8, 1000, 56, 7000},
        {ct::all_to_all, al::sequential, 6, 1000, 30, 5010},
        {ct::all_to_all, al::interleaved, 8, 1000, 56, 7000},
        {ct::all_to_all, al::interleaved, 5, 1000, 20, 4000},
        // Barrier: the AllReduce counts, no bytes.
        {ct::barrier, al::ring, 8, 1000, 112, 0},
        {ct::barrier, al::ring, 6, 1000, 60, 0},
        {ct::barrier, al::tree, 8, 1000, 14, 0},
        {ct::barrier, al::tree, 5, 1000, 8, 0},
        {ct::barrier, al::double_tree, 8, 1000, 28, 0},
        {ct::barrier, al::double_tree, 6, 1000, 20, 0},
        {ct::barrier, al::halving_doubling, 8, 1000, 48, 0},
        {ct::barrier, al::halving_doubling, 4, 1000, 16, 0},
    };
    for (const hand& h : cases) {
        for (uint32_t root : roots_for(h.type, h.n)) {
            collective_plan pl(h.type, h.alg, h.n, h.s, root);
            std::string what = name(h.type, h.alg, h.n, root);
            EXPECT_EQ(pl.transfers(), h.transfers) << what;
            EXPECT_EQ(pl.bytes(), h.bytes) << what;
            EXPECT_EQ(expand(pl).size(), h.transfers) << what;
            uint64_t per_rank = 0;
            for (uint32_t p = 0; p < h.n; ++p) per_rank += pl.bytes_sent(p);
            EXPECT_EQ(per_rank, h.bytes) << what;
        }
    }
    // Every algorithm of every type has a line above.
    for (ct t : k_types) {
        for (al a : algorithms_for(t)) {
            bool found = false;
            for (const hand& h : cases) found = found || (h.type == t && h.alg == a && h.n == 8);
            EXPECT_TRUE(found) << collective_name(t) << " " << algorithm_name(a);
        }
    }
}

TEST(chakra_collective_plan, one_rank_has_nothing_to_send)
{
    for (ct t : k_types) {
        for (al a : algorithms_for(t)) {
            collective_plan pl(t, a, 1, 1000);
            for (uint32_t l = 0; l < pl.lanes(); ++l) EXPECT_EQ(pl.steps(0, l), 0u);
            EXPECT_EQ(pl.transfers(), 0u);
            EXPECT_EQ(pl.bytes(), 0u);
            EXPECT_EQ(pl.max_steps(), 0u);
            EXPECT_TRUE(expand(pl).empty());
            EXPECT_EQ(run_rounds(pl), 0);
        }
    }
}

TEST(chakra_collective_plan, every_send_meets_its_receive_for_n_1_to_9)
{
    for (ct t : k_types) {
        for (al a : algorithms_for(t)) {
            for (uint32_t n = 1; n <= 9; ++n) {
                if (!fits(a, n)) continue;
                for (uint32_t root : roots_for(t, n)) {
                    for (uint64_t s : {0ull, 1ull, 1000ull, 1001ull}) {
                        collective_plan pl(t, a, n, s, root);
                        check_matching(pl, name(t, a, n, root) + " S=" + std::to_string(s));
                    }
                }
            }
        }
    }
}

// The ordering rule runs every plan to the end (no send waits for a receive that never comes),
// in as many rounds as the algorithm's chain is long.
TEST(chakra_collective_plan, every_plan_runs_to_the_end_in_its_chain_length)
{
    for (ct t : k_types) {
        for (al a : algorithms_for(t)) {
            for (uint32_t n = 1; n <= 17; ++n) {
                if (!fits(a, n)) continue;
                for (uint32_t root : roots_for(t, n)) {
                    collective_plan pl(t, a, n, 1000, root);
                    EXPECT_EQ(run_rounds(pl), expected_rounds(t, a, n)) << name(t, a, n, root);
                }
            }
        }
    }
}

TEST(chakra_collective_plan, ordering_flags)
{
    for (ct t : k_types) {
        for (al a : algorithms_for(t)) {
            collective_plan pl(t, a, 4, 1000);
            EXPECT_EQ(pl.lanes(), a == al::double_tree ? 2u : 1u);
            bool forwards = a == al::ring || a == al::tree || a == al::double_tree ||
                            a == al::halving_doubling || a == al::halving;
            for (uint32_t l = 0; l < pl.lanes(); ++l) {
                EXPECT_EQ(pl.send_after_recv(l), forwards)
                    << collective_name(t) << " " << algorithm_name(a);
                EXPECT_EQ(pl.send_after_send(l), a == al::sequential)
                    << collective_name(t) << " " << algorithm_name(a);
            }
        }
    }
}

TEST(chakra_collective_plan, ring_sends_to_the_next_and_receives_from_the_previous)
{
    for (ct t : {ct::all_reduce, ct::all_gather, ct::reduce_scatter, ct::reduce_scatter_block,
                 ct::barrier}) {
        for (uint32_t n : {2u, 5u, 8u}) {
            collective_plan pl(t, al::ring, n, 1000);
            uint32_t steps = t == ct::all_reduce || t == ct::barrier ? 2 * (n - 1) : n - 1;
            uint64_t bytes = t == ct::barrier ? 0 : t == ct::all_gather ? 1000 : (1000 + n - 1) / n;
            std::vector<transfer_op> sends, recvs;
            for (uint32_t p = 0; p < n; ++p) {
                ASSERT_EQ(pl.steps(p, 0), steps);
                for (uint32_t k = 0; k < steps; ++k) {
                    pl.step(p, 0, k, sends, recvs);
                    ASSERT_EQ(sends.size(), 1u);
                    ASSERT_EQ(recvs.size(), 1u);
                    EXPECT_EQ(sends[0].peer, (p + 1) % n);
                    EXPECT_EQ(recvs[0].peer, (p + n - 1) % n);
                    EXPECT_EQ(sends[0].bytes, bytes);
                    EXPECT_EQ(recvs[0].bytes, bytes);
                }
            }
            EXPECT_EQ(pl.max_steps(), steps);
        }
    }
}

TEST(chakra_collective_plan, all_to_all_step_s_goes_s_places_on)
{
    std::vector<transfer_op> sends, recvs;
    for (uint32_t n : {2u, 6u, 8u}) {
        const uint64_t c = (1000 + n - 1) / n;
        collective_plan seq(ct::all_to_all, al::sequential, n, 1000);
        collective_plan all(ct::all_to_all, al::interleaved, n, 1000);
        for (uint32_t p = 0; p < n; ++p) {
            ASSERT_EQ(seq.steps(p, 0), n - 1);
            ASSERT_EQ(all.steps(p, 0), 1u);
            all.step(p, 0, 0, sends, recvs);
            std::vector<transfer_op> all_sends = sends, all_recvs = recvs;
            ASSERT_EQ(all_sends.size(), n - 1);
            for (uint32_t s = 1; s < n; ++s) {
                seq.step(p, 0, s - 1, sends, recvs);
                ASSERT_EQ(sends.size(), 1u);
                ASSERT_EQ(recvs.size(), 1u);
                EXPECT_EQ(sends[0].peer, (p + s) % n);
                EXPECT_EQ(recvs[0].peer, (p + n - s) % n);
                EXPECT_EQ(sends[0].bytes, c);
                EXPECT_EQ(recvs[0].bytes, c);
                // Interleaved: the same transfers, in the one step.
                EXPECT_EQ(all_sends[s - 1].peer, (p + s) % n);
                EXPECT_EQ(all_recvs[s - 1].peer, (p + n - s) % n);
                EXPECT_EQ(all_sends[s - 1].bytes, c);
            }
        }
    }
}

TEST(chakra_collective_plan, halving_partners)
{
    std::vector<transfer_op> sends, recvs;
    for (uint32_t n : {2u, 4u, 8u, 16u}) {
        const uint32_t l = log2_of(n);
        const uint64_t c = (1000 + n - 1) / n;
        collective_plan hd(ct::all_reduce, al::halving_doubling, n, 1000);
        collective_plan rs(ct::reduce_scatter, al::halving, n, 1000);
        for (uint32_t p = 0; p < n; ++p) {
            ASSERT_EQ(hd.steps(p, 0), 2 * l);
            ASSERT_EQ(rs.steps(p, 0), l);
            for (uint32_t k = 0; k < l; ++k) {
                for (const collective_plan* pl : {&hd, &rs}) {
                    pl->step(p, 0, k, sends, recvs);
                    ASSERT_EQ(sends.size(), 1u);
                    ASSERT_EQ(recvs.size(), 1u);
                    EXPECT_EQ(sends[0].peer, p ^ (n >> (k + 1)));
                    EXPECT_EQ(recvs[0].peer, p ^ (n >> (k + 1)));
                    EXPECT_EQ(sends[0].bytes, c * n / (2u << k));
                    EXPECT_EQ(recvs[0].bytes, c * n / (2u << k));
                }
                hd.step(p, 0, l + k, sends, recvs);
                EXPECT_EQ(sends[0].peer, p ^ (1u << k));
                EXPECT_EQ(recvs[0].peer, p ^ (1u << k));
                EXPECT_EQ(sends[0].bytes, c << k);
            }
        }
    }
    // N = 8: the partners of rank 5 (101b): 1, 7, 4, then 4, 7, 1.
    collective_plan hd(ct::all_reduce, al::halving_doubling, 8, 1000);
    std::vector<uint32_t> partners;
    for (uint32_t k = 0; k < 6; ++k) {
        hd.step(5, 0, k, sends, recvs);
        partners.push_back(sends[0].peer);
    }
    EXPECT_EQ(partners, (std::vector<uint32_t>{1, 7, 4, 4, 7, 1}));
}

namespace {

// parent[p] in a tree plan's lane, from its up transfers (-1 for the root).
std::vector<int> parents(const collective_plan& pl, uint32_t lane)
{
    std::vector<int> parent(pl.group_size(), -1);
    for (const auto& t : expand(pl)) {
        if (t.lane == lane && t.step == 1) parent[t.src] = int(t.dst);  // step 1 sends up
    }
    return parent;
}

}  // namespace

TEST(chakra_collective_plan, tree_shapes_for_8_ranks)
{
    // Lane 0: root 0, its child 1, then the heap 1 -> 2,3; 2 -> 4,5; 3 -> 6,7.
    collective_plan tree(ct::all_reduce, al::tree, 8, 1000);
    EXPECT_EQ(parents(tree, 0), (std::vector<int>{-1, 0, 1, 1, 2, 2, 3, 3}));
    // double-tree lane 1: root 7, its child 0, then 0 -> 1,2; 1 -> 3,4; 2 -> 5,6.
    collective_plan dt(ct::all_reduce, al::double_tree, 8, 1000);
    EXPECT_EQ(parents(dt, 0), (std::vector<int>{-1, 0, 1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(parents(dt, 1), (std::vector<int>{7, 0, 0, 1, 1, 2, 2, -1}));
    for (const auto& t : expand(dt)) EXPECT_EQ(t.bytes, 500u);
    // Reduce tree rooted at 3: the order 3,4,5,6,7,0,1,2 as tree indices 0..7, so 3 <- 4,
    // 4 <- 5,6; 5 <- 7,0; 6 <- 1,2.
    collective_plan rt(ct::reduce, al::tree, 8, 1000, 3);
    EXPECT_EQ(parents(rt, 0), (std::vector<int>{5, 6, 6, -1, 3, 4, 4, 5}));

    // Steps of rank 1 in the AllReduce tree: receives from 2 and 3, then sends to and receives
    // from 0, then sends to 2 and 3.
    std::vector<transfer_op> sends, recvs;
    auto peers = [](const std::vector<transfer_op>& ops) {
        std::vector<uint32_t> out;
        for (const auto& o : ops) out.push_back(o.peer);
        return out;
    };
    ASSERT_EQ(tree.steps(1, 0), 3u);
    tree.step(1, 0, 0, sends, recvs);
    EXPECT_TRUE(sends.empty());
    EXPECT_EQ(peers(recvs), (std::vector<uint32_t>{2, 3}));
    tree.step(1, 0, 1, sends, recvs);
    EXPECT_EQ(peers(sends), (std::vector<uint32_t>{0}));
    EXPECT_EQ(peers(recvs), (std::vector<uint32_t>{0}));
    tree.step(1, 0, 2, sends, recvs);
    EXPECT_EQ(peers(sends), (std::vector<uint32_t>{2, 3}));
    EXPECT_TRUE(recvs.empty());
    // The root: receives from 1, sends to 1 after it.
    tree.step(0, 0, 0, sends, recvs);
    EXPECT_EQ(peers(recvs), (std::vector<uint32_t>{1}));
    tree.step(0, 0, 1, sends, recvs);
    EXPECT_TRUE(sends.empty() && recvs.empty());
    tree.step(0, 0, 2, sends, recvs);
    EXPECT_EQ(peers(sends), (std::vector<uint32_t>{1}));
    // Both directions of every edge, once.
    EXPECT_EQ(tree.transfers(), 14u);
}

TEST(chakra_collective_plan, reduce_ring_ends_at_the_root)
{
    // Root 2 of 5: 3 -> 4 -> 0 -> 1 -> 2.
    collective_plan pl(ct::reduce, al::ring, 5, 1000, 2);
    std::map<uint32_t, uint32_t> next;
    for (const auto& t : expand(pl)) {
        EXPECT_EQ(t.bytes, 1000u);
        EXPECT_EQ(t.step, 1u);
        next[t.src] = t.dst;
    }
    EXPECT_EQ(next, (std::map<uint32_t, uint32_t>{{3, 4}, {4, 0}, {0, 1}, {1, 2}}));
    // The first of the chain has nothing to wait for; the root only receives.
    std::vector<transfer_op> sends, recvs;
    pl.step(3, 0, 0, sends, recvs);
    EXPECT_TRUE(recvs.empty());
    pl.step(2, 0, 0, sends, recvs);
    ASSERT_EQ(recvs.size(), 1u);
    EXPECT_EQ(recvs[0].peer, 1u);
    pl.step(2, 0, 1, sends, recvs);
    EXPECT_TRUE(sends.empty());
}

TEST(chakra_collective_plan, rooted_one_to_all_and_all_to_one)
{
    std::vector<transfer_op> sends, recvs;
    // Broadcast sequential, root 2 of 5: to 3, 4, 0, 1, one per step.
    collective_plan seq(ct::broadcast, al::sequential, 5, 1000, 2);
    ASSERT_EQ(seq.steps(2, 0), 4u);
    EXPECT_EQ(seq.max_steps(), 4u);
    std::vector<uint32_t> order;
    for (uint32_t k = 0; k < 4; ++k) {
        seq.step(2, 0, k, sends, recvs);
        ASSERT_EQ(sends.size(), 1u);
        EXPECT_TRUE(recvs.empty());
        order.push_back(sends[0].peer);
    }
    EXPECT_EQ(order, (std::vector<uint32_t>{3, 4, 0, 1}));
    for (uint32_t p : {0u, 1u, 3u, 4u}) {
        ASSERT_EQ(seq.steps(p, 0), 1u);
        seq.step(p, 0, 0, sends, recvs);
        EXPECT_TRUE(sends.empty());
        ASSERT_EQ(recvs.size(), 1u);
        EXPECT_EQ(recvs[0].peer, 2u);
        EXPECT_EQ(recvs[0].bytes, 1000u);
    }
    // Interleaved: the same four sends in one step.
    collective_plan all(ct::broadcast, al::interleaved, 5, 1000, 2);
    ASSERT_EQ(all.steps(2, 0), 1u);
    all.step(2, 0, 0, sends, recvs);
    ASSERT_EQ(sends.size(), 4u);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(sends[i].peer, (2 + 1 + i) % 5);

    // Gather root 4 of 6: every other rank sends S to 4; Scatter root 4: 4 sends C = 167 to each.
    collective_plan g(ct::gather, al::direct, 6, 1000, 4);
    collective_plan s(ct::scatter, al::direct, 6, 1000, 4);
    for (const auto& t : expand(g)) {
        EXPECT_EQ(t.dst, 4u);
        EXPECT_EQ(t.bytes, 1000u);
    }
    for (const auto& t : expand(s)) {
        EXPECT_EQ(t.src, 4u);
        EXPECT_EQ(t.bytes, 167u);
    }
    g.step(4, 0, 0, sends, recvs);
    EXPECT_TRUE(sends.empty());
    EXPECT_EQ(recvs.size(), 5u);
}

TEST(chakra_collective_plan, plan_errors)
{
    // Every algorithm a type does not allow.
    for (ct t : k_types) {
        for (int i = 0; i < k_algorithms; ++i) {
            al a = algorithm(i);
            if (allows(t, a)) {
                EXPECT_NO_THROW(collective_plan(t, a, 8, 1000));
                continue;
            }
            try {
                collective_plan(t, a, 8, 1000);
                ADD_FAILURE() << collective_name(t) << " " << algorithm_name(a) << " accepted";
            } catch (const plan_error& e) {
                std::string m = e.what();
                EXPECT_NE(m.find(collective_name(t)), std::string::npos) << m;
                EXPECT_NE(m.find(algorithm_name(a)), std::string::npos) << m;
            }
            EXPECT_THROW(ideal_time_s(t, a, 8, 1000, 1e11), plan_error);
        }
    }
    // A group whose size is not a power of two: the message names the algorithm and the size.
    struct bad
    {
        ct t;
        al a;
        uint32_t n;
    };
    for (bad b :
         {bad{ct::all_reduce, al::halving_doubling, 6}, bad{ct::barrier, al::halving_doubling, 3},
          bad{ct::reduce_scatter, al::halving, 12}}) {
        try {
            collective_plan(b.t, b.a, b.n, 1000);
            ADD_FAILURE() << "accepted N = " << b.n;
        } catch (const plan_error& e) {
            std::string m = e.what();
            EXPECT_NE(m.find(algorithm_name(b.a)), std::string::npos) << m;
            EXPECT_NE(m.find(std::to_string(b.n)), std::string::npos) << m;
            EXPECT_NE(m.find("power of two"), std::string::npos) << m;
        }
        EXPECT_THROW(ideal_time_s(b.t, b.a, b.n, 1000, 1e11), plan_error);
    }
    EXPECT_NO_THROW(collective_plan(ct::all_reduce, al::halving_doubling, 1, 1000));  // 2^0
    // An empty group, a root outside the group.
    EXPECT_THROW(collective_plan(ct::all_reduce, al::ring, 0, 1000), plan_error);
    EXPECT_THROW(collective_plan(ct::broadcast, al::interleaved, 4, 1000, 4), plan_error);
    EXPECT_NO_THROW(collective_plan(ct::all_reduce, al::ring, 4, 1000, 9));  // no root: ignored
    EXPECT_THROW(busbw_factor(ct::all_reduce, 0), plan_error);
    EXPECT_THROW(ideal_time_s(ct::all_reduce, al::ring, 8, 1000, 0), plan_error);
    // Out of the plan.
    collective_plan pl(ct::all_reduce, al::ring, 4, 1000);
    std::vector<transfer_op> sends, recvs;
    EXPECT_THROW(pl.steps(4, 0), std::out_of_range);
    EXPECT_THROW(pl.steps(0, 1), std::out_of_range);
    EXPECT_THROW(pl.step(0, 0, 6, sends, recvs), std::out_of_range);
}

TEST(chakra_collective_plan, large_ring_is_computed_on_demand)
{
    collective_plan pl(ct::all_reduce, al::ring, 1024, 1 << 20);
    EXPECT_EQ(pl.steps(1023, 0), 2046u);
    EXPECT_EQ(pl.chunk(), 1024u);
    EXPECT_EQ(pl.transfers(), 1024u * 2046u);
    EXPECT_EQ(pl.bytes(), 1024ull * 2046u * 1024u);
    std::vector<transfer_op> sends, recvs;
    pl.step(1023, 0, 2045, sends, recvs);
    EXPECT_EQ(sends[0].peer, 0u);
    EXPECT_EQ(recvs[0].peer, 1022u);
    // C rounds up without overflow.
    collective_plan big(ct::reduce_scatter, al::ring, 7, UINT64_MAX);  // 2^64 - 1 = 1 mod 7
    EXPECT_EQ(big.chunk(), UINT64_MAX / 7 + 1);
}

TEST(chakra_collective_plan, ideal_time_of_ring_all_reduce_is_the_records_page_formula)
{
    for (uint32_t n : {2u, 3u, 8u, 100u, 1024u}) {
        for (uint64_t s : {1ull, 1000ull, 1ull << 30, 123456789ull}) {
            for (double b : {100e9, 400e9, 12.5e9}) {
                double page = 2 * double(s) * 8 * (n - 1) / (n * b);
                EXPECT_EQ(ideal_time_s(ct::all_reduce, al::ring, n, s, b), page);
            }
        }
    }
    // 2 x 1000 x 8 x 7 / (8 x 100e9) = 140 ns.
    EXPECT_DOUBLE_EQ(ideal_time_s(ct::all_reduce, al::ring, 8, 1000, 100e9), 140e-9);
}

TEST(chakra_collective_plan, ideal_times_of_every_algorithm)
{
    // S = 1,000 B, N = 8, B = 100 Gbit/s: one S takes 8,000 / 1e11 = 80 ns, one S/8 10 ns.
    // The tree of 8: root edge 1, heap levels 2 and 2: F(8) = 5 transfer times each way.
    const double b = 100e9;
    struct expect
    {
        ct t;
        al a;
        double s;
    };
    const expect cases[] = {
        {ct::all_reduce, al::ring, 140e-9},              // 2 x 7 x 10 ns
        {ct::all_reduce, al::halving_doubling, 140e-9},  // 2 x (40 + 20 + 10) ns
        {ct::all_reduce, al::tree, 800e-9},              // 2 x 5 x 80 ns
        {ct::all_reduce, al::double_tree, 400e-9},       // 2 x 5 x 40 ns, both trees at once
        {ct::reduce, al::ring, 560e-9},                  // 7 hops x 80 ns
        {ct::reduce, al::tree, 400e-9},                  // 5 x 80 ns
        {ct::all_gather, al::ring, 560e-9},              // 7 x 80 ns
        {ct::reduce_scatter, al::ring, 70e-9},           // 7 x 10 ns
        {ct::reduce_scatter, al::halving, 70e-9},        // (40 + 20 + 10) ns
        {ct::reduce_scatter_block, al::ring, 70e-9},     // 7 x 10 ns
        {ct::broadcast, al::sequential, 560e-9},         // 7 x 80 ns, one after another
        {ct::broadcast, al::interleaved, 560e-9},        // 7 x 80 ns, sharing the root's link
        {ct::gather, al::direct, 560e-9},                // 7 x 80 ns into the root's link
        {ct::scatter, al::direct, 70e-9},                // 7 x 10 ns out of the root's link
        {ct::all_to_all, al::sequential, 70e-9},         // 7 x 10 ns
        {ct::all_to_all, al::interleaved, 70e-9},        // 7 x 10 ns, sharing
        {ct::barrier, al::ring, 0},
        {ct::barrier, al::tree, 0},
        {ct::barrier, al::double_tree, 0},
        {ct::barrier, al::halving_doubling, 0},
    };
    for (const expect& e : cases) {
        EXPECT_NEAR(ideal_time_s(e.t, e.a, 8, 1000, b), e.s, 1e-18)
            << collective_name(e.t) << " " << algorithm_name(e.a);
    }
    for (ct t : k_types) {
        for (al a : algorithms_for(t)) {
            bool listed = false;
            for (const expect& e : cases) listed = listed || (e.t == t && e.a == a);
            EXPECT_TRUE(listed) << collective_name(t) << " " << algorithm_name(a);
            EXPECT_EQ(ideal_time_s(t, a, 1, 1000, b), 0.0);  // nothing to move
            if (fits(a, 6) && t != ct::barrier) {
                EXPECT_GT(ideal_time_s(t, a, 6, 1000, b), 0.0);
            }
        }
    }
}

// F(N) of the tree formulas against the trees the plans build: per level of parents, the most
// children any parent there has.
TEST(chakra_collective_plan, tree_level_count_matches_the_plans_trees)
{
    const double b = 8e9;  // one byte per ns: 8S/B = S ns
    const uint64_t s = 1000;
    for (uint32_t n = 2; n <= 70; ++n) {
        collective_plan pl(ct::reduce, al::tree, n, s);
        std::vector<int> parent = parents(pl, 0);
        std::vector<uint32_t> depth(n, 0), fan(n, 0);
        for (uint32_t p = 0; p < n; ++p) {
            for (int q = parent[p]; q >= 0; q = parent[size_t(q)]) ++depth[p];
            if (parent[p] >= 0) ++fan[size_t(parent[p])];
        }
        std::map<uint32_t, uint32_t> level_fan;
        for (uint32_t p = 0; p < n; ++p)
            level_fan[depth[p]] = std::max(level_fan[depth[p]], fan[p]);
        uint32_t f = 0;
        for (auto [d, m] : level_fan) f += m;
        std::string what = "N=" + std::to_string(n);
        EXPECT_DOUBLE_EQ(ideal_time_s(ct::reduce, al::tree, n, s, b), f * 1000e-9) << what;
        EXPECT_DOUBLE_EQ(ideal_time_s(ct::all_reduce, al::tree, n, s, b), 2 * f * 1000e-9) << what;
        EXPECT_DOUBLE_EQ(ideal_time_s(ct::all_reduce, al::double_tree, n, s, b), f * 1000e-9)
            << what;
        // The closed form: F(2) = 1, F(N) = 2h - 1 + min(2, N - 2^h), h = floor(log2(N-1)).
        uint32_t h = log2_of(n - 1);
        uint32_t closed = n == 2 ? 1 : 2 * h - 1 + std::min(2u, n - (1u << h));
        EXPECT_EQ(f, closed) << what;
    }
}

TEST(chakra_collective_plan, busbw_factors)
{
    EXPECT_DOUBLE_EQ(busbw_factor(ct::all_reduce, 8), 14.0 / 8);
    for (ct t : {ct::all_gather, ct::reduce_scatter, ct::reduce_scatter_block, ct::all_to_all,
                 ct::gather, ct::scatter}) {
        EXPECT_DOUBLE_EQ(busbw_factor(t, 8), 7.0 / 8) << collective_name(t);
        EXPECT_EQ(busbw_factor(t, 1), 0.0) << collective_name(t);
    }
    EXPECT_EQ(busbw_factor(ct::broadcast, 8), 1.0);
    EXPECT_EQ(busbw_factor(ct::reduce, 8), 1.0);
    EXPECT_EQ(busbw_factor(ct::broadcast, 1), 1.0);
    EXPECT_EQ(busbw_factor(ct::barrier, 8), 0.0);
    EXPECT_EQ(busbw_factor(ct::all_reduce, 1), 0.0);
    EXPECT_EQ(busbw_factor(ct::barrier, 1), 0.0);
    EXPECT_DOUBLE_EQ(busbw_factor(ct::all_reduce, 2), 1.0);
}
