// Record rules of the reference's pages, through the real command: the load-balancing record
// has a row for every member of every equal-cost set, single-member sets included, and the
// first periodic row comes at the time the UET NIC records page gives.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>
#include <utility>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

csv run_lb(const std::string& tag, const std::vector<std::string>& sets)
{
    const std::string dir = scratch_dir(tag);
    std::vector<std::string> args = {"run", "--quiet", "--out", dir};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_csv(dir + "/uetsim-scala-switch-load-balancing-stats-0.csv");
}

// Rows of the first interval by (switch, group_size).
std::map<std::pair<std::string, int>, int> first_interval(const csv& lb)
{
    std::map<std::pair<std::string, int>, int> n;
    for (size_t i = 0; i < lb.rows.size(); ++i)
        if (lb.str(i, "sim_time_sec") == lb.str(0, "sim_time_sec"))
            ++n[{lb.str(i, "component_name"), int(lb.num(i, "group_size"))}];
    return n;
}

}  // namespace

TEST(record_fidelity, a_single_switch_writes_a_row_per_host_port)
{
    // Four hosts on one switch: four equal-cost sets of one member each (the port to the host).
    const csv lb = run_lb("fid-lb1", {"Topology.Kind=single-switch", "Topology.Hosts=4"});
    const auto n = first_interval(lb);
    EXPECT_EQ(n, (std::map<std::pair<std::string, int>, int>{{{"switch0", 1}, 4}}));
    for (size_t i = 0; i < lb.rows.size(); ++i) {
        EXPECT_EQ(lb.str(i, "ecmp_group_ifids"), "[" + lb.str(i, "ifid") + "]") << "row " << i;
        // The only member carries all of its set's bytes, or none moved in the interval.
        if (lb.num(i, "ivl_bytes") > 0) {
            EXPECT_EQ(lb.num(i, "ivl_share"), 1.0) << "row " << i;
        }
    }
}

TEST(record_fidelity, a_leaf_spine_fabric_counts_single_and_eight_member_sets)
{
    // The default fabric: 16 hosts, 2 leaves of 8, 8 spines. A leaf: 8 sets of one host port and
    // one set of 8 uplinks (16 rows); a spine: one single-member set per leaf (2 rows).
    const auto n = first_interval(run_lb("fid-lb2", {"Simulation.RunTime=1ms"}));
    std::map<std::pair<std::string, int>, int> want = {
        {{"leaf0", 1}, 8}, {{"leaf0", 8}, 8}, {{"leaf1", 1}, 8}, {{"leaf1", 8}, 8}};
    for (int s = 0; s < 8; ++s) want[{"spine" + std::to_string(s), 1}] = 2;
    EXPECT_EQ(n, want);
}

namespace {

// The distinct sim_time_sec values of a record's first rows.
std::vector<double> row_times(const std::string& path, size_t count)
{
    const csv c = read_csv(path);
    std::vector<double> t;
    for (size_t i = 0; i < c.rows.size() && t.size() < count; ++i)
        if (t.empty() || c.num(i, "sim_time_sec") != t.back())
            t.push_back(c.num(i, "sim_time_sec"));
    return t;
}

}  // namespace

