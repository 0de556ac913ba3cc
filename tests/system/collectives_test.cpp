// The Chakra workload end to end through the uetsim command: built-in collectives and traces
// written with the project's ET writer, on both NICs, checked through the chakra-* records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "testbench/traffic/chakra/et_writer.h"
#include "testbench/traffic/chakra/trace_model.h"
#include "tests/support/run_uetsim.h"
#include "tests/support/vcd_reader.h"

using namespace uetsim::test;
namespace ck = uetsim::chakra;

namespace {

// 8 hosts, two leaves of 4, 4 spines: non-blocking at 400 Gbps.
std::string fabric(const std::string& nic)
{
    return "Simulation: {Name: coll, RunTime: 50ms}\n"
           "Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 4, "
           "LinkRate: 400Gbps}\n"
           "Nic: {Type: " +
           nic + "}\n";
}

command_result run(const std::string& dir, const std::string& yaml,
                   std::vector<std::string> extra = {})
{
    const std::string f = write_file(dir + ".yaml", yaml);
    std::vector<std::string> args = {"run", f, "--quiet", "--out", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_uetsim(args);
}

void expect_clean(const command_result& r)
{
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
}

// Rows of chakra-perf that belong to the collective itself (not its synchronization barrier).
std::vector<double> collective_transfer_sizes(const csv& perf)
{
    std::vector<double> sizes;
    for (size_t i = 0; i < perf.rows.size(); ++i)
        if (perf.str(i, "is_added_synchronization_flow") == "false")
            sizes.push_back(perf.num(i, "flow_comm_size"));
    return sizes;
}

ck::node comp(uint64_t id, uint64_t us, std::vector<uint64_t> deps = {})
{
    ck::node n;
    n.id = id;
    n.name = "comp" + std::to_string(id);
    n.type = ck::node_type::comp;
    n.duration_micros = us;
    n.data_deps = std::move(deps);
    return n;
}

ck::node p2p(uint64_t id, bool send, int64_t peer, uint64_t bytes, int64_t tag,
             std::vector<uint64_t> deps = {})
{
    ck::node n;
    n.id = id;
    n.name = (send ? "send" : "recv") + std::to_string(id);
    n.type = send ? ck::node_type::comm_send : ck::node_type::comm_recv;
    (send ? n.comm_dst : n.comm_src) = peer;
    n.comm_size = bytes;
    n.comm_tag = tag;
    n.data_deps = std::move(deps);
    return n;
}

// Writes ranks' nodes as a traceset `<dir>/t.<rank>.et` and returns the prefix.
std::string traceset(const std::string& dir, const std::vector<std::vector<ck::node>>& ranks)
{
    std::filesystem::create_directories(dir);
    ck::traceset ts;
    ts.prefix = dir + "/t";
    for (uint32_t r = 0; r < ranks.size(); ++r) {
        ck::rank_trace t;
        t.rank = r;
        t.nodes = ranks[r];
        ts.ranks.push_back(t);
    }
    ck::write_traceset(ts.prefix, ts);
    return ts.prefix;
}

}  // namespace

// The execution page's worked example, one AllReduce of 1,000 B over 8 ranks, run: each
// algorithm's transfers as chakra-perf lists them, plus the 2(N-1) = 14 zero-byte transfers of
// the synchronization barrier, marked as added.
TEST(collectives, all_reduce_1000_bytes_over_8_ranks_moves_the_worked_examples_transfers)
{
    const std::string dir = scratch_dir("coll-example");
    struct expect
    {
        const char* alg;
        size_t transfers;
        double each;  // 0: sizes vary
    };
    for (const expect& e :
         {expect{"ring", 112, 125}, expect{"tree", 14, 1000}, expect{"halving-doubling", 48, 0}}) {
        const std::string out = dir + "/" + e.alg;
        const command_result r =
            run(out, fabric("uet") +
                         "Collectives:\n  - {Type: AllReduce, Bytes: 1000B, Ranks: all, "
                         "Algorithm: " +
                         e.alg + "}\n");
        expect_clean(r);
        const csv perf = read_csv(out + "/coll-chakra-perf-0.csv");
        const std::vector<double> sizes = collective_transfer_sizes(perf);
        EXPECT_EQ(sizes.size(), e.transfers) << e.alg;
        double total = 0;
        for (double s : sizes) {
            total += s;
            if (e.each) {
                EXPECT_EQ(s, e.each) << e.alg;
            }
        }
        EXPECT_EQ(total, 14000) << e.alg;
        EXPECT_EQ(perf.rows.size() - sizes.size(), 14u) << e.alg << ": the barrier's transfers";
        for (size_t i = 0; i < perf.rows.size(); ++i) {
            const bool sync = perf.str(i, "is_added_synchronization_flow") == "true";
            if (sync) {
                EXPECT_EQ(perf.num(i, "flow_comm_size"), 0) << e.alg;
                continue;
            }
            EXPECT_EQ(perf.str(i, "metric_path"),
                      "ChakraFCT.AllReduce.GroupSize8.CommSize1000Bytes");
        }
        const csv done = read_csv(out + "/coll-chakra-completion-stats-0.csv");
        ASSERT_EQ(done.rows.size(), 8u);
        double acked = 0;
        for (size_t i = 0; i < done.rows.size(); ++i) {
            EXPECT_EQ(done.str(i, "rank_ended"), "true");
            acked += done.num(i, "num_chakra_sends_fully_acked");
        }
        // The barrier is not counted: the ranks' sends are the collective's.
        EXPECT_EQ(acked, double(e.transfers)) << e.alg;
        const csv colls = read_csv(out + "/coll-chakra-comm-collective-stats-0.csv");
        ASSERT_EQ(colls.rows.size(), 1u);
        EXPECT_EQ(colls.num(0, "is_valid"), 1);
        EXPECT_EQ(colls.str(0, "comm_type"), "AllReduce");
        EXPECT_GT(colls.num(0, "simulation_end_time_us"), colls.num(0, "simulation_start_time_us"));
    }
}

// The target: a ring AllReduce of 64 MiB over 8 ranks of a non-blocking 400 Gbps
// leaf-spine reaches a busbw within 10 % of the ideal on both NICs. The ideal time is
// 2 S (N-1) / (N B) = 2 x 64 MiB x 8 x 7 / (8 x 400 Gbps) = 2.349 ms, so the ideal busbw is the
// link rate: busbw = (S / t) x 2 (N-1) / N = B at t = ideal.
TEST(collectives, ring_all_reduce_of_64_mib_reaches_ninety_percent_of_the_link_on_both_nics)
{
    const std::string dir = scratch_dir("coll-busbw");
    for (const std::string nic : {"uet", "roce"}) {
        const std::string out = dir + "/" + nic;
        const command_result r = run(out, fabric(nic) +
                                              "Collectives:\n  - {Type: AllReduce, "
                                              "Bytes: 64MiB, Ranks: all}\n");
        expect_clean(r);
        const csv bw = read_csv(out + "/coll-chakra-busbw-0.csv");
        ASSERT_EQ(bw.rows.size(), 1u) << nic;
        EXPECT_NEAR(bw.num(0, "ideal_time_us"), 2.0 * 64 * 1048576 * 8 * 7 / (8 * 400e9) * 1e6,
                    1e-6);
        EXPECT_GE(bw.num(0, "link_fraction"), 0.9) << nic;
        EXPECT_LE(bw.num(0, "link_fraction"), 1.0) << nic;
        EXPECT_NEAR(bw.num(0, "busbw_gbps"), bw.num(0, "algbw_gbps") * 2 * 7 / 8,
                    1e-9 * bw.num(0, "busbw_gbps"));
        RecordProperty(nic + "_busbw_gbps", std::to_string(bw.num(0, "busbw_gbps")));
        const csv pct = read_csv(out + "/coll-chakra-comm-collective-percentiles-stats-0.csv");
        ASSERT_EQ(pct.rows.size(), 1u);
        EXPECT_EQ(pct.str(0, "expansion_algo"), "ring");
        EXPECT_GE(pct.num(0, "p100_ideal_ratio"), 1.0);
        EXPECT_LE(pct.num(0, "p100_ideal_ratio"), 1.0 / 0.9);
    }
}

// The execution page's compute example: two 10 us COMP_NODEs that start together take 20 us
// each when synthesized (they share the NPU), 10 us when collected.
TEST(collectives, two_compute_nodes_share_the_npu_unless_collected)
{
    const std::string dir = scratch_dir("coll-comp");
    const std::string prefix = traceset(dir + "/traces", {{comp(0, 10), comp(1, 10)}});
    for (const auto& [family, us] :
         std::map<std::string, double>{{"synthesized", 20}, {"compiled", 20}, {"collected", 10}}) {
        const std::string out = dir + "/" + family;
        const command_result r = run(
            out, fabric("uet") + "Chakra: {Traces: " + prefix + ", TraceFamily: " + family + "}\n");
        expect_clean(r);
        const csv done = read_csv(out + "/coll-chakra-completion-stats-0.csv");
        ASSERT_EQ(done.rows.size(), 1u);
        EXPECT_DOUBLE_EQ(done.num(0, "chakra_trace_completion_time_us"), us) << family;
        EXPECT_EQ(done.num(0, "num_chakra_computations_completed"), 2);
        EXPECT_EQ(done.num(0, "total_chakra_computation_time_us"), 20) << "the trace durations";
        // The annotated trace: both nodes from 1,000 us (StartTime) to 1,000 + us.
        const std::string ann = read_text(out + "/post_annotated/t.0.json");
        const std::string e =
            "\"e\": \"" + std::string(us == 20 ? "001020.000000" : "001010.000000");
        EXPECT_NE(ann.find(e), std::string::npos) << ann;
        EXPECT_NE(ann.find("\"s\": \"001000.000000\""), std::string::npos) << ann;
    }
    // Fewer ranks than hosts: the rest idle, said on stderr.
    const command_result r =
        run(dir + "/idle", fabric("uet") + "Chakra: {Traces: " + prefix + "}\n");
    EXPECT_NE(r.err.find("7 hosts run no rank"), std::string::npos) << r.err;
}

// Trace sends and receives: a receive may start before or after its transfer arrives; an early
// arrival is held. chakra-perf lists each send once acknowledged.
TEST(collectives, trace_sends_match_receives_by_tag_on_both_nics)
{
    const std::string dir = scratch_dir("coll-p2p");
    // Rank 0 sends 1 MiB with tag 7 at once; rank 1 computes 50 us first, so the transfer has
    // arrived before its receive starts; then rank 1 answers with tag 8.
    const std::string prefix =
        traceset(dir + "/traces",
                 {{p2p(0, true, 1, 1 << 20, 7), p2p(1, false, 1, 4096, 8)},
                  {comp(0, 50), p2p(1, false, 0, 1 << 20, 7, {0}), p2p(2, true, 0, 4096, 8, {1})}});
    for (const std::string nic : {"uet", "roce"}) {
        const std::string out = dir + "/" + nic;
        const command_result r = run(out, fabric(nic) + "Chakra: {Traces: " + prefix + "}\n");
        expect_clean(r);
        const csv perf = read_csv(out + "/coll-chakra-perf-0.csv");
        ASSERT_EQ(perf.rows.size(), 2u) << nic;
        EXPECT_EQ(perf.str(0, "metric_path"), "ChakraFCT.Send.GroupSize0.CommSize1048576Bytes");
        EXPECT_EQ(perf.num(0, "metric_aggregation_id"), -1);
        EXPECT_EQ(perf.num(0, "comm_tag"), 7);
        EXPECT_EQ(perf.str(0, "sending_app_name"), "ChakraApp-0");
        EXPECT_EQ(perf.str(0, "receiving_app_name"), "ChakraApp-1");
        const csv done = read_csv(out + "/coll-chakra-completion-stats-0.csv");
        ASSERT_EQ(done.rows.size(), 2u);
        for (size_t i = 0; i < 2; ++i) {
            EXPECT_EQ(done.str(i, "rank_ended"), "true");
            const bool rank1 = done.num(i, "chakra_app_logical_id") == 1;
            EXPECT_EQ(done.num(i, "chakra_full_payload_bytes_received"), rank1 ? 1 << 20 : 4096);
            EXPECT_EQ(done.num(i, "num_chakra_sends_completed"), 1);
            EXPECT_EQ(done.num(i, "num_chakra_receives_completed"), 1);
        }
        // Rank 1's receive finished as it started (the transfer was held), so its reply went
        // out right after its 50 us of compute: the reply's send started at 1,050 us.
        EXPECT_NEAR(perf.num(1, "start_time_sec"), 1.050e-3, 1e-12) << nic;
    }
}

// A receive whose send waits on it in turn is never matched: the run goes to its stop time and
// the completion rows say the ranks did not end.
TEST(collectives, a_receive_never_matched_at_run_time_ends_the_run_at_the_stop_time)
{
    const std::string dir = scratch_dir("coll-deadlock");
    const std::string prefix =
        traceset(dir + "/traces", {{p2p(0, false, 1, 100, 1), p2p(1, true, 1, 100, 2, {0})},
                                   {p2p(0, false, 0, 100, 2), p2p(1, true, 0, 100, 1, {0})}});
    const std::string out = dir + "/run";
    const command_result r = run(out, fabric("uet") + "Chakra: {Traces: " + prefix + "}\n",
                                 {"--set", "Simulation.RunTime=100us"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("rank 0 did not end"), std::string::npos) << r.out;
    const csv done = read_csv(out + "/coll-chakra-completion-stats-0.csv");
    ASSERT_EQ(done.rows.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(done.str(i, "rank_ended"), "false");
        EXPECT_EQ(done.num(i, "num_chakra_receives_completed"), 0);
        // StartTime 1 ms to the stop at 1 ms + 2 ms WarmUp + 100 us + 1 ms CoolDown.
        EXPECT_NEAR(done.num(i, "chakra_trace_completion_time_us"), 3100, 1e-6);
    }
}

// Bad traces stop the run before the simulation starts, with exit 2 and a message naming the
// file, the node and what is wrong; no manifest is written.
TEST(collectives, bad_traces_are_bad_input_before_the_simulation_starts)
{
    const std::string dir = scratch_dir("coll-bad");
    struct bad
    {
        const char* what;
        std::vector<std::vector<ck::node>> ranks;
        const char* message;
    };
    std::vector<bad> cases = {
        {"missing-dep", {{comp(0, 1), comp(1, 1, {9})}}, "node 1: depends on node 9"},
        {"cycle", {{comp(0, 1, {1}), comp(1, 1, {0})}}, "cycle"},
        {"unmatched", {{p2p(0, false, 1, 10, 3)}, {comp(0, 1)}}, "is never matched"},
    };
    for (const bad& b : cases) {
        const std::string prefix = traceset(dir + "/" + b.what, b.ranks);
        const std::string out = dir + "/" + b.what + "-out";
        for (const char* cmd : {"run", "validate", "inspect"}) {
            const std::string f =
                write_file(out + ".yaml", fabric("uet") + "Chakra: {Traces: " + prefix + "}\n");
            std::vector<std::string> args = {cmd, f};
            if (std::string(cmd) == "run") args.insert(args.end(), {"--quiet", "--out", out});
            const command_result r = run_uetsim(args);
            EXPECT_EQ(r.exit_code, 2) << b.what << " " << cmd << ": " << r.err;
            EXPECT_NE(r.err.find(b.message), std::string::npos) << b.what << ": " << r.err;
            EXPECT_NE(r.err.find(prefix + ".0.et"), std::string::npos) << r.err;
        }
        EXPECT_FALSE(std::filesystem::exists(out + "/coll-manifest.json"));
    }
    // A missing rank file and a truncated one.
    const std::string prefix = traceset(dir + "/gap", {{comp(0, 1)}, {comp(0, 1)}, {comp(0, 1)}});
    std::filesystem::remove(prefix + ".1.et");
    command_result r = run(dir + "/gap-out", fabric("uet") + "Chakra: {Traces: " + prefix + "}\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(prefix + ".1.et"), std::string::npos) << r.err;
    std::filesystem::resize_file(prefix + ".2.et",
                                 std::filesystem::file_size(prefix + ".2.et") - 3);
    std::filesystem::copy_file(prefix + ".2.et", prefix + ".1.et");
    r = run(dir + "/cut-out", fabric("uet") + "Chakra: {Traces: " + prefix + "}\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(prefix + ".1.et"), std::string::npos) << r.err;
}

// A Collectives list and the traceset chakra-gen writes from it give the same records.
TEST(collectives, the_list_and_its_generated_traceset_give_identical_records)
{
    const std::string dir = scratch_dir("coll-gen");
    const std::string list = fabric("uet") +
                             "Collectives:\n"
                             "  - {Type: AllReduce, Bytes: 1MiB, Ranks: all, Iterations: 2}\n"
                             "  - {Type: AllToAll, Bytes: 256KiB, Ranks: {From: 0, To: 3}, "
                             "Start: 5us}\n"
                             "  - {Type: Broadcast, Bytes: 64KiB, Ranks: [4, 5, 6, 7], Root: 6, "
                             "Algorithm: sequential}\n";
    const std::string f = write_file(dir + "/list.yaml", list);
    const command_result gen = run_uetsim({"chakra-gen", f, "--out", dir + "/gen/Collectives"});
    ASSERT_EQ(gen.exit_code, 0) << gen.err;
    expect_clean(run(dir + "/from-list", list));
    expect_clean(run(dir + "/from-traces",
                     fabric("uet") + "Chakra: {Traces: " + dir + "/gen/Collectives}\n"));
    size_t compared = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/from-list")) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".csv") continue;
        EXPECT_EQ(read_text(e.path().string()), read_text(dir + "/from-traces/" + name)) << name;
        ++compared;
    }
    EXPECT_GE(compared, 9u);
    const csv colls = read_csv(dir + "/from-list/coll-chakra-comm-collective-stats-0.csv");
    EXPECT_EQ(colls.rows.size(), 4u);  // two AllReduces, an AllToAll, a Broadcast
}

// Scenario keys: the Chakra workload is the run's only application; bad entries are exit 2
// naming the key and the value.
TEST(collectives, bad_collectives_keys_are_bad_input)
{
    const std::string dir = scratch_dir("coll-keys");
    const std::map<std::string, std::string> cases = {
        {"Collectives:\n  - {Type: AllReduce, Bytes: 1MiB, Ranks: [0, 9]}\n",
         "Collectives[0].Ranks: host 9 is out of range 0..7"},
        {"Collectives:\n  - {Type: AllReduce, Bytes: 1MiB, Algorithm: direct}\n",
         "Collectives[0].Algorithm: direct is not an algorithm of AllReduce"},
        {"Collectives:\n  - {Type: AllReduce, Bytes: 1MiB, Ranks: [0, 1, 2], Algorithm: "
         "halving-doubling}\n",
         "power of two"},
        {"Collectives:\n  - {Type: AllGatherv, Bytes: 1MiB}\n", "Collectives[0].Type"},
        {"Collectives:\n  - {Type: Broadcast, Bytes: 1MiB, Ranks: [0, 1], Root: 5}\n",
         "Collectives[0].Root: 5 is not one of the entry's Ranks"},
        {"Collectives:\n  - {Type: AllReduce, Bytes: 1MiB}\nFlows:\n  - {Src: 0, Dst: 1, Bytes: "
         "1000}\n",
         "Collectives is given with Flows"},
        {"Collectives:\n  - {Type: AllReduce, Bytes: 1MiB, Start: 1.5us}\n",
         "is not a whole number of microseconds"},
        {"Chakra: {AllReduceAlgorithm: direct}\n", "Chakra.AllReduceAlgorithm"},
    };
    int i = 0;
    for (const auto& [yaml, message] : cases) {
        const std::string f =
            write_file(dir + "/" + std::to_string(i++) + ".yaml", fabric("uet") + yaml);
        const command_result r = run_uetsim({"validate", f});
        EXPECT_EQ(r.exit_code, 2) << yaml << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << yaml << r.err;
    }
}

// Chakra.ProfilingEnabled writes each rank's running nodes every interval until it ends; the
// waveforms carry each rank's collective and step on its host.
TEST(collectives, profiling_blocks_and_waveform_signals_follow_the_ranks)
{
    const std::string dir = scratch_dir("coll-prof");
    const std::string out = dir + "/run";
    const command_result r =
        run(out, fabric("uet") +
                     "Chakra: {ProfilingEnabled: true, ProfilingInterval: 10us}\n"
                     "Trace: {Enabled: true, File: w.vcd, Components: [host0], "
                     "Signals: [\"chakra.*\"]}\n"
                     "Collectives:\n  - {Type: AllReduce, Bytes: 4MiB, Ranks: all}\n");
    expect_clean(r);
    const csv done = read_csv(out + "/coll-chakra-completion-stats-0.csv");
    double end_us = 0;
    for (size_t i = 0; i < done.rows.size(); ++i)
        if (done.num(i, "chakra_app_logical_id") == 0)
            end_us = 1000 + done.num(i, "chakra_trace_completion_time_us");
    ASSERT_GT(end_us, 1000);
    const std::string prof = read_text(out + "/coll-chakra-profiling-0-0.txt");
    EXPECT_EQ(prof.rfind("CHAKRA PROFILING\n", 0), 0u);
    // A block every 10 us from 1,010 us while the rank runs: floor((end - 1,000) / 10) blocks,
    // each listing the running AllReduce node.
    size_t blocks = 0;
    for (size_t at = prof.find("sim_time_sec:"); at != std::string::npos;
         at = prof.find("sim_time_sec:", at + 1))
        ++blocks;
    EXPECT_EQ(blocks, size_t((end_us - 1000) / 10)) << prof.substr(0, 400);
    EXPECT_NE(prof.find("collective_nodes:\n    K(0,AllReduce,4194304,[],[])"), std::string::npos);
    const vcd v = parse_vcd(read_text(out + "/w.vcd"));
    // Instance 0 runs from the start (its barrier first), steps up to 2(N-1) - 1 = 13, then ends.
    EXPECT_EQ(v.at("host0.chakra.collective", 999'999'999), 0u);
    EXPECT_EQ(v.at("host0.chakra.collective", 1'000'000'000), 1u);
    EXPECT_EQ(v.at("host0.chakra.barrier", 1'000'000'000), 1u);
    uint64_t top_step = 0;
    for (const auto& c : v.of("host0.chakra.step")) top_step = std::max(top_step, c.value);
    EXPECT_EQ(top_step, 13u);
    EXPECT_EQ(v.at("host0.chakra.collective", uint64_t(end_us * 1e6) + 1), 0u);
}

// A mapping file places ranks and declares scale-up groups: transfers inside a group cross the
// scale-up fabric (one 8,192 B transfer, 4,096 B packets with 24 B headers at 800 Gbit/s:
// 2 x 41.2 ns to send; 100 ns hop + 2 x 100 ns cables one way; acknowledged one round trip
// after the send: 82.4 + 600 = 682.4 ns), and nd-stats gains the ranks' scale-up devices.
TEST(collectives, scale_up_groups_of_a_mapping_file_carry_their_transfers)
{
    const std::string dir = scratch_dir("coll-scaleup");
    const std::string prefix = traceset(dir + "/traces", {{p2p(0, true, 1, 8192, 5)},
                                                          {p2p(0, false, 0, 8192, 5)},
                                                          {p2p(0, true, 3, 8192, 6)},
                                                          {p2p(0, false, 2, 8192, 6)}});
    // Ranks 0 and 1 share a subgroup of group 0; ranks 2 and 3 run on hosts 7 and 6, no group.
    write_file(dir + "/map.txt",
               "# rank, server, group, subgroup\n0, 0, 0, 0\n1, 1, 0, 0\n2, 7\n3, 6\n@\n"
               "0, 800.0, 100.0, 100.0\n");
    const std::string out = dir + "/run";
    const command_result r =
        run(out, fabric("uet") + "Chakra: {Traces: " + prefix + ", MappingFile: " + dir +
                     "/map.txt, ScaleUpStatsEnabled: true}\n");
    expect_clean(r);
    const csv perf = read_csv(out + "/coll-chakra-perf-0.csv");
    ASSERT_EQ(perf.rows.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        if (perf.str(i, "sending_app_name") == "ChakraApp-0")
            EXPECT_NEAR(perf.num(i, "perf_metric_usec"), 0.6824, 1e-9);
        else  // through the NICs: a few us
            EXPECT_GT(perf.num(i, "perf_metric_usec"), 1.0);
    }
    const csv map = read_csv(out + "/coll-chakra-mapping-0.csv");
    ASSERT_EQ(map.rows.size(), 4u);
    EXPECT_EQ(map.num(2, "ServerID"), 7);
    EXPECT_EQ(map.str(2, "Hostname"), "host7");
    EXPECT_EQ(map.num(0, "ScaleUpGroupId"), 0);
    EXPECT_EQ(map.num(2, "ScaleUpGroupId"), -1);
    const csv nd = read_csv(out + "/coll-nd-stats-0.csv");
    size_t scale_up_rows = 0;
    double host0_tx = 0;
    for (size_t i = 0; i < nd.rows.size(); ++i)
        if (nd.str(i, "nd_name") == "ChakraScaleUpNetDevice") {
            ++scale_up_rows;
            EXPECT_EQ(nd.str(i, "component_type"), "ChakraScaleUpNic");
            if (nd.str(i, "component_name") == "host0") host0_tx = nd.num(i, "total_packets_tx");
        }
    EXPECT_GE(scale_up_rows, 2u);  // ranks 0 and 1, at every report
    EXPECT_EQ(host0_tx, 2);        // two packets of 4,120 B
}

// inspect --json's chakra member: per collective its algorithm, transfers and bytes after
// expansion and its ideal time (the worked example's 1,000 B over 8 ranks at 400 Gbit/s: ring
// 2 x 1000 x 8 x 7 / (8 x 400e9) = 35 ns); more ranks than hosts is bad input.
TEST(collectives, inspect_shows_the_expansion_and_more_ranks_than_hosts_is_bad_input)
{
    const std::string dir = scratch_dir("coll-inspect");
    const std::string f = write_file(dir + "/s.yaml", fabric("uet") +
                                                          "Collectives:\n"
                                                          "  - {Type: AllReduce, Bytes: 1000B}\n"
                                                          "  - {Type: AllReduce, Bytes: 1000B, "
                                                          "Algorithm: halving-doubling}\n");
    const command_result r = run_uetsim({"inspect", f, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"\"transfers\": 112", "ring"},
             {"\"transfers\": 48", "hd"},
             {"\"bytes\": 14000", "both"},
             {"\"ideal_time_s\": 3.5e-08", "ring"},
             {"\"synchronization_transfers\": 14", "both"},
             {"\"algorithm\": \"halving-doubling\"", "hd"}})
        EXPECT_NE(r.out.find(key), std::string::npos) << value << ": " << key;
    std::vector<std::vector<ck::node>> nine(9, std::vector<ck::node>{comp(0, 1)});
    const std::string prefix = traceset(dir + "/nine", nine);
    const command_result bad =
        run(dir + "/nine-out", fabric("uet") + "Chakra: {Traces: " + prefix + "}\n");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("has 9 ranks but the topology has 8 hosts"), std::string::npos)
        << bad.err;
}

// The same scenario and seed give byte-identical Chakra records, on both NICs.
TEST(collectives, records_are_deterministic)
{
    const std::string dir = scratch_dir("coll-det");
    for (const std::string nic : {"uet", "roce"}) {
        const std::string yaml = fabric(nic) +
                                 "Collectives:\n  - {Type: AllToAll, Bytes: 2MiB, Ranks: all}\n"
                                 "  - {Type: AllReduce, Bytes: 1MiB, Ranks: [1, 3, 5, 7], "
                                 "Algorithm: tree}\n";
        expect_clean(run(dir + "/" + nic + "-a", yaml));
        expect_clean(run(dir + "/" + nic + "-b", yaml));
        size_t compared = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir + "/" + nic + "-a")) {
            if (e.path().extension() != ".csv") continue;
            const std::string name = e.path().filename().string();
            EXPECT_EQ(read_text(e.path().string()), read_text(dir + "/" + nic + "-b/" + name))
                << nic << " " << name;
            ++compared;
        }
        EXPECT_GE(compared, 9u);
        EXPECT_EQ(read_text(dir + "/" + nic + "-a/post_annotated/Collectives.3.json"),
                  read_text(dir + "/" + nic + "-b/post_annotated/Collectives.3.json"));
    }
}
