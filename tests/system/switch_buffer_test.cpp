// The switch's shared buffer through the real command: `inspect --json`'s switch_buffer on the
// shared-buffer page's 128-port worked example, a 15:1 UET incast with PFC and trimming off
// that drops at the fixed egress cap and recovers every message, and the buffer records
// (scala-switch-agg-buff-stats by default, scala-switch-buff-stats when asked for); on the
// single-switch default, the burst per sender that crosses Xoff, and why UET incasts stay below.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

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

namespace {

// A 10 us-spaced run on the single-switch default topology (16 hosts, 400 Gbps) with the
// per-port buffer record; returns the output folder.
std::string single_switch_run(const std::string& tag, const std::string& nic,
                              const std::string& flows)
{
    const std::string dir = scratch_dir(tag);
    const std::string y =
        "Simulation: {Name: ss, StopTime: 20ms, NDStatsReportInterval: 10us}\n"
        "Topology: {Kind: single-switch, LinkRate: 400Gbps}\n"
        "Nic: {Type: " +
        nic +
        "}\n"
        "Switch: {ReportPerPortBufferStats: true, BufferStatsReportInterval: "
        "10us}\n"
        "Records: {Enabled: [nd-stats, flow-perf, ecn-pfc-stats]}\n"
        "Flows:\n" +
        flows;
    const command_result r = run_uetsim({"run", scenario_file(dir, y), "--quiet", "--out", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir;
}

std::string flows_to(int first_src, int last_src, int dsts, const std::string& bytes)
{
    std::string f;
    for (int s = first_src; s <= last_src; ++s)
        for (int d = 0; d < dsts; ++d)
            f += "  - {Src: " + std::to_string(s) + ", Dst: " + std::to_string(d) +
                 ", Bytes: " + bytes + "}\n";
    return f;
}

// The largest ingress occupancy (headroom excluded) any port reached in pool 0.
double peak_ingress_occupancy(const std::string& dir)
{
    const csv b = read_csv(dir + "/ss-scala-switch-buff-stats-0.csv");
    double v = 0;
    for (size_t i = 0; i < b.rows.size(); ++i)
        if (b.str(i, "buff_id") == "ingressUsage" && b.str(i, "pool_num") == "0")
            v = std::max(v, b.num(i, "ivl_max_bytes"));
    return v;
}

// The switch ports that sent a pause for TC0, and the pauses they sent in all.
std::pair<std::vector<int>, double> pausing_ports(const std::string& dir)
{
    const csv e = read_csv(dir + "/ss-ecn-pfc-stats-0.csv");
    std::map<int, double> xoff;
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.str(i, "component_type") == "Switch" && e.num(i, "priority") == 0 &&
            e.num(i, "pfcxoff_tx") > 0)
            xoff[int(e.num(i, "ifid"))] =
                std::max(xoff[int(e.num(i, "ifid"))], e.num(i, "pfcxoff_tx"));
    std::pair<std::vector<int>, double> r;
    for (const auto& [p, n] : xoff) {
        r.first.push_back(p);
        r.second += n;
    }
    return r;
}

// The resume frames the switch's ports sent for TC0, in all.
double resumes(const std::string& dir)
{
    const csv e = read_csv(dir + "/ss-ecn-pfc-stats-0.csv");
    std::map<int, double> xon;
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.str(i, "component_type") == "Switch" && e.num(i, "priority") == 0)
            xon[int(e.num(i, "ifid"))] =
                std::max(xon[int(e.num(i, "ifid"))], e.num(i, "pfcxon_tx"));
    double n = 0;
    for (const auto& [p, x] : xon) n += x;
    return n;
}

uint64_t dropped(const std::string& dir)
{
    return nlohmann::json::parse(read_text(dir + "/ss-manifest.json"))["packets_dropped"]
        .get<uint64_t>();
}

}  // namespace

