// Record rules of the reference's pages, through the real command: the load-balancing record
// has a row for every member of every equal-cost set, single-member sets included, and the
// first periodic row comes at the time the UET NIC records page gives.
#include <gtest/gtest.h>

#include <map>
#include <string>
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
