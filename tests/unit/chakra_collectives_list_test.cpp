// The Collectives list as a Chakra traceset (pure logic): one rank per host, each entry a chain
// of COMM_COLL_NODEs after an optional Start wait, process groups by member list, and what trace
// preparation makes of it (one instance per iteration, serialized within a group only).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "testbench/traffic/chakra/collectives_list.h"
#include "testbench/traffic/chakra/trace_preparation.h"

using namespace uetsim::chakra;

namespace {

using ct = collective_type;

collective_spec entry(ct type, uint64_t bytes, rank_selection ranks, uint32_t iterations = 1,
                      double start_s = 0)
{
    collective_spec e;
    e.type = type;
    e.bytes = bytes;
    e.ranks = ranks;
    e.iterations = iterations;
    e.start_s = start_s;
    return e;
}

rank_selection all()
{
    return {};
}
rank_selection list(std::vector<uint32_t> hosts)
{
    rank_selection r;
    r.form = rank_selection::kind::list;
    r.hosts = std::move(hosts);
    return r;
}
rank_selection range(uint32_t from, uint32_t to)
{
    rank_selection r;
    r.form = rank_selection::kind::range;
    r.from = from;
    r.to = to;
    return r;
}

// The index of the node with trace id `id` in rank r's prepared trace.
uint32_t index_of(const prepared_workload& w, uint32_t r, uint64_t id)
{
    for (uint32_t i = 0; i < w.ranks[r].nodes.size(); ++i)
        if (w.ranks[r].nodes[i].trace_id == id) return i;
    throw std::out_of_range("no node " + std::to_string(id));
}

// The trace ids of what node `id` of rank r releases.
std::vector<uint64_t> released_by(const prepared_workload& w, uint32_t r, uint64_t id)
{
    const prepared_rank& pr = w.ranks[r];
    const prepared_node& p = pr.nodes[index_of(w, r, id)];
    std::vector<uint64_t> out;
    for (uint32_t k = p.dependents_begin; k < p.dependents_end; ++k)
        out.push_back(pr.nodes[pr.dependents[k]].trace_id);
    return out;
}

TEST(ChakraCollectivesList, OneRankPerHostEachEntryAChainOfCollectives)
{
    chakra_config cfg;
    cfg.collectives = {entry(ct::all_reduce, 1 << 20, all(), 3)};
    const traceset ts = collectives_traceset(cfg, 4, "Collectives");
    EXPECT_EQ(ts.prefix, "Collectives");
    ASSERT_EQ(ts.ranks.size(), 4u);
    for (uint32_t r = 0; r < 4; ++r) {
        const rank_trace& t = ts.ranks[r];
        EXPECT_EQ(t.rank, r);
        EXPECT_EQ(t.file, "Collectives." + std::to_string(r) + ".et");
        // Start 0: no wait node, just the 3 iterations, ids 0, 1, 2, each on the one before.
        ASSERT_EQ(t.nodes.size(), 3u);
        for (uint64_t k = 0; k < 3; ++k) {
            const node& n = t.nodes[k];
            EXPECT_EQ(n.id, k);
            EXPECT_EQ(n.type, node_type::comm_coll);
            EXPECT_EQ(n.comm_type, int64_t(ct::all_reduce));
            EXPECT_EQ(n.comm_size, uint64_t(1) << 20);
            EXPECT_EQ(n.pg_name, "0");
            EXPECT_FALSE(n.root.has_value());
            EXPECT_FALSE(n.algorithm.has_value());  // Chakra.AllReduceAlgorithm decides
            EXPECT_TRUE(n.ctrl_deps.empty());
            EXPECT_EQ(n.data_deps, k ? std::vector<uint64_t>{k - 1} : std::vector<uint64_t>{});
        }
        EXPECT_EQ(t.nodes[2].name, "Collectives[0] AllReduce 2");
        ASSERT_EQ(t.groups.size(), 1u);
        EXPECT_EQ(t.groups[0].name, "0");
        EXPECT_EQ(t.groups[0].ranks, (std::vector<uint32_t>{0, 1, 2, 3}));
    }
}

TEST(ChakraCollectivesList, StartIsAMemLoadOfWholeMicroseconds)
{
    chakra_config cfg;
    cfg.collectives = {entry(ct::all_gather, 64, all(), 2, 12e-6)};
    const traceset ts = collectives_traceset(cfg, 2, "c");
    for (const rank_trace& t : ts.ranks) {
        ASSERT_EQ(t.nodes.size(), 3u);
        const node& wait = t.nodes[0];
        EXPECT_EQ(wait.id, 0u);
        EXPECT_EQ(wait.type, node_type::mem_load);
        EXPECT_EQ(wait.duration_micros, 12u);  // 12e-6 s
        EXPECT_EQ(wait.name, "Collectives[0].Start");
        EXPECT_TRUE(wait.data_deps.empty());
        // The first iteration waits for the Start, the second for the first.
        EXPECT_EQ(t.nodes[1].data_deps, std::vector<uint64_t>{0});
        EXPECT_EQ(t.nodes[2].data_deps, std::vector<uint64_t>{1});
        EXPECT_EQ(t.nodes[2].type, node_type::comm_coll);
    }
    // 15 x 1e-6 s is 1.4999999999999999e-05 in doubles, 14.999999999999998 us: rounded, not
    // truncated, it is 15 us.
    cfg.collectives = {entry(ct::all_gather, 64, all(), 1, 15 * 1e-6)};
    EXPECT_EQ(collectives_traceset(cfg, 2, "c").ranks[0].nodes[0].duration_micros, 15u);
}

TEST(ChakraCollectivesList, GroupsAreNamedByDistinctMemberListsInFirstUseOrder)
{
    // 5 hosts. Entry 0: all -> "0" = {0..4}; entry 1: [2, 3] -> "1"; entry 2: From 0 To 4, the
    // same members as entry 0 -> "0"; entry 3: [3, 2], the same hosts in another order, which
    // the algorithms see differently -> "2".
    chakra_config cfg;
    cfg.collectives = {entry(ct::all_reduce, 100, all()), entry(ct::all_gather, 10, list({2, 3})),
                       entry(ct::reduce_scatter, 50, range(0, 4)),
                       entry(ct::all_to_all, 20, list({3, 2}))};
    const traceset ts = collectives_traceset(cfg, 5, "c");
    const std::vector<process_group> expected = {
        {"0", {0, 1, 2, 3, 4}}, {"1", {2, 3}}, {"2", {3, 2}}};
    for (const rank_trace& t : ts.ranks) {
        ASSERT_EQ(t.groups.size(), expected.size());  // every rank declares every group
        for (size_t g = 0; g < expected.size(); ++g) {
            EXPECT_EQ(t.groups[g].name, expected[g].name);
            EXPECT_EQ(t.groups[g].ranks, expected[g].ranks);
        }
    }
    // Rank 0 takes part in entries 0 and 2; rank 3 in all four, in entry order.
    ASSERT_EQ(ts.ranks[0].nodes.size(), 2u);
    EXPECT_EQ(ts.ranks[0].nodes[0].pg_name, "0");
    EXPECT_EQ(ts.ranks[0].nodes[1].pg_name, "0");
    EXPECT_EQ(ts.ranks[0].nodes[1].comm_type, int64_t(ct::reduce_scatter));
    ASSERT_EQ(ts.ranks[3].nodes.size(), 4u);
    std::vector<std::string> pgs;
    for (const node& n : ts.ranks[3].nodes) pgs.push_back(*n.pg_name);
    EXPECT_EQ(pgs, (std::vector<std::string>{"0", "1", "0", "2"}));
    // Each entry is its own chain: entry 2's node on rank 3 (id 2) does not wait for entry 1's.
    EXPECT_EQ(ts.ranks[3].nodes[2].id, 2u);
    EXPECT_TRUE(ts.ranks[3].nodes[2].data_deps.empty());
}

TEST(ChakraCollectivesList, RanksListAndRangeSelectTheHosts)
{
    chakra_config cfg;
    cfg.collectives = {entry(ct::all_reduce, 100, range(1, 3))};
    traceset ts = collectives_traceset(cfg, 6, "c");
    ASSERT_EQ(ts.ranks.size(), 6u);  // one rank per host, members or not
    for (uint32_t r = 0; r < 6; ++r)
        EXPECT_EQ(ts.ranks[r].nodes.size(), r >= 1 && r <= 3 ? 1u : 0u);
    EXPECT_EQ(ts.ranks[0].groups[0].ranks, (std::vector<uint32_t>{1, 2, 3}));

    cfg.collectives = {entry(ct::all_reduce, 100, list({5, 0}))};
    ts = collectives_traceset(cfg, 6, "c");
    EXPECT_EQ(ts.ranks[0].groups[0].ranks, (std::vector<uint32_t>{5, 0}));
    EXPECT_EQ(ts.ranks[5].nodes.size(), 1u);
    EXPECT_EQ(ts.ranks[3].nodes.size(), 0u);
}

TEST(ChakraCollectivesList, RootAndAlgorithmAreCarriedAsAttributes)
{
    chakra_config cfg;
    collective_spec b = entry(ct::broadcast, 4096, list({1, 2, 3}), 2);
    b.root = 2;
    b.algorithm = "sequential";
    cfg.collectives = {b};
    traceset ts = collectives_traceset(cfg, 4, "c");
    for (uint32_t r = 1; r <= 3; ++r)
        for (const node& n : ts.ranks[r].nodes) {
            EXPECT_EQ(n.root, 2);
            EXPECT_EQ(n.algorithm, "sequential");
        }
    // Through trace preparation: rank 2 is at position 1 of {1, 2, 3}.
    const prepared_workload w = prepare_traces(ts, cfg);
    ASSERT_EQ(w.collectives.size(), 2u);
    EXPECT_EQ(w.collectives[0].root_position, 1u);
    EXPECT_EQ(w.collectives[0].alg, algorithm::sequential);
    EXPECT_EQ(w.collectives[0].comm_size, 4096u);
}

TEST(ChakraCollectivesList, IterationsAreInstancesInOrder)
{
    // 3 iterations on 4 hosts: 3 instances, rank r's node k in instance k.
    chakra_config cfg;
    cfg.collectives = {entry(ct::all_reduce, 1000, all(), 3, 5e-6)};
    const prepared_workload w = prepare_traces(collectives_traceset(cfg, 4, "c"), cfg);
    ASSERT_EQ(w.collectives.size(), 3u);
    for (uint32_t r = 0; r < 4; ++r) {
        EXPECT_EQ(w.ranks[r].nodes[0].kind, op_kind::timed);  // the Start
        EXPECT_EQ(w.ranks[r].nodes[0].duration_us, 5u);
        for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(w.ranks[r].nodes[k + 1].collective, k);
        EXPECT_EQ(w.ranks[r].ready, std::vector<uint32_t>{0});  // only the Start
    }
    EXPECT_EQ(w.groups[w.collectives[0].group].name, "0");
}

TEST(ChakraCollectivesList, EntriesOnTheSameGroupAreSerialized)
{
    // Entries 0 (AllReduce) and 1 (AllGather), both on all 3 hosts: group "0". Each entry is its
    // own chain, so only process group serialization makes the AllGather (id 1) wait for the
    // AllReduce (id 0).
    chakra_config cfg;
    cfg.collectives = {entry(ct::all_reduce, 300, all()), entry(ct::all_gather, 30, range(0, 2))};
    const traceset ts = collectives_traceset(cfg, 3, "c");
    const prepared_workload w = prepare_traces(ts, cfg);
    ASSERT_EQ(w.collectives.size(), 2u);
    EXPECT_EQ(w.collectives[0].group, w.collectives[1].group);
    for (uint32_t r = 0; r < 3; ++r) {
        EXPECT_EQ(released_by(w, r, 0), std::vector<uint64_t>{1});
        EXPECT_EQ(w.ranks[r].nodes[index_of(w, r, 1)].deps, 1u);
        EXPECT_EQ(w.ranks[r].ready, std::vector<uint32_t>{0});
    }

    cfg.process_group_serialization = false;
    const prepared_workload off = prepare_traces(ts, cfg);
    for (uint32_t r = 0; r < 3; ++r) EXPECT_EQ(off.ranks[r].ready, (std::vector<uint32_t>{0, 1}));
}

TEST(ChakraCollectivesList, EntriesOnDifferentGroupsAreNotSerialized)
{
    // Entry 0 on [0, 1] ("0"), entry 1 on all 4 ("1"): on ranks 0 and 1 the second collective
    // (id 1) waits for nothing, so the two run at once.
    chakra_config cfg;
    cfg.collectives = {entry(ct::all_reduce, 300, list({0, 1})), entry(ct::all_reduce, 300, all())};
    const prepared_workload w = prepare_traces(collectives_traceset(cfg, 4, "c"), cfg);
    ASSERT_EQ(w.collectives.size(), 2u);
    EXPECT_NE(w.collectives[0].group, w.collectives[1].group);
    for (uint32_t r = 0; r < 2; ++r) {
        EXPECT_EQ(w.ranks[r].ready, (std::vector<uint32_t>{0, 1}));
        EXPECT_TRUE(released_by(w, r, 0).empty());
    }
    // Ranks 2 and 3 have entry 1 only: their node 0 is instance 1.
    EXPECT_EQ(w.ranks[2].nodes.size(), 1u);
    EXPECT_EQ(w.ranks[2].nodes[0].collective, 1u);
    EXPECT_EQ(w.ranks[0].nodes[0].collective, 0u);
    EXPECT_EQ(w.ranks[0].nodes[1].collective, 1u);
}

TEST(ChakraCollectivesList, EmptyListGivesRanksWithoutNodes)
{
    chakra_config cfg;
    const traceset ts = collectives_traceset(cfg, 3, "c");
    ASSERT_EQ(ts.ranks.size(), 3u);
    for (const rank_trace& t : ts.ranks) {
        EXPECT_TRUE(t.nodes.empty());
        EXPECT_TRUE(t.groups.empty());
    }
}

}  // namespace