// The single-switch default (16 hosts, so 16 connected ports) with every buffer attribute at its
// default: Xoff is the page's fixed 700,000 B per port and pool, whatever the port count, and a
// port pauses on its own ingress occupancy. In an N:1 line-rate incast a sender's port holds its
// charged bytes C less its 1/N share of the receiver's departures: about C x (N-1)/N plus the
// forwarding latency and one frame at 400 Gbps over N (584 ns x 50 B/ns / 15 = 1,947 B). At 15:1
// that passes 700,000 B at C = 747,914 B, 732,180 B of payload per sender (4,096 of every 4,184
// charged bytes). Raw senders (line rate, no transport; they ignore the pause, the headroom
// holds the rest) of 720,000 B peak at 689,464 B and never pause; of 740,000 B every sender's
// port pauses at 702,912 B (700,000 B plus the packet that crossed, still admitted).
TEST(switch_buffer, single_switch_default_pauses_a_15_to_1_burst_above_the_computed_xoff)
{
    const std::string dir = scratch_dir("sb_ss_inspect");
    const std::string f = scenario_file(
        dir, "Topology: {Kind: single-switch, LinkRate: 400Gbps}\nNic: {Type: uet}\n");
    const command_result r = run_uetsim({"inspect", f, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const auto& b = j["switch_buffer"][0];
    EXPECT_EQ(b["connected_ports"], 16);
    EXPECT_EQ(b["total_headroom_bytes"], 4'096'000);  // 16 x 256,000
    EXPECT_EQ(b["sizing_total_bytes"], 251'904'000);  // 256,000,000 - headroom
    EXPECT_EQ(b["xoff_bytes"], 700'000);
    EXPECT_EQ(b["xon_bytes"], 300'000);
    EXPECT_EQ(b["pools"][0]["bytes"], 226'713'600);  // 0.9 x the sizing total
    EXPECT_EQ(b["pools"][1]["bytes"], 25'190'400);
    // Condition 2 of the page holds here: 16 x 704,184 B of pause points fit pool 0 many times.
    EXPECT_GT(b["pools"][0]["bytes"].get<double>(), 16 * 704'184.0);

    const std::string below = single_switch_run("sb_ss_720k", "raw", flows_to(1, 15, 1, "720000B"));
    EXPECT_LT(peak_ingress_occupancy(below), 700'000);
    EXPECT_GT(peak_ingress_occupancy(below), 680'000);  // the arithmetic's 688,402 B
    EXPECT_TRUE(pausing_ports(below).first.empty());

    const std::string above = single_switch_run("sb_ss_740k", "raw", flows_to(1, 15, 1, "740000B"));
    EXPECT_GT(peak_ingress_occupancy(above), 700'000);
    EXPECT_LE(peak_ingress_occupancy(above), 700'000 + 4'184);
    const auto [ports, pauses] = pausing_ports(above);
    EXPECT_EQ(ports, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_GE(pauses, 15);
    EXPECT_EQ(dropped(above), 0u);  // the headroom held what arrived after the pauses
}

// With UET NICs a port holds at most what its sender has in flight, and one NSCC window is at
// most 1.5 x BDP = 450,000 B (400 Gbps x 6 us / 8 x 1.5), below Xoff: the 15:1 incast of 2 MiB
// per sender peaks at 322,168 B per port and never pauses, whatever N. A sender with windows to
// four congested receivers at once (hosts 4-15 each to hosts 0-3, 2 MiB per flow) holds more
// than Xoff in the switch: every sender's port pauses, nothing is dropped, every message ends.
TEST(switch_buffer, single_switch_uet_incast_pauses_only_when_a_port_holds_several_windows)
{
    const std::string one = single_switch_run("sb_ss_uet_15", "uet", flows_to(1, 15, 1, "2MiB"));
    EXPECT_LT(peak_ingress_occupancy(one), 450'000);
    EXPECT_TRUE(pausing_ports(one).first.empty());
    EXPECT_EQ(dropped(one), 0u);

    const std::string four = single_switch_run("sb_ss_uet_12x4", "uet", flows_to(4, 15, 4, "2MiB"));
    EXPECT_GT(peak_ingress_occupancy(four), 700'000);
    const auto [ports, pauses] = pausing_ports(four);
    EXPECT_EQ(ports, (std::vector<int>{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_EQ(resumes(four), pauses);  // each pause ended by a resume at Xon
    EXPECT_EQ(dropped(four), 0u);
    const nlohmann::json m = nlohmann::json::parse(read_text(four + "/ss-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(read_csv(four + "/ss-flow-perf-0.csv").rows.size(), 48u);
}
