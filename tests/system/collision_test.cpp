// The collision worked example of the UET overview seed: 8 long flows from 8 hosts on one leaf
// to 8 hosts on another over 8 spines. With one entropy value per flow, ECMP piles about 2.59
// flows onto the busiest uplink on average; spraying over 128 values keeps it near one flow.
// Everything is read from the records of the real `uetsim` command.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

constexpr uint64_t flow_bytes = 256 * 4096;               // 1 MiB: 256 full packets
constexpr double flow_wire_bytes = 256.0 * (4096 + 106);  // as the switch counts them

std::string scenario(int flows, int entropy_values)
{
    std::string y = R"(Simulation: {Name: coll}
Nic: {Type: raw}
Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8, LinkRate: 400Gbps}
Switch: {EcmpHashMethod: crc32WithSalt, EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0]}
Flows:
)";
    for (int i = 0; i < flows; ++i) {
        y += "  - {Src: " + std::to_string(i) + ", Dst: " + std::to_string(8 + i) +
             ", Bytes: " + std::to_string(flow_bytes) + ", Start: 0";
        if (entropy_values > 1)
            y += ", Entropy: 256, EntropyValues: " + std::to_string(entropy_values);
        y += "}\n";
    }
    return y;
}

struct outcome
{
    double busiest_flows;  // bytes on leaf0's busiest uplink, in flows' worth
    double slowest_fct_us;
};

outcome run_seed(const std::string& file, const std::string& out, int seed, int flows = 8)
{
    auto r = run_uetsim({"run", file, "--quiet", "--out", out, "--set",
                         "Simulation.RandomSeed=" + std::to_string(seed)});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    csv lb = read_csv(out + "/coll-scala-switch-load-balancing-stats-0.csv");
    std::map<std::string, double> last;  // leaf0's uplink members, last row wins
    for (size_t i = 0; i < lb.rows.size(); ++i)
        if (lb.str(i, "component_name") == "leaf0" && lb.num(i, "group_size") == 8)
            last[lb.str(i, "ifid")] = lb.num(i, "bytes");
    EXPECT_EQ(last.size(), 8u);
    double busiest = 0, total = 0;
    for (auto& [ifid, b] : last) busiest = std::max(busiest, b), total += b;
    csv perf = read_csv(out + "/coll-flow-perf-0.csv");
    double slowest = 0;
    for (size_t i = 0; i < perf.rows.size(); ++i)
        slowest = std::max(slowest, perf.num(i, "fct_usec"));
    // Scoreboard: every message completed, every byte over leaf0's uplinks exactly once.
    EXPECT_EQ(perf.rows.size(), size_t(flows));
    EXPECT_DOUBLE_EQ(total, flows * flow_wire_bytes);
    return {busiest / flow_wire_bytes, slowest};
}

}  // namespace

TEST(collision, ecmp_busiest_uplink_carries_about_2_59_flows)
{
    const std::string dir = scratch_dir("coll");
    const std::string solo_file = write_file(dir + "/solo.yaml", scenario(1, 1));
    const std::string file = write_file(dir + "/coll.yaml", scenario(8, 1));
    const double solo_fct = run_seed(solo_file, dir + "/solo", 1, 1).slowest_fct_us;

    constexpr int seeds = 200;
    double busiest = 0, slowdown = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
        outcome o = run_seed(file, dir + "/run", seed);
        busiest += o.busiest_flows;
        slowdown += o.slowest_fct_us / solo_fct;
    }
    busiest /= seeds;
    slowdown /= seeds;
    EXPECT_NEAR(busiest, 2.59, 0.15);
    // The slowest flow shares its uplink with the most others; fixed path latency makes the
    // ratio a little smaller than the flow count.
    EXPECT_GT(slowdown, 0.85 * busiest);
    EXPECT_LT(slowdown, 1.02 * busiest);
    RecordProperty("mean_busiest_flows", std::to_string(busiest));
    RecordProperty("mean_slowdown", std::to_string(slowdown));
}

TEST(collision, spraying_over_128_entropy_values_balances_the_uplinks)
{
    const std::string dir = scratch_dir("spray");
    const std::string file = write_file(dir + "/spray.yaml", scenario(8, 128));
    constexpr int seeds = 40;
    double busiest = 0;
    for (int seed = 1; seed <= seeds; ++seed)
        busiest += run_seed(file, dir + "/run", seed).busiest_flows;
    busiest /= seeds;
    EXPECT_LE(busiest, 1.25);
    EXPECT_GE(busiest, 1.0);
}

TEST(collision, solo_flow_time_is_serialization_plus_path_latency)
{
    // 256 x 4,202 B at 400 Gbps = 21.51424 us on the first link; then three switches, each
    // 500 ns forwarding plus one more 84.04 ns store-and-forward serialization; propagation
    // 100 + 500 + 500 + 100 ns.
    const std::string dir = scratch_dir("solo");
    const std::string file = write_file(dir + "/solo.yaml", scenario(1, 1));
    auto r = run_uetsim({"run", file, "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    csv perf = read_csv(dir + "/coll-flow-perf-0.csv");
    ASSERT_EQ(perf.rows.size(), 1u);
    const double expected_us = 21.51424 + 3 * (0.5 + 0.08404) + 1.2;
    EXPECT_NEAR(perf.num(0, "fct_usec"), expected_us, 1e-6);
    csv nd = read_csv(dir + "/coll-nd-stats-0.csv");
    bool seen = false;
    for (size_t i = 0; i < nd.rows.size(); ++i)
        if (nd.str(i, "component_name") == "host0") {
            EXPECT_EQ(nd.num(i, "total_packets_tx"), 256);
            EXPECT_NEAR(nd.num(i, "total_bytes_tx_GB"), 256 * 4202 / 1e9, 1e-12);
            seen = true;
        }
    EXPECT_TRUE(seen);
}