TEST(record_fidelity, the_first_periodic_row_follows_the_client_start)
{
    // The records page: StartTime + ClientStartOffset + interval, 0.001 + 0.001 + 0.001 s at
    // the defaults, then every interval.
    const std::string dir = scratch_dir("fid-first");
    const command_result r =
        run_uetsim({"run", "--quiet", "--out", dir, "--set", "Simulation.RunTime=2ms", "--set",
                    "Records.Enabled=nd-stats, uet-transport-stats, pcie-stats, rdma-perf"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* rec : {"nd-stats", "uet-transport-stats", "pcie-stats"}) {
        const auto t = row_times(dir + "/uetsim-" + std::string(rec) + "-0.csv", 2);
        ASSERT_EQ(t.size(), 2u) << rec;
        EXPECT_DOUBLE_EQ(t[0], 0.003) << rec;
        EXPECT_DOUBLE_EQ(t[1], 0.004) << rec;
    }
}

TEST(record_fidelity, the_switch_records_tick_from_t0_on_their_own_interval)
{
    // X29, a documented choice (docs/buffers-and-pfc.md "Records"): the switch pages give no
    // first-row rule, and the switches forward from t = 0 (connection setup before the clients
    // start), so the switch records' rows are at every LoadBalancingStatsReportInterval and
    // BufferStatsReportInterval from t = 0 (1 ms at the defaults), also with the RDMA
    // application whose NIC records start at 0.003 s.
    const std::string dir = scratch_dir("fid-switch-first");
    const command_result r =
        run_uetsim({"run", "--quiet", "--out", dir, "--set", "Simulation.RunTime=2ms", "--set",
                    "Records.Enabled=nd-stats, scala-switch-load-balancing-stats, "
                    "scala-switch-agg-buff-stats, rdma-perf"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* rec : {"scala-switch-load-balancing-stats", "scala-switch-agg-buff-stats"}) {
        const auto t = row_times(dir + "/uetsim-" + std::string(rec) + "-0.csv", 3);
        ASSERT_EQ(t.size(), 3u) << rec;
        EXPECT_DOUBLE_EQ(t[0], 0.001) << rec;
        EXPECT_DOUBLE_EQ(t[1], 0.002) << rec;
        EXPECT_DOUBLE_EQ(t[2], 0.003) << rec;
    }
    EXPECT_DOUBLE_EQ(row_times(dir + "/uetsim-nd-stats-0.csv", 1).at(0), 0.003);
}

TEST(record_fidelity, other_start_times_move_the_first_row)
{
    // 0.2 ms + 0.3 ms + 0.4 ms = 0.9 ms, then 1.3 ms.
    const std::string dir = scratch_dir("fid-first2");
    const command_result r = run_uetsim(
        {"run", "--quiet", "--out", dir, "--set", "Simulation.StartTime=0.2ms", "--set",
         "Simulation.ClientStartOffset=0.3ms", "--set", "Simulation.NDStatsReportInterval=0.4ms",
         "--set", "Simulation.RunTime=0.5ms", "--set",
         "Records.Enabled=nd-stats, uet-transport-stats, pcie-stats, rdma-perf"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* rec : {"nd-stats", "uet-transport-stats", "pcie-stats"}) {
        const auto t = row_times(dir + "/uetsim-" + std::string(rec) + "-0.csv", 2);
        ASSERT_EQ(t.size(), 2u) << rec;
        EXPECT_NEAR(t[0], 0.9e-3, 1e-12) << rec;
        EXPECT_NEAR(t[1], 1.3e-3, 1e-12) << rec;
    }
}

TEST(record_fidelity,
     a_flows_only_run_has_no_client_start_and_writes_its_first_row_after_one_interval)
{
    const std::string dir = scratch_dir("fid-flows");
    const std::string file =
        write_file(dir + "/f.yaml",
                   "Simulation: {Name: f, NDStatsReportInterval: 100us}\n"
                   "Records: {Enabled: [nd-stats, uet-transport-stats, pcie-stats, flow-perf]}\n"
                   "Topology: {Kind: single-switch, Hosts: 2}\n"
                   "Flows:\n  - {Src: 0, Dst: 1, Bytes: 20MB}\n");
    const command_result r = run_uetsim({"run", file, "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* rec : {"nd-stats", "uet-transport-stats", "pcie-stats"}) {
        const auto t = row_times(dir + "/f-" + std::string(rec) + "-0.csv", 2);
        ASSERT_EQ(t.size(), 2u) << rec;
        EXPECT_NEAR(t[0], 100e-6, 1e-15) << rec;
        EXPECT_NEAR(t[1], 200e-6, 1e-15) << rec;
    }
    // The first row's interval columns cover everything before it.
    const csv u = read_csv(dir + "/f-uet-transport-stats-0.csv");
    ASSERT_EQ(u.str(0, "component_name"), "host0");
    EXPECT_GT(u.num(0, "write_pkts_sent"), 1000);  // 20 MB at 400 Gbps: 400 us in all
    EXPECT_EQ(u.num(0, "ivl_write_pkts_sent"), u.num(0, "write_pkts_sent"));
    EXPECT_EQ(u.num(1, "ivl_write_pkts_rcvd"), u.num(1, "write_pkts_rcvd"));
}
