// The switch's shared buffer through the real command: `inspect --json`'s switch_buffer on the
// shared-buffer page's 128-port worked example, a 15:1 UET incast with PFC and trimming off
// that drops at the fixed egress cap and recovers every message, and the buffer records
// (scala-switch-agg-buff-stats by default, scala-switch-buff-stats when asked for).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

std::string scenario_file(const std::string& dir, const std::string& text)
{
    return write_file(dir + "/scenario.yaml", text);
}

}  // namespace

// 128 hosts on one switch: 128 connected ports, every attribute at its default.
TEST(switch_buffer, inspect_shows_the_worked_example_of_128_ports)
{
    const std::string dir = scratch_dir("sb_inspect");
    const std::string f =
        scenario_file(dir, "Topology: {Kind: single-switch, Hosts: 128, LinkRate: 400Gbps}\n");
    command_result r = run_uetsim({"inspect", f, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["switch_buffer"].size(), 1u);
    const auto& b = j["switch_buffer"][0];
    EXPECT_EQ(b["switch"], "switch0");
    EXPECT_EQ(b["connected_ports"], 128);
    EXPECT_EQ(b["total_headroom_bytes"], 32'768'000);
    EXPECT_EQ(b["sizing_total_bytes"], 223'232'000);
    EXPECT_EQ(b["xoff_bytes"], 700'000);
    EXPECT_EQ(b["xon_bytes"], 300'000);
    // Half of 512 x 65535 / 400 Gbps + the host link's 100 ns.
    EXPECT_NEAR(b["pause_refresh_s"].get<double>(), (83.88480e-6 + 100e-9) / 2, 1e-12);
    ASSERT_EQ(b["pools"].size(), 2u);
    const auto& p0 = b["pools"][0];
    EXPECT_EQ(p0["pool"], 0);
    EXPECT_EQ(p0["bytes"], 200'908'800);
    EXPECT_EQ(p0["lossless_classes"], nlohmann::json::array({0}));
    EXPECT_EQ(p0["static_egress_limit_bytes"], 200'908'800);
    EXPECT_EQ(p0["ecn_min_bytes"], 40'181'760);
    EXPECT_EQ(p0["ecn_max_bytes"], 160'727'040);
    const auto& p1 = b["pools"][1];
    EXPECT_EQ(p1["bytes"], 22'323'200);
    EXPECT_EQ(p1["lossless_classes"], nlohmann::json::array({1}));
    EXPECT_EQ(p1["ecn_min_bytes"], 4'464'640);
    EXPECT_EQ(p1["ecn_max_bytes"], 17'858'560);

    // The even split of the same switch: 1,569,600 / 174,400 B, the ECN band from it.
    r = run_uetsim({"inspect", f, "--json", "--set", "Switch.LossyAlpha=0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json split = nlohmann::json::parse(r.out);
    const auto& e = split["switch_buffer"][0]["pools"];
    EXPECT_EQ(e[0]["static_egress_limit_bytes"], 1'569'600);
    EXPECT_EQ(e[1]["static_egress_limit_bytes"], 174'400);
    EXPECT_EQ(e[0]["ecn_min_bytes"], 313'920);
    EXPECT_EQ(e[0]["ecn_max_bytes"], 1'255'680);
}

// 15 UET senders to one receiver through one leaf, every class lossy (PFC off), no trimming,
// each lossy egress queue capped at 5 x PlaneBDP = 1.5 MB: the receiver's port drops, the
// transports retransmit, every message completes and the scoreboard is clean.
TEST(switch_buffer, incast_15_to_1_without_pfc_or_trimming_drops_and_recovers)
{
    const std::string dir = scratch_dir("sb_incast");
    std::string y =
        "Simulation: {Name: incast, StopTime: 50ms}\n"
        "Topology: {Kind: single-switch, Hosts: 16, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "Switch: {EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0], LossyAlpha: 0, "
        "QueueDropThresholdEnable: true, ReportPerPortBufferStats: true, "
        "BufferStatsReportInterval: 100us}\n"
        "Flows:\n";
    for (int s = 1; s <= 15; ++s)
        y += "  - {Src: " + std::to_string(s) + ", Dst: 0, Bytes: 2MiB}\n";
    command_result r = run_uetsim({"run", scenario_file(dir, y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/incast-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_GT(m["packets_dropped"].get<uint64_t>(), 0u);
    EXPECT_EQ(m["packets_trimmed"].get<uint64_t>(), 0u);
    EXPECT_EQ(read_csv(dir + "/incast-flow-perf-0.csv").rows.size(), 15u);

    // The drops are egress drops at the receiver's port (ifid 0), none at ingress.
    const csv nd = read_csv(dir + "/incast-nd-stats-0.csv");
    double tx_drops = 0, rx_drops = 0;
    for (size_t i = 0; i < nd.rows.size(); ++i)
        if (nd.str(i, "component_name") == "switch0") {
            if (nd.str(i, "ifid") == "0") tx_drops = std::max(tx_drops, nd.num(i, "tx_drops"));
            rx_drops = std::max(rx_drops, nd.num(i, "rx_drops"));
        }
    EXPECT_EQ(uint64_t(tx_drops), m["packets_dropped"].get<uint64_t>());
    EXPECT_EQ(rx_drops, 0);

    // The aggregate record: pool 0's downlink egress queues peak at the cap (one port's queue
    // holds at most 1,500,000 B), and the pool's size is the buffer limit.
    const csv agg = read_csv(dir + "/incast-scala-switch-agg-buff-stats-0.csv");
    double peak = 0;
    for (size_t i = 0; i < agg.rows.size(); ++i)
        if (agg.str(i, "buff_id") == "egressQueue" && agg.str(i, "uldl") == "dl" &&
            agg.str(i, "pool_num") == "0") {
            peak = std::max(peak, agg.num(i, "ivl_max_bytes"));
            EXPECT_EQ(agg.num(i, "buffer_limit"), 0.9 * (256e6 - 16 * 256e3));
        }
    EXPECT_GT(peak, 1'400'000);
    // The per-port record: port 0's egress queue alone, against its own 1.5 MB cap.
    const csv pp = read_csv(dir + "/incast-scala-switch-buff-stats-0.csv");
    double port0 = 0;
    for (size_t i = 0; i < pp.rows.size(); ++i)
        if (pp.str(i, "buff_id") == "egressQueue" && pp.str(i, "ifid") == "0" &&
            pp.str(i, "pool_num") == "0") {
            port0 = std::max(port0, pp.num(i, "ivl_max_bytes"));
            EXPECT_EQ(pp.num(i, "buff_limit"), 1'500'000);
            EXPECT_LE(pp.num(i, "ivl_max_pct_util"), 100);
        }
    EXPECT_GT(port0, 1'400'000);
    EXPECT_LE(port0, 1'500'000);
}
