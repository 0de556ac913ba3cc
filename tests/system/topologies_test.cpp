// Every topology carries traffic end to end through UET NICs: a permutation on a k=4 fat-tree
// (paths through edge, aggregation and core) and an incast on a single switch, with the
// scoreboard clean and one flow-perf row per message.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

void run_and_check(const std::string& yaml, size_t messages)
{
    const std::string dir = scratch_dir("topo");
    const std::string file = write_file(dir + "/s.yaml", yaml);
    command_result r = run_uetsim({"run", file, "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    csv perf = read_csv(dir + "/t-flow-perf-0.csv");
    EXPECT_EQ(perf.rows.size(), messages);
    csv nd = read_csv(dir + "/t-nd-stats-0.csv");
    EXPECT_GT(nd.rows.size(), 0u);
}

}  // namespace

TEST(topologies, fat_tree_k4_permutation_through_core)
{
    std::string y = "Simulation: {Name: t}\nTopology: {Kind: fat-tree, K: 4}\nFlows:\n";
    for (int h = 0; h < 16; ++h)  // host h -> h + 8: other pods, so every path crosses a core
        y += "  - {Src: " + std::to_string(h) + ", Dst: " + std::to_string((h + 8) % 16) +
             ", Bytes: 1MiB}\n";
    run_and_check(y, 16);
}

TEST(topologies, single_switch_incast)
{
    std::string y = "Simulation: {Name: t}\nTopology: {Kind: single-switch, Hosts: 9}\nFlows:\n";
    for (int h = 1; h < 9; ++h) y += "  - {Src: " + std::to_string(h) + ", Dst: 0, Bytes: 2MiB}\n";
    run_and_check(y, 8);
}
