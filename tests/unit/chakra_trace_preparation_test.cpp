// Chakra trace preparation (pure logic): node kinds, dependencies and their checks, point-to-point
// matching, process groups and collective instances, the ordering options, Scaling, the totals
// and the warning options, each worked out by hand from a small traceset built in memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "testbench/traffic/chakra/trace_preparation.h"

using namespace uetsim::chakra;
using ::testing::HasSubstr;

namespace {

using ct = collective_type;
using nt = node_type;

// A traceset of `n` ranks, rank r read from "t.<r>.et".
traceset make_ts(uint32_t n)
{
    traceset ts;
    ts.prefix = "t";
    ts.ranks.resize(n);
    for (uint32_t r = 0; r < n; ++r) {
        ts.ranks[r].rank = r;
        ts.ranks[r].file = "t." + std::to_string(r) + ".et";
    }
    return ts;
}

// Declares the group on every rank of the traceset (each trace declares its own groups).
void declare(traceset& ts, const std::string& name, std::vector<uint32_t> members)
{
    for (rank_trace& t : ts.ranks) t.groups.push_back({name, members});
}

node plain(uint64_t id, nt type, uint64_t us = 0, std::vector<uint64_t> data = {})
{
    node n;
    n.id = id;
    n.type = type;
    n.duration_micros = us;
    n.data_deps = std::move(data);
    return n;
}
node send(uint64_t id, int64_t dst, uint64_t bytes, int64_t tag = 0)
{
    node n = plain(id, nt::comm_send);
    n.comm_dst = dst;
    n.comm_size = bytes;
    n.comm_tag = tag;
    return n;
}
node recv(uint64_t id, int64_t src, uint64_t bytes, int64_t tag = 0)
{
    node n = plain(id, nt::comm_recv);
    n.comm_src = src;
    n.comm_size = bytes;
    n.comm_tag = tag;
    return n;
}
node coll(uint64_t id, ct type, uint64_t bytes, std::optional<std::string> pg = std::nullopt)
{
    node n = plain(id, nt::comm_coll);
    n.comm_type = int64_t(type);
    n.comm_size = bytes;
    n.pg_name = std::move(pg);
    return n;
}

// The same collective on every rank of `ranks`, with the same id.
void coll_on(traceset& ts, std::vector<uint32_t> ranks, const node& c)
{
    for (uint32_t r : ranks) ts.ranks[r].nodes.push_back(c);
}

// The trace_error prepare_traces throws, or "(no error)".
std::string error_of(const traceset& ts, const chakra_config& cfg = {})
{
    try {
        prepare_traces(ts, cfg);
    } catch (const trace_error& e) {
        return e.what();
    }
    return "(no error)";
}

// What each node waits for, as trace ids, read back from the flattened dependents.
std::map<uint64_t, std::vector<uint64_t>> waits_for(const prepared_rank& pr)
{
    std::map<uint64_t, std::vector<uint64_t>> out;
    for (const prepared_node& p : pr.nodes) out[p.trace_id];
    for (const prepared_node& p : pr.nodes)
        for (uint32_t k = p.dependents_begin; k < p.dependents_end; ++k)
            out[pr.nodes[pr.dependents[k]].trace_id].push_back(p.trace_id);
    for (auto& [id, v] : out) std::sort(v.begin(), v.end());
    return out;
}

const prepared_node& by_id(const prepared_rank& pr, uint64_t id)
{
    for (const prepared_node& p : pr.nodes)
        if (p.trace_id == id) return p;
    throw std::out_of_range("no node " + std::to_string(id));
}

// ---------------------------------------------------------------------------------------------
// Node kinds

TEST(ChakraTracePreparation, NodeKindsFollowTheNodeTypes)
{
    traceset ts = make_ts(2);
    auto& r0 = ts.ranks[0].nodes;
    r0.push_back(plain(0, nt::metadata, 9));
    r0.push_back(plain(1, nt::comp, 7));
    node cpu = plain(2, nt::comp, 3);
    cpu.is_cpu_op = true;
    r0.push_back(cpu);
    r0.push_back(plain(3, nt::mem_load, 5));
    r0.push_back(plain(4, nt::mem_store, 6));
    r0.push_back(send(5, 1, 100, 9));
    r0.push_back(recv(6, 1, 40, 2));
    ts.ranks[1].nodes = {recv(0, 0, 100, 9), send(1, 0, 40, 2)};
    coll_on(ts, {0, 1}, coll(10, ct::all_reduce, 64));

    const prepared_workload w = prepare_traces(ts, {});
    const prepared_rank& p = w.ranks[0];
    ASSERT_EQ(p.nodes.size(), 8u);
    EXPECT_EQ(p.file, "t.0.et");
    EXPECT_EQ(p.nodes[0].kind, op_kind::none);   // METADATA takes no time
    EXPECT_EQ(p.nodes[1].kind, op_kind::npu);    // COMP on the NPU
    EXPECT_EQ(p.nodes[2].kind, op_kind::timed);  // COMP with is_cpu_op: the host CPU
    EXPECT_EQ(p.nodes[3].kind, op_kind::timed);
    EXPECT_EQ(p.nodes[4].kind, op_kind::timed);
    EXPECT_EQ(p.nodes[5].kind, op_kind::send);
    EXPECT_EQ(p.nodes[6].kind, op_kind::recv);
    EXPECT_EQ(p.nodes[7].kind, op_kind::collective);
    EXPECT_EQ(p.nodes[1].duration_us, 7u);
    EXPECT_EQ(p.nodes[4].duration_us, 6u);
    EXPECT_EQ(p.nodes[5].type, nt::comm_send);
    EXPECT_EQ(p.nodes[5].peer, 1u);
    EXPECT_EQ(p.nodes[5].bytes, 100u);
    EXPECT_EQ(p.nodes[5].tag, 9);
    EXPECT_EQ(p.nodes[6].peer, 1u);  // a receive's peer is the sender
    EXPECT_EQ(p.nodes[6].tag, 2);
    EXPECT_EQ(p.nodes[7].trace_id, 10u);
    ASSERT_EQ(w.collectives.size(), 1u);
    EXPECT_EQ(p.nodes[7].collective, 0u);
    EXPECT_EQ(w.ranks[1].nodes[2].collective, 0u);  // one instance, shared
    EXPECT_EQ(p.nodes[5].collective, k_none);
    EXPECT_EQ(w.ranks[1].nodes[0].peer, 0u);
    EXPECT_TRUE(w.warnings.empty());
}

TEST(ChakraTracePreparation, InvalidNodeTypeIsAnError)
{
    traceset ts = make_ts(1);
    ts.ranks[0].nodes = {plain(3, nt::invalid)};
    EXPECT_THAT(error_of(ts), HasSubstr("t.0.et: node 3: node type 0 is not one"));
}

// ---------------------------------------------------------------------------------------------
// Dependencies

TEST(ChakraTracePreparation, DependenciesMergeBothListsWithoutDuplicates)
{
    // File order 40, 10, 30, 20 (indices 0..3): ids and indices differ on purpose.
    traceset ts = make_ts(1);
    node n40 = plain(40, nt::comp, 1, {30});
    n40.ctrl_deps = {30};  // the same node in both lists counts once
    node n30 = plain(30, nt::comp, 1, {20});
    n30.ctrl_deps = {10};  // one dependency from each list
    ts.ranks[0].nodes = {n40, plain(10, nt::comp, 1), n30, plain(20, nt::comp, 1)};

    const prepared_workload w = prepare_traces(ts, {});
    const prepared_rank& p = w.ranks[0];
    // Index 0 (id 40) waits for 30 only; index 2 (id 30) waits for 10 and 20.
    EXPECT_EQ(p.nodes[0].deps, 1u);
    EXPECT_EQ(p.nodes[1].deps, 0u);
    EXPECT_EQ(p.nodes[2].deps, 2u);
    EXPECT_EQ(p.nodes[3].deps, 0u);
    // Ready at the start, in file order: id 10 (index 1), id 20 (index 3).
    EXPECT_EQ(p.ready, (std::vector<uint32_t>{1, 3}));
    // Dependents as node indices: 10 -> {30}, 30 -> {40}, 20 -> {30}; 40 has none.
    auto dependents = [&](uint32_t i) {
        return std::vector<uint32_t>(p.dependents.begin() + p.nodes[i].dependents_begin,
                                     p.dependents.begin() + p.nodes[i].dependents_end);
    };
    EXPECT_EQ(dependents(0), std::vector<uint32_t>{});
    EXPECT_EQ(dependents(1), std::vector<uint32_t>{2});
    EXPECT_EQ(dependents(2), std::vector<uint32_t>{0});
    EXPECT_EQ(dependents(3), std::vector<uint32_t>{2});
    EXPECT_EQ(p.dependents.size(), 3u);  // 3 edges after the duplicate 40 -> 30 went
    // The trace's own lists stay as given, for the profiling file.
    EXPECT_EQ(p.data_deps[2], (std::vector<uint64_t>{20}));
    EXPECT_EQ(p.ctrl_deps[2], (std::vector<uint64_t>{10}));
    EXPECT_EQ(p.ctrl_deps[0], (std::vector<uint64_t>{30}));
}

TEST(ChakraTracePreparation, DependencyOnAMissingNodeNamesFileNodeAndMissingId)
{
    traceset ts = make_ts(2);
    ts.ranks[1].nodes = {plain(4, nt::comp, 1), plain(5, nt::comp, 1, {4, 99})};
    try {
        prepare_traces(ts, {});
        FAIL() << "no error";
    } catch (const trace_error& e) {
        EXPECT_STREQ(e.what(), "t.1.et: node 5: depends on node 99, which is not in the trace");
    }
    // A dependency on a node of another rank's trace is missing too: dependencies stay in a rank.
    ts = make_ts(2);
    ts.ranks[0].nodes = {plain(1, nt::comp, 1)};
    ts.ranks[1].nodes = {plain(2, nt::comp, 1, {1})};
    EXPECT_THAT(error_of(ts), HasSubstr("t.1.et: node 2: depends on node 1,"));
}

TEST(ChakraTracePreparation, CycleNamesItsNodeIds)
{
    // 1 waits for 3, 3 for 2, 2 for 1; 0 is free and 4 waits on the cycle without being in it.
    traceset ts = make_ts(1);
    ts.ranks[0].nodes = {plain(0, nt::comp, 1), plain(1, nt::comp, 1, {3}),
                         plain(2, nt::comp, 1, {1}), plain(3, nt::comp, 1, {2}),
                         plain(4, nt::comp, 1, {1})};
    const std::string msg = error_of(ts);
    EXPECT_THAT(msg, HasSubstr("t.0.et: node 1: depends on itself through a cycle"));
    EXPECT_THAT(msg, HasSubstr("(1 -> 3 -> 2 -> 1, each waiting for the next)"));

    // A node that waits for itself.
    ts.ranks[0].nodes = {plain(7, nt::comp, 1, {7})};
    EXPECT_THAT(error_of(ts), HasSubstr("t.0.et: node 7: depends on itself through a cycle of "
                                        "dependencies (7 -> 7,"));
}

TEST(ChakraTracePreparation, DuplicateNodeIdIsAnError)
{
    traceset ts = make_ts(1);
    ts.ranks[0].nodes = {plain(7, nt::comp, 1), plain(8, nt::comp, 1), plain(7, nt::mem_load)};
    EXPECT_EQ(error_of(ts), "t.0.et: node 7: the node id is used twice");
}

// ---------------------------------------------------------------------------------------------
// Sends and receives

TEST(ChakraTracePreparation, SendAndReceiveAttributesAreChecked)
{
    auto with = [](const node& n) {
        traceset ts = make_ts(2);
        ts.ranks[0].nodes = {n};
        return error_of(ts);
    };
    node s = send(1, 1, 8);
    s.comm_dst.reset();
    EXPECT_EQ(with(s), "t.0.et: node 1: COMM_SEND_NODE has no comm_dst");
    s = send(1, 1, 8);
    s.comm_size.reset();
    EXPECT_EQ(with(s), "t.0.et: node 1: COMM_SEND_NODE has no comm_size");
    EXPECT_EQ(with(send(1, 2, 8)),
              "t.0.et: node 1: comm_dst 2 is not a rank of the traceset (0..1)");
    EXPECT_EQ(with(send(1, -1, 8)),
              "t.0.et: node 1: comm_dst -1 is not a rank of the traceset (0..1)");
    EXPECT_EQ(with(send(1, 0, 8)), "t.0.et: node 1: comm_dst 0 is the node's own rank");
    node r = recv(2, 1, 8);
    r.comm_src.reset();
    EXPECT_EQ(with(r), "t.0.et: node 2: COMM_RECV_NODE has no comm_src");
    EXPECT_EQ(with(recv(2, 0, 8)), "t.0.et: node 2: comm_src 0 is the node's own rank");
}

TEST(ChakraTracePreparation, ReceiveNoSendMatchesIsAnError)
{
    // Rank 0 sends one transfer with tag 3; rank 1 receives tags 3 and 4: tag 4 is never sent.
    traceset ts = make_ts(2);
    ts.ranks[0].nodes = {send(0, 1, 8, 3)};
    ts.ranks[1].nodes = {recv(11, 0, 8, 3), recv(12, 0, 8, 4)};
    EXPECT_EQ(error_of(ts),
              "t.1.et: node 12: COMM_RECV_NODE from rank 0 with comm_tag 4 is never matched: "
              "t.0.et has 1 fewer COMM_SEND_NODE(s) to rank 1 with that tag");
    // Two receives and one send of a tag: the second receive (file order) is the one left.
    ts.ranks[1].nodes = {recv(11, 0, 8, 3), recv(13, 0, 8, 3)};
    EXPECT_THAT(error_of(ts), HasSubstr("t.1.et: node 13: COMM_RECV_NODE from rank 0"));
}

TEST(ChakraTracePreparation, SendNoReceiveMatchesIsAWarning)
{
    traceset ts = make_ts(2);
    ts.ranks[0].nodes = {send(0, 1, 8, 5), send(1, 1, 8, 5), send(2, 1, 8, 6)};
    ts.ranks[1].nodes = {recv(0, 0, 8, 6)};
    const prepared_workload w = prepare_traces(ts, {});
    ASSERT_EQ(w.warnings.size(), 1u);
    EXPECT_EQ(w.warnings[0],
              "t.0.et: 2 COMM_SEND_NODE(s) to rank 1 with comm_tag 5 match no COMM_RECV_NODE");
    EXPECT_EQ(w.warnings_total, 1u);
}

// ---------------------------------------------------------------------------------------------
// Collectives: what is expanded, process groups

TEST(ChakraTracePreparation, CollectiveWithoutTypeOrSizeIsNotExpanded)
{
    traceset ts = make_ts(2);
    node no_type = coll(0, ct::all_reduce, 64);
    no_type.comm_type.reset();
    node no_size = coll(1, ct::all_gather, 0);
    no_size.comm_size.reset();
    node barrier = coll(2, ct::barrier, 0);
    barrier.comm_size.reset();  // a Barrier needs no size
    coll_on(ts, {0, 1}, no_type);
    coll_on(ts, {0, 1}, no_size);
    coll_on(ts, {0, 1}, barrier);

    const prepared_workload w = prepare_traces(ts, {});
    EXPECT_EQ(w.ranks[0].nodes[0].kind, op_kind::none);
    EXPECT_EQ(w.ranks[0].nodes[0].collective, k_none);
    EXPECT_EQ(w.ranks[0].nodes[1].kind, op_kind::none);
    EXPECT_EQ(w.ranks[0].nodes[2].kind, op_kind::collective);
    ASSERT_EQ(w.collectives.size(), 1u);  // the Barrier only
    EXPECT_EQ(w.collectives[0].type, ct::barrier);
    // 2 nodes x 2 ranks.
    EXPECT_EQ(w.warnings_total, 4u);
    EXPECT_THAT(w.warnings, testing::Contains("t.0.et: node 0: COMM_COLL_NODE has no comm_type; "
                                              "not expanded"));
    EXPECT_THAT(w.warnings,
                testing::Contains("t.1.et: node 1: AllGather has no comm_size; not expanded"));
}

TEST(ChakraTracePreparation, UnknownCommTypeIsAnError)
{
    traceset ts = make_ts(1);
    node c = coll(4, ct::all_reduce, 8);
    c.comm_type = 12;
    ts.ranks[0].nodes = {c};
    EXPECT_EQ(error_of(ts), "t.0.et: node 4: comm_type 12 is not a collective type");
}

TEST(ChakraTracePreparation, CollectiveOnARankOutsideItsGroupIsAWarning)
{
    traceset ts = make_ts(3);
    declare(ts, "g", {0, 1});
    coll_on(ts, {0, 1, 2}, coll(0, ct::all_reduce, 64, "g"));
    const prepared_workload w = prepare_traces(ts, {});
    ASSERT_EQ(w.warnings.size(), 1u);
    EXPECT_EQ(w.warnings[0],
              "t.2.et: node 0: AllReduce of process group 'g', which does not "
              "include rank 2; not expanded");
    EXPECT_EQ(w.ranks[2].nodes[0].kind, op_kind::none);
    // Ranks 0 and 1 still form one instance of 'g'.
    ASSERT_EQ(w.collectives.size(), 1u);
    EXPECT_EQ(w.groups[w.collectives[0].group].name, "g");
    EXPECT_EQ(w.ranks[1].nodes[0].collective, 0u);
}

TEST(ChakraTracePreparation, UndeclaredProcessGroupIsAnError)
{
    traceset ts = make_ts(2);
    declare(ts, "g", {0, 1});
    coll_on(ts, {0, 1}, coll(3, ct::all_reduce, 64, "h"));
    EXPECT_EQ(error_of(ts), "t.0.et: node 3: process group 'h' is not declared in the trace");
    // Declared by rank 1 only: rank 0's trace does not declare it.
    ts = make_ts(2);
    ts.ranks[1].groups = {{"h", {0, 1}}};
    coll_on(ts, {0, 1}, coll(3, ct::all_reduce, 64, "h"));
    EXPECT_EQ(error_of(ts), "t.0.et: node 3: process group 'h' is not declared in the trace");
}

TEST(ChakraTracePreparation, ProcessGroupDeclarationsAreChecked)
{
    traceset ts = make_ts(2);
    ts.ranks[0].groups = {{"g", {0, 1}}};
    ts.ranks[1].groups = {{"g", {1, 0}}};  // other order, so other members for the algorithms
    EXPECT_THAT(error_of(ts), HasSubstr("t.1.et: process group 'g' lists other ranks"));
    ts = make_ts(2);
    ts.ranks[0].groups = {{"g", {0, 2}}};
    EXPECT_THAT(error_of(ts), HasSubstr("t.0.et: process group 'g' names rank 2, but the "
                                        "traceset has ranks 0..1"));
    ts.ranks[0].groups = {{"g", {1, 1}}};
    EXPECT_THAT(error_of(ts), HasSubstr("t.0.et: process group 'g' names rank 1 twice"));
    ts.ranks[0].groups = {{"g", {}}};
    EXPECT_THAT(error_of(ts), HasSubstr("t.0.et: process group 'g' has no rank"));
}

TEST(ChakraTracePreparation, TheTracesIndexIsItsRank)
{
    // rank_trace::rank is not what places a trace (trace_model.h: rank r at index r). Left at
    // 0 on both ranks, the groups rank 1 declares must still be rank 1's.
    traceset ts = make_ts(2);
    for (rank_trace& t : ts.ranks) t.rank = 0;
    declare(ts, "g", {0, 1});
    coll_on(ts, {0, 1}, coll(0, ct::all_reduce, 64, "g"));
    EXPECT_EQ(prepare_traces(ts, {}).collectives.size(), 1u);
    // Out of range, it must not index past the ranks.
    ts.ranks[1].rank = 7;
    EXPECT_EQ(prepare_traces(ts, {}).collectives.size(), 1u);
}

TEST(ChakraTracePreparation, CollectiveWithoutPgNameUsesTheGroupOfAllRanks)
{
    traceset ts = make_ts(3);
    coll_on(ts, {0, 1, 2}, coll(0, ct::all_gather, 30));
    const prepared_workload w = prepare_traces(ts, {});
    ASSERT_EQ(w.collectives.size(), 1u);
    const prepared_group& g = w.groups[w.collectives[0].group];
    EXPECT_EQ(g.name, "");
    EXPECT_EQ(g.ranks, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(g.position, (std::vector<int32_t>{0, 1, 2}));
    EXPECT_EQ(w.plan_of(w.collectives[0]).group_size(), 3u);
}

// ---------------------------------------------------------------------------------------------
// Collective instances

TEST(ChakraTracePreparation, KthCollectiveOfAGroupOnEveryRankIsOneInstance)
{
    // Group 'a' = {0, 1}. Rank 0's file lists ids 5 (AllReduce), 2 (AllGather), 9 (AllReduce);
    // rank 1's ids 0 (AllGather), 1 (AllReduce), 4 (AllReduce). In node id order both ranks issue
    // AllGather, AllReduce, AllReduce: instance 0 is the AllGather (rank 0's id 2, rank 1's id 0),
    // not what comes first in rank 0's file.
    traceset ts = make_ts(2);
    declare(ts, "a", {0, 1});
    ts.ranks[0].nodes = {coll(5, ct::all_reduce, 100, "a"), coll(2, ct::all_gather, 10, "a"),
                         coll(9, ct::all_reduce, 100, "a")};
    ts.ranks[1].nodes = {coll(0, ct::all_gather, 10, "a"), coll(1, ct::all_reduce, 100, "a"),
                         coll(4, ct::all_reduce, 100, "a")};

    chakra_config cfg;
    cfg.comm_collective_synchronization = false;  // no barrier plan in the count below
    const prepared_workload w = prepare_traces(ts, cfg);
    ASSERT_EQ(w.collectives.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(w.collectives[i].id, i);
    EXPECT_EQ(w.collectives[0].type, ct::all_gather);
    EXPECT_EQ(w.collectives[0].comm_size, 10u);
    EXPECT_EQ(w.collectives[1].type, ct::all_reduce);
    EXPECT_EQ(w.groups[w.collectives[1].group].name, "a");
    EXPECT_EQ(w.ranks[0].nodes[0].collective, 1u);  // id 5
    EXPECT_EQ(w.ranks[0].nodes[1].collective, 0u);  // id 2
    EXPECT_EQ(w.ranks[0].nodes[2].collective, 2u);  // id 9
    EXPECT_EQ(w.ranks[1].nodes[0].collective, 0u);
    EXPECT_EQ(w.ranks[1].nodes[1].collective, 1u);
    EXPECT_EQ(w.ranks[1].nodes[2].collective, 2u);
    // Two AllReduces of 100 B on 2 ranks share one plan: 2 plans in all.
    EXPECT_EQ(w.plans.size(), 2u);
    EXPECT_EQ(w.collectives[1].plan, w.collectives[2].plan);
    EXPECT_NE(w.collectives[0].plan, w.collectives[1].plan);
    const collective_plan& pl = w.plan_of(w.collectives[0]);
    EXPECT_EQ(pl.type(), ct::all_gather);
    EXPECT_EQ(pl.alg(), algorithm::ring);
    EXPECT_EQ(pl.group_size(), 2u);
    EXPECT_EQ(pl.comm_size(), 10u);
}

TEST(ChakraTracePreparation, DifferentCollectiveCountsAcrossRanksIsAnError)
{
    traceset ts = make_ts(2);
    declare(ts, "a", {0, 1});
    ts.ranks[0].nodes = {coll(0, ct::all_reduce, 100, "a"), coll(1, ct::all_reduce, 100, "a")};
    ts.ranks[1].nodes = {coll(0, ct::all_reduce, 100, "a")};
    EXPECT_EQ(error_of(ts),
              "t.1.et: 1 collective(s) of process group 'a', but t.0.et has 2: "
              "every rank of a group must take part in each of its collectives");
}

TEST(ChakraTracePreparation, InstancesMustAgreeAcrossRanks)
{
    auto two = [](const node& a, const node& b) {
        traceset ts = make_ts(2);
        ts.ranks[0].nodes = {a};
        ts.ranks[1].nodes = {b};
        return error_of(ts);
    };
    EXPECT_EQ(two(coll(0, ct::all_reduce, 100), coll(6, ct::all_reduce, 200)),
              "t.1.et: node 6: collective 0 of process group '' is a AllReduce ring of 200 B "
              "(root -1), but in t.0.et (node 0) a AllReduce ring of 100 B (root -1)");
    EXPECT_THAT(two(coll(0, ct::all_reduce, 100), coll(0, ct::all_gather, 100)),
                HasSubstr("is a AllGather ring of 100 B"));
    node b0 = coll(0, ct::broadcast, 100), b1 = coll(0, ct::broadcast, 100);
    b0.root = 0;
    b1.root = 1;
    EXPECT_THAT(two(b0, b1), HasSubstr("is a Broadcast interleaved of 100 B (root 1), but in "
                                       "t.0.et (node 0) a Broadcast interleaved of 100 B (root "
                                       "0)"));
    // Only the algorithm differs: the message says so.
    node t1 = coll(0, ct::all_reduce, 100);
    t1.algorithm = "tree";
    EXPECT_THAT(two(coll(0, ct::all_reduce, 100), t1),
                HasSubstr("is a AllReduce tree of 100 B (root -1), but in t.0.et (node 0) a "
                          "AllReduce ring of 100 B"));
}

TEST(ChakraTracePreparation, RootAttributeGivesTheRootsPositionInTheGroup)
{
    // Group 'g' lists 3, 1, 2, 0: rank 0 is at position 3, rank 2 at position 2.
    traceset ts = make_ts(4);
    declare(ts, "g", {3, 1, 2, 0});
    node b = coll(0, ct::broadcast, 64, "g");
    b.root = 0;
    node s = coll(1, ct::scatter, 64, "g");
    s.root = 2;
    node gth = coll(2, ct::gather, 64, "g");  // no root: the group's first rank (position 0)
    coll_on(ts, {0, 1, 2, 3}, b);
    coll_on(ts, {0, 1, 2, 3}, s);
    coll_on(ts, {0, 1, 2, 3}, gth);
    const prepared_workload w = prepare_traces(ts, {});
    ASSERT_EQ(w.collectives.size(), 3u);
    EXPECT_EQ(w.collectives[0].root_position, 3u);
    EXPECT_EQ(w.plan_of(w.collectives[0]).root_index(), 3u);
    EXPECT_EQ(w.collectives[1].root_position, 2u);
    EXPECT_EQ(w.collectives[2].root_position, 0u);

    // A root outside the group.
    ts = make_ts(3);
    declare(ts, "g", {0, 1});
    b = coll(4, ct::broadcast, 64, "g");
    b.root = 2;
    coll_on(ts, {0, 1}, b);
    EXPECT_EQ(error_of(ts), "t.0.et: node 4: root 2 is not a rank of process group 'g'");
}

TEST(ChakraTracePreparation, NodeAlgorithmOverridesTheConfiguredOne)
{
    traceset ts = make_ts(4);
    node tree = coll(0, ct::all_reduce, 64);
    tree.algorithm = "tree";
    coll_on(ts, {0, 1, 2, 3}, tree);
    coll_on(ts, {0, 1, 2, 3}, coll(1, ct::all_reduce, 64));
    chakra_config cfg;
    cfg.algorithms[size_t(ct::all_reduce)] = algorithm::halving_doubling;
    const prepared_workload w = prepare_traces(ts, cfg);
    ASSERT_EQ(w.collectives.size(), 2u);
    EXPECT_EQ(w.collectives[0].alg, algorithm::tree);
    EXPECT_EQ(w.plan_of(w.collectives[0]).alg(), algorithm::tree);
    EXPECT_EQ(w.collectives[1].alg, algorithm::halving_doubling);  // Chakra.AllReduceAlgorithm

    // Not an algorithm of AllReduce, and not an algorithm at all.
    ts.ranks[2].nodes[0].algorithm = "direct";
    EXPECT_EQ(error_of(ts, cfg),
              "t.2.et: node 0: algorithm 'direct' is not an algorithm of AllReduce");
    ts.ranks[2].nodes[0].algorithm = "fastest";
    EXPECT_EQ(error_of(ts, cfg),
              "t.2.et: node 0: algorithm 'fastest' is not an algorithm of AllReduce");
}

TEST(ChakraTracePreparation, HalvingDoublingOnSixRanksIsAnError)
{
    traceset ts = make_ts(6);
    coll_on(ts, {0, 1, 2, 3, 4, 5}, coll(8, ct::all_reduce, 600));
    chakra_config cfg;
    cfg.algorithms[size_t(ct::all_reduce)] = algorithm::halving_doubling;
    const std::string msg = error_of(ts, cfg);
    EXPECT_THAT(msg, HasSubstr("t.0.et: node 8: "));
    EXPECT_THAT(msg, HasSubstr("power of two"));
    EXPECT_THAT(msg, HasSubstr("6 ranks"));
}

// ---------------------------------------------------------------------------------------------
// Ordering options

// Rank 0 and rank 1 both in groups 'a' and 'b'. Rank 0's file is out of id order on purpose:
// serialization follows node ids.
traceset serialization_ts()
{
    traceset ts = make_ts(2);
    declare(ts, "a", {0, 1});
    declare(ts, "b", {0, 1});
    auto with_pg = [](node n, const char* pg) {
        n.pg_name = pg;
        return n;
    };
    ts.ranks[0].nodes = {coll(4, ct::all_reduce, 64, "a"), coll(0, ct::all_reduce, 64, "a"),
                         with_pg(send(2, 1, 8, 1), "a"),   coll(1, ct::all_gather, 64, "b"),
                         with_pg(recv(3, 1, 8, 2), "a"),   coll(5, ct::all_gather, 64, "b"),
                         with_pg(send(6, 1, 8, 3), "nope")};  // an undeclared group: no order
    ts.ranks[1].nodes = {coll(0, ct::all_reduce, 64, "a"),
                         coll(1, ct::all_gather, 64, "b"),
                         with_pg(recv(2, 0, 8, 1), "a"),
                         with_pg(send(3, 0, 8, 2), "a"),
                         coll(4, ct::all_reduce, 64, "a"),
                         coll(5, ct::all_gather, 64, "b"),
                         recv(6, 0, 8, 3)};
    return ts;
}

TEST(ChakraTracePreparation, ProcessGroupSerializationChainsAGroupInNodeIdOrder)
{
    const prepared_workload w = prepare_traces(serialization_ts(), {});
    using deps = std::map<uint64_t, std::vector<uint64_t>>;
    // Rank 0: group 'a' is coll 0 -> send 2 -> coll 4; 'b' is coll 1 -> coll 5; the receive 3
    // and the send 6 (no declared group) wait for nothing.
    EXPECT_EQ(waits_for(w.ranks[0]),
              (deps{{0, {}}, {1, {}}, {2, {0}}, {3, {}}, {4, {2}}, {5, {1}}, {6, {}}}));
    // Rank 1: 'a' is coll 0 -> send 3 -> coll 4, the receive 2 is left out; 'b' is 1 -> 5.
    EXPECT_EQ(waits_for(w.ranks[1]),
              (deps{{0, {}}, {1, {}}, {2, {}}, {3, {0}}, {4, {3}}, {5, {1}}, {6, {}}}));
    // Ready: rank 0's file indices of ids 0, 1, 3, 6.
    EXPECT_EQ(w.ranks[0].ready, (std::vector<uint32_t>{1, 3, 4, 6}));
    EXPECT_EQ(by_id(w.ranks[0], 4).deps, 1u);
}

TEST(ChakraTracePreparation, WithoutProcessGroupSerializationNothingIsAdded)
{
    chakra_config cfg;
    cfg.process_group_serialization = false;
    const prepared_workload w = prepare_traces(serialization_ts(), cfg);
    for (const prepared_rank& pr : w.ranks) {
        EXPECT_EQ(pr.ready.size(), 7u);
        EXPECT_TRUE(pr.dependents.empty());
    }
    // The instances are the same: 'a' has 2, 'b' has 2.
    EXPECT_EQ(w.collectives.size(), 4u);
}

TEST(ChakraTracePreparation, SerializationKeepsTheTracesOwnDependencies)
{
    // Collective 1 already waits for collective 0: the added edge is the same, counted once.
    traceset ts = make_ts(2);
    for (auto& t : ts.ranks) {
        node c1 = coll(1, ct::all_reduce, 64);
        c1.ctrl_deps = {0};
        t.nodes = {coll(0, ct::all_reduce, 64), c1};
    }
    const prepared_workload w = prepare_traces(ts, {});
    EXPECT_EQ(w.ranks[0].nodes[1].deps, 1u);
    EXPECT_EQ(w.ranks[0].dependents.size(), 1u);
}

TEST(ChakraTracePreparation, CollectiveSynchronizationAddsATreeBarrierPlan)
{
    traceset ts = make_ts(4);
    coll_on(ts, {0, 1, 2, 3}, coll(0, ct::all_reduce, 64));
    coll_on(ts, {0, 1, 2, 3}, coll(1, ct::all_gather, 64));
    chakra_config cfg;
    cfg.algorithms[size_t(ct::barrier)] = algorithm::ring;  // the barrier is tree whatever this is
    const prepared_workload w = prepare_traces(ts, cfg);
    ASSERT_EQ(w.collectives.size(), 2u);
    const collective_instance& c = w.collectives[0];
    EXPECT_TRUE(c.synchronized);
    ASSERT_NE(c.barrier_plan, k_none);
    const collective_plan& b = *w.plans[c.barrier_plan];
    EXPECT_EQ(b.type(), ct::barrier);
    EXPECT_EQ(b.alg(), algorithm::tree);
    EXPECT_EQ(b.group_size(), 4u);
    EXPECT_EQ(b.transfers(), 6u);  // 2(N-1) = 2 x 3
    EXPECT_EQ(b.bytes(), 0u);
    // Both collectives share the barrier plan: AllReduce, AllGather and the barrier, 3 plans.
    EXPECT_EQ(w.collectives[1].barrier_plan, c.barrier_plan);
    EXPECT_EQ(w.plans.size(), 3u);

    cfg.comm_collective_synchronization = false;
    const prepared_workload off = prepare_traces(ts, cfg);
    for (const collective_instance& i : off.collectives) {
        EXPECT_FALSE(i.synchronized);
        EXPECT_EQ(i.barrier_plan, k_none);
    }
    EXPECT_EQ(off.plans.size(), 2u);
}

TEST(ChakraTracePreparation, OneRankGroupIsNeverSynchronized)
{
    traceset ts = make_ts(2);
    declare(ts, "solo", {1});
    ts.ranks[1].nodes = {coll(0, ct::all_reduce, 64, "solo")};
    const prepared_workload w = prepare_traces(ts, {});
    ASSERT_EQ(w.collectives.size(), 1u);
    EXPECT_FALSE(w.collectives[0].synchronized);
    EXPECT_EQ(w.collectives[0].barrier_plan, k_none);
    EXPECT_EQ(w.plan_of(w.collectives[0]).transfers(), 0u);
}

// ---------------------------------------------------------------------------------------------
// Scaling

traceset scaling_ts()
{
    traceset ts = make_ts(2);
    ts.ranks[0].nodes = {plain(0, nt::comp, 1), plain(1, nt::comp, 7), send(2, 1, 1001),
                         plain(3, nt::mem_load, 3)};
    ts.ranks[1].nodes = {recv(0, 0, 1001)};
    coll_on(ts, {0, 1}, coll(10, ct::all_reduce, 1001));
    return ts;
}

TEST(ChakraTracePreparation, ScalingTruncatesSizesAndDurations)
{
    chakra_config cfg;
    cfg.scaling = true;
    cfg.scaling_factor = 0.5;
    const prepared_workload w = prepare_traces(scaling_ts(), cfg);
    const prepared_rank& p = w.ranks[0];
    EXPECT_EQ(p.nodes[0].duration_us, 0u);  // 1 x 0.5 = 0.5 -> 0
    EXPECT_EQ(p.nodes[1].duration_us, 3u);  // 3.5 -> 3
    EXPECT_EQ(p.nodes[2].bytes, 500u);      // 1001 x 0.5 = 500.5 -> 500
    EXPECT_EQ(p.nodes[3].duration_us, 1u);  // 1.5 -> 1
    EXPECT_EQ(w.ranks[1].nodes[0].bytes, 500u);
    ASSERT_EQ(w.collectives.size(), 1u);
    EXPECT_EQ(w.collectives[0].comm_size, 500u);
    EXPECT_EQ(w.plan_of(w.collectives[0]).comm_size(), 500u);
    EXPECT_EQ(scaled(1001, cfg), 500u);
    cfg.scaling_factor = 0.0;
    EXPECT_EQ(scaled(1001, cfg), 0u);
}

TEST(ChakraTracePreparation, ScalingOffIgnoresTheFactor)
{
    chakra_config cfg;
    cfg.scaling = false;
    cfg.scaling_factor = 0.5;
    const prepared_workload w = prepare_traces(scaling_ts(), cfg);
    EXPECT_EQ(w.ranks[0].nodes[0].duration_us, 1u);
    EXPECT_EQ(w.ranks[0].nodes[1].duration_us, 7u);
    EXPECT_EQ(w.ranks[0].nodes[2].bytes, 1001u);
    EXPECT_EQ(w.collectives[0].comm_size, 1001u);
    EXPECT_EQ(scaled(1001, cfg), 1001u);
}

// ---------------------------------------------------------------------------------------------
// Totals

TEST(ChakraTracePreparation, TotalsCountEveryCollectiveButNotTheSynchronizationBarriers)
{
    // 4 ranks. Rank 0 sends 100 B to rank 1; an AllReduce ring of 1000 B on all 4 ranks; a
    // Barrier on all 4; three COMP nodes (one a CPU op) and a MEM_LOAD.
    traceset ts = make_ts(4);
    node cpu = plain(2, nt::comp, 1);
    cpu.is_cpu_op = true;
    ts.ranks[0].nodes = {send(0, 1, 100), plain(1, nt::comp, 1), cpu, plain(3, nt::mem_load, 1)};
    ts.ranks[1].nodes = {recv(0, 0, 100), plain(1, nt::comp, 1)};
    coll_on(ts, {0, 1, 2, 3}, coll(10, ct::all_reduce, 1000));
    coll_on(ts, {0, 1, 2, 3}, coll(11, ct::barrier, 0));

    const prepared_workload w = prepare_traces(ts, {});
    // Ring AllReduce: each rank sends 2(N-1) = 6 transfers of C = 1000/4 = 250 B:
    // 4 x 6 = 24 transfers, 24 x 250 = 6000 B. The Barrier (BarrierAlgorithm ring) is a
    // collective of the trace: its 24 zero-byte transfers count, as the replay counts them; the
    // synchronization barriers (6 zero-byte transfers before each collective) are left out.
    EXPECT_EQ(w.plan_of(w.collectives[0]).transfers(), 24u);
    EXPECT_EQ(w.total_sends, 49u);  // 1 + 24 + 24
    EXPECT_EQ(w.total_recvs, 49u);
    EXPECT_EQ(w.total_send_bytes, 6100u);  // 100 + 6000
    EXPECT_EQ(w.total_computations, 3u);   // COMP nodes, the CPU op too; not MEM_LOAD

    // The totals count what Scaling leaves: 50 B and C = 500/4 = 125 B, 24 x 125 = 3000 B.
    chakra_config half;
    half.scaling = true;
    half.scaling_factor = 0.5;
    EXPECT_EQ(prepare_traces(ts, half).total_send_bytes, 3050u);
}

// ---------------------------------------------------------------------------------------------
// Warnings

traceset untyped_collectives(uint32_t count)
{
    traceset ts = make_ts(1);
    for (uint32_t i = 0; i < count; ++i) {
        node c = coll(i, ct::all_reduce, 8);
        c.comm_type.reset();
        ts.ranks[0].nodes.push_back(c);
    }
    return ts;
}

TEST(ChakraTracePreparation, MaxCountWarningsLoggedCapsTheLinesNotTheCount)
{
    chakra_config cfg;
    cfg.max_count_warnings_logged_per_instance = 2;
    const prepared_workload w = prepare_traces(untyped_collectives(5), cfg);
    ASSERT_EQ(w.warnings.size(), 2u);  // the first two
    EXPECT_THAT(w.warnings[1], HasSubstr("t.0.et: node 1: COMM_COLL_NODE has no comm_type"));
    EXPECT_EQ(w.warnings_total, 5u);

    cfg.max_count_warnings_logged_per_instance = 0;
    const prepared_workload none = prepare_traces(untyped_collectives(5), cfg);
    EXPECT_TRUE(none.warnings.empty());
    EXPECT_EQ(none.warnings_total, 5u);
}

TEST(ChakraTracePreparation, AbortOnChakraWarningTurnsAWarningIntoAnError)
{
    chakra_config cfg;
    cfg.abort_on_chakra_warning = true;
    const std::string msg = error_of(untyped_collectives(3), cfg);
    EXPECT_THAT(msg, HasSubstr("Chakra.AbortOnChakraWarning is true"));
    EXPECT_THAT(msg, HasSubstr("3 warning(s)"));
    EXPECT_THAT(msg, HasSubstr("t.0.et: node 0: COMM_COLL_NODE has no comm_type"));
    // A send no receive matches is a warning too.
    traceset ts = make_ts(2);
    ts.ranks[0].nodes = {send(0, 1, 8)};
    EXPECT_THAT(error_of(ts, cfg), HasSubstr("match no COMM_RECV_NODE"));
    // Without warnings nothing stops.
    ts.ranks[1].nodes = {recv(0, 0, 8)};
    EXPECT_EQ(error_of(ts, cfg), "(no error)");
}

TEST(ChakraTracePreparation, AbortOnChakraWarningWithNoLinesLogged)
{
    // MaxCountWarningsLoggedPerInstance 0 logs no line, but the warnings still stop the run.
    chakra_config cfg;
    cfg.abort_on_chakra_warning = true;
    cfg.max_count_warnings_logged_per_instance = 0;
    const std::string msg = error_of(untyped_collectives(2), cfg);
    EXPECT_THAT(msg, HasSubstr("Chakra.AbortOnChakraWarning is true"));
    EXPECT_THAT(msg, HasSubstr("2 warning(s)"));
}

TEST(ChakraTracePreparation, EmptyTracesetIsAnError)
{
    traceset ts;
    ts.prefix = "none";
    EXPECT_EQ(error_of(ts), "none: the traceset has no rank");
}

}  // namespace
