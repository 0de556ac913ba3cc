// RoCE against UET on the 8-flow cross-leaf scenario (seed 003's collision example): 8 hosts on
// leaf0 each WRITE 2 MiB to a host on leaf1 over 8 spines, over 20 seeds (Simulation.RandomSeed
// changes the switches' ECMP salt and the queue pairs' UDP source ports). A RoCE queue pair has
// one UDP source port, so ECMP pins it to one spine: collisions make the slowest flow about as
// slow as the number of flows on the busiest uplink, 2.59 on average for 8 flows on 8 uplinks.
// The UET NIC sprays every message over all 8 spines and stays near its solo time.
//
// The band for RoCE: the busiest of 8 uplinks carries 2.59 flows on average, with a standard
// deviation of 0.68 flows per seed (seed 003's arithmetic), so the mean of 20 seeds lies within
// 2.59 +- 0.46 (3 standard errors); the fixed path latency (about 3 us beside 43 us of
// serialization) pulls the time ratio a little below the flow count. Hence [1.8, 3.2]; each
// seed's slowdown must also track the busiest uplink the records show for that seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

constexpr uint64_t flow_bytes = 2u << 20;  // 512 packets at MSS 4096
constexpr double roce_flow_wire_bytes = 512.0 * (4096 + 58);
constexpr int seeds = 20;

std::string scenario(const std::string& nic, int flows)
{
    std::string y =
        "Simulation: {Name: rvu}\n"
        "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8, "
        "LinkRate: 400Gbps}\n"
        "Switch: {EcmpHashMethod: crc32WithSalt}\n"
        "Records: {Enabled: [flow-perf, scala-switch-load-balancing-stats]}\n"
        "Nic: {Type: " +
        nic + "}\n";
    if (nic == "uet") y += "UetNic: {PacketSprayingType: Recycled Entropy Packet Spraying}\n";
    y += "Flows:\n";
    for (int i = 0; i < flows; ++i)
        y += "  - {Src: " + std::to_string(i) + ", Dst: " + std::to_string(8 + i) +
             ", Bytes: " + std::to_string(flow_bytes) + "}\n";
    return y;
}

struct outcome
{
    double slowest_fct_us = 0;
    std::map<int, double> uplink_bytes;  // leaf0's uplink member -> bytes it carried
};

outcome run_seed(const std::string& file, const std::string& out, int seed, int flows)
{
    const command_result r = run_uetsim({"run", file, "--quiet", "--out", out, "--set",
                                         "Simulation.RandomSeed=" + std::to_string(seed)});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    outcome o;
    const csv perf = read_csv(out + "/rvu-flow-perf-0.csv");
    EXPECT_EQ(perf.rows.size(), size_t(flows)) << "seed " << seed;
    for (size_t i = 0; i < perf.rows.size(); ++i)
        o.slowest_fct_us = std::max(o.slowest_fct_us, perf.num(i, "fct_usec"));
    const csv lb = read_csv(out + "/rvu-scala-switch-load-balancing-stats-0.csv");
    for (size_t i = 0; i < lb.rows.size(); ++i)
        if (lb.str(i, "component_name") == "leaf0" && lb.num(i, "group_size") == 8)
            o.uplink_bytes[int(lb.num(i, "ifid"))] = lb.num(i, "bytes");  // last row wins
    return o;
}

}  // namespace

TEST(roce_vs_uet_collision, roce_collides_on_ecmp_and_uet_spraying_does_not)
{
    const std::string dir = scratch_dir("rvu");
    std::map<std::string, double> solo;
    for (const std::string nic : {"roce", "uet"}) {
        const std::string f = write_file(dir + "/solo-" + nic + ".yaml", scenario(nic, 1));
        solo[nic] = run_seed(f, dir + "/solo-" + nic, 1, 1).slowest_fct_us;
        ASSERT_GT(solo[nic], 0) << nic;
    }
    // Alone, a flow runs at line rate on both NICs: 2 MiB plus headers at 400 Gbps is
    // 42.5 us (RoCE) and 43.0 us (UET), plus a few us of path.
    EXPECT_LT(solo["roce"], 50);
    EXPECT_LT(solo["uet"], 50);

    const std::string roce_file = write_file(dir + "/roce.yaml", scenario("roce", 8));
    const std::string uet_file = write_file(dir + "/uet.yaml", scenario("uet", 8));
    double roce_slowdown = 0, roce_busiest = 0, uet_slowdown = 0, uet_worst = 0;
    std::map<double, int> busiest_seen;  // how many seeds had each busiest-uplink flow count
    for (int seed = 1; seed <= seeds; ++seed) {
        const outcome ro = run_seed(roce_file, dir + "/roce", seed, 8);
        // One path per queue pair: each uplink carried a whole number of flows, 8 in all.
        ASSERT_EQ(ro.uplink_bytes.size(), 8u);
        double total = 0, busiest = 0;
        for (const auto& [ifid, b] : ro.uplink_bytes) {
            const double flows_on = b / roce_flow_wire_bytes;
            EXPECT_NEAR(flows_on, std::round(flows_on), 1e-9)
                << "seed " << seed << " port " << ifid;
            total += flows_on;
            busiest = std::max(busiest, flows_on);
        }
        EXPECT_NEAR(total, 8, 1e-9) << "seed " << seed;
        ++busiest_seen[std::round(busiest)];
        const double slowdown = ro.slowest_fct_us / solo["roce"];
        // The slowest flow waits for the busiest uplink's flows, and not much more.
        EXPECT_GE(slowdown, 0.8 * busiest) << "seed " << seed;
        EXPECT_LE(slowdown, 1.25 * busiest + 0.1) << "seed " << seed;
        roce_slowdown += slowdown;
        roce_busiest += busiest;

        const outcome uo = run_seed(uet_file, dir + "/uet", seed, 8);
        const double u = uo.slowest_fct_us / solo["uet"];
        uet_slowdown += u;
        uet_worst = std::max(uet_worst, u);
    }
    roce_slowdown /= seeds;
    roce_busiest /= seeds;
    uet_slowdown /= seeds;
    EXPECT_GE(roce_slowdown, 1.8);
    EXPECT_LE(roce_slowdown, 3.2);
    EXPECT_GT(busiest_seen.size(), 1u) << "the seed must change the collisions";
    EXPECT_LT(uet_slowdown, 1.3);
    EXPECT_LT(uet_worst, 1.5);
    RecordProperty("roce_mean_slowdown", std::to_string(roce_slowdown));
    RecordProperty("roce_mean_busiest_uplink_flows", std::to_string(roce_busiest));
    RecordProperty("uet_mean_slowdown", std::to_string(uet_slowdown));
}
