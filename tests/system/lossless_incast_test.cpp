// Lossless incast and head-of-line blocking in whole runs: UET NICs on a leaf-spine with one
// spine (2 leaves x 8 hosts, 400 Gbps), every switch attribute at its default (TC0 lossless,
// Xoff 700,000 B per ingress port and pool). On one switch NSCC keeps each sender's share of
// the receiver's queue below Xoff, so the topology funnels the senders of leaf1 through one
// spine: leaf0's uplink ingress carries eight senders and crosses Xoff, leaf0 pauses spine0,
// spine0's ingress from leaf1 fills and spine0 pauses leaf1 (the pause propagates upstream).
// The same incast lossy (PFC off, fixed cap, no trimming) drops and recovers; a victim flow
// from leaf1 to an idle host on leaf0 waits behind the pauses on the paths it shares.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_uetsim.h"
#include "tests/support/vcd_reader.h"

using namespace uetsim::test;

namespace {

std::string scenario(const std::string& flows)
{
    return "Simulation: {Name: li, StopTime: 20ms}\n"
           "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 1, "
           "LinkRate: 400Gbps}\n"
           "Nic: {Type: uet}\n"
           "Records:\n"
           "  Enabled: [nd-stats, flow-perf, ecn-pfc-stats]\n"
           "Flows:\n" +
           flows;
}

std::string flow(int src, int dst)
{
    return "  - {Src: " + std::to_string(src) + ", Dst: " + std::to_string(dst) +
           ", Bytes: 2MiB}\n";
}

// Hosts 1..15 each send 2 MiB to host 0.
std::string incast_15_to_1()
{
    std::string f;
    for (int s = 1; s <= 15; ++s) f += flow(s, 0);
    return f;
}

// The largest value of `column` over the rows of (component, ifid): the counters are
// cumulative, one row per report interval.
double port_max(const csv& c, const std::string& component, int ifid, const std::string& column)
{
    double v = 0;
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (c.str(i, "component_name") == component && c.num(i, "ifid") == ifid)
            v = std::max(v, c.num(i, column));
    return v;
}

double column_max(const csv& c, const std::string& column)
{
    double v = 0;
    for (size_t i = 0; i < c.rows.size(); ++i) v = std::max(v, c.num(i, column));
    return v;
}

nlohmann::json manifest(const std::string& dir)
{
    return nlohmann::json::parse(read_text(dir + "/li-manifest.json"));
}

}  // namespace

TEST(lossless_incast, incast_15_to_1_with_default_pfc_pauses_and_loses_nothing)
{
    const std::string dir = scratch_dir("li_lossless");
    const auto r = run_uetsim(
        {"run", write_file(dir + "/s.yaml", scenario(incast_15_to_1())), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = manifest(dir);
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["packets_dropped"].get<uint64_t>(), 0u);
    EXPECT_EQ(m["packets_trimmed"].get<uint64_t>(), 0u);
    EXPECT_EQ(read_csv(dir + "/li-flow-perf-0.csv").rows.size(), 15u);

    const csv nd = read_csv(dir + "/li-nd-stats-0.csv");
    ASSERT_FALSE(nd.rows.empty());
    for (size_t i = 0; i < nd.rows.size(); ++i) {
        EXPECT_EQ(nd.num(i, "tx_drops"), 0) << nd.str(i, "component_name");
        EXPECT_EQ(nd.num(i, "rx_drops"), 0) << nd.str(i, "component_name");
    }

    // leaf0 port 8 (its uplink) pauses spine0 port 0; spine0 port 1 (from leaf1) then pauses
    // leaf1 port 8: each pause sent is received by the peer and each is resumed.
    const csv e = read_csv(dir + "/li-ecn-pfc-stats-0.csv");
    const double leaf0_tx = port_max(e, "leaf0", 8, "pfcxoff_tx");
    const double spine1_tx = port_max(e, "spine0", 1, "pfcxoff_tx");
    EXPECT_GT(leaf0_tx, 0);
    EXPECT_EQ(port_max(e, "spine0", 0, "pfcxoff_rx"), leaf0_tx);
    EXPECT_GT(spine1_tx, 0);
    EXPECT_EQ(port_max(e, "leaf1", 8, "pfcxoff_rx"), spine1_tx);
    EXPECT_EQ(port_max(e, "spine0", 0, "pfcxon_rx"), port_max(e, "leaf0", 8, "pfcxon_tx"));
    EXPECT_GT(port_max(e, "spine0", 0, "pfc_time_paused_usec"), 0);
    EXPECT_GT(port_max(e, "leaf1", 8, "pfc_time_paused_usec"), 0);
}

// ecn-pfc-stats' XOFF time due to egress occupancy, against the per-port buffer record of the
// same run (both every 10 us): a port counts it only while paused with frames of the class
// waiting, so it is at most the XOFF time, non-zero only when the port's egress queue held
// bytes in the interval, and the whole interval when the queue sat unchanged and non-empty
// through a pause that lasted the whole interval.
TEST(lossless_incast, xoff_time_due_to_egress_occupancy_matches_the_paused_ports_queue)
{
    const std::string dir = scratch_dir("li_egr_occ");
    std::string sc = scenario(incast_15_to_1());
    sc.replace(sc.find("StopTime: 20ms}"), 15, "StopTime: 20ms, NDStatsReportInterval: 10us}");
    sc += "Switch: {ReportPerPortBufferStats: true, BufferStatsReportInterval: 10us}\n";
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", sc), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const csv e = read_csv(dir + "/li-ecn-pfc-stats-0.csv");
    const csv b = read_csv(dir + "/li-scala-switch-buff-stats-0.csv");
    // The egress queue's pool-0 row of (time, switch, port).
    std::map<std::string, size_t> queue_row;
    for (size_t i = 0; i < b.rows.size(); ++i)
        if (b.str(i, "buff_id") == "egressQueue" && b.num(i, "pool_num") == 0)
            queue_row[b.str(i, "sim_time_sec") + " " + b.str(i, "component_name") + " " +
                      b.str(i, "ifid")] = i;
    const double eps = 1e-6;  // µs, the columns' rounding
    int matched_rows = 0, blocked_rows = 0, frozen_rows = 0;
    for (const auto& [sw, port] : {std::pair<std::string, int>{"spine0", 0}, {"leaf1", 8}}) {
        double total = 0;
        for (size_t i = 0; i < e.rows.size(); ++i) {
            if (e.str(i, "component_name") != sw || e.num(i, "ifid") != port ||
                e.num(i, "priority") != 0)
                continue;
            const double ivl = e.num(i, "interval_total_time_xoff_egr_occ_usec");
            const double ivl_max = e.num(i, "interval_max_time_xoff_egr_occ_usec");
            const double paused = e.num(i, "pfc_time_paused_usec");
            total = e.num(i, "total_xoff_time_egr_occ_usec");
            EXPECT_LE(ivl, e.num(i, "interval_total_time_xoff_usec") + eps);
            EXPECT_LE(ivl_max, e.num(i, "interval_max_time_xoff_usec") + eps);
            EXPECT_LE(ivl_max, ivl + eps);
            EXPECT_LE(total, paused + eps);
            EXPECT_NEAR(e.num(i, "xoff_egr_occ_ratio"), paused > 0 ? total / paused : 0, 1e-6);
            const std::string key =
                e.str(i, "sim_time_sec") + " " + sw + " " + std::to_string(port);
            if (!queue_row.count(key)) continue;  // the last row, at the run's end: no buffer row
            ++matched_rows;
            const size_t q = queue_row[key];
            const double qmax = b.num(q, "ivl_max_bytes");
            EXPECT_LE(qmax, b.num(q, "buff_limit"));
            EXPECT_LE(b.num(q, "ivl_mean_bytes"), qmax);
            if (ivl > 0) {
                ++blocked_rows;
                EXPECT_GT(qmax, 0) << key;  // frames were waiting: the queue held bytes
            }
            if (e.num(i, "percent_xon") == 0 && b.num(q, "ivl_count") == 0 &&
                b.num(q, "ivl_min_bytes") > 0) {
                ++frozen_rows;  // paused throughout with a queue that neither grew nor drained
                EXPECT_NEAR(ivl, 10.0, eps) << key;
            }
        }
        EXPECT_GT(total, 0) << sw << " port " << port;
    }
    EXPECT_GT(matched_rows, 20);
    EXPECT_GT(blocked_rows, 10);
    EXPECT_GT(frozen_rows, 0);
}

TEST(lossless_incast, the_same_incast_without_pfc_or_trimming_drops_and_recovers)
{
    const std::string dir = scratch_dir("li_lossy");
    const auto r = run_uetsim(
        {"run", write_file(dir + "/s.yaml", scenario(incast_15_to_1())), "--quiet", "--out", dir,
         "--set", "Switch.EnablePFC=[0,0,0,0,0,0,0,0]", "--set", "Switch.LossyAlpha=0", "--set",
         "Switch.QueueDropThresholdEnable=true", "--set", "Switch.TrimmingEnabled=false"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = manifest(dir);
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    const uint64_t dropped = m["packets_dropped"].get<uint64_t>();
    EXPECT_GT(dropped, 0u);
    EXPECT_EQ(m["packets_trimmed"].get<uint64_t>(), 0u);
    EXPECT_EQ(read_csv(dir + "/li-flow-perf-0.csv").rows.size(), 15u);

    // Every drop is an egress drop at a switch port; the NICs and ingress drop nothing.
    const csv nd = read_csv(dir + "/li-nd-stats-0.csv");
    double tx_drops = 0;
    for (const std::string sw : {"leaf0", "leaf1", "spine0"})
        for (int p = 0; p <= 8; ++p) tx_drops += port_max(nd, sw, p, "tx_drops");
    EXPECT_EQ(uint64_t(tx_drops), dropped);
    EXPECT_EQ(column_max(nd, "rx_drops"), 0);

    const csv e = read_csv(dir + "/li-ecn-pfc-stats-0.csv");
    EXPECT_EQ(column_max(e, "pfcxoff_tx"), 0);
    EXPECT_EQ(column_max(e, "pfcxoff_rx"), 0);
}

// Host 8 (leaf1) sends 2 MiB to host 1 (leaf0), which nothing else sends to. Alone it runs at
// line rate; beside a 14:1 incast to host 0 (hosts 1-7 and 9-15) its packets cross leaf1's
// uplink and spine0's port to leaf0, both paused by the incast, and it finishes much later
// (about 325 us against 49 us alone).
TEST(lossless_incast, a_victim_flow_behind_a_paused_port_is_slowed_by_head_of_line_blocking)
{
    const std::string solo = scratch_dir("li_solo");
    auto r = run_uetsim(
        {"run", write_file(solo + "/s.yaml", scenario(flow(8, 1))), "--quiet", "--out", solo});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const csv fs = read_csv(solo + "/li-flow-perf-0.csv");
    ASSERT_EQ(fs.rows.size(), 1u);
    const double solo_fct = fs.num(0, "fct_usec");
    EXPECT_LT(solo_fct, 100);  // 2 MiB at 400 Gbps is 42 us

    std::string flows;
    for (int s = 1; s <= 15; ++s)
        if (s != 8) flows += flow(s, 0);
    flows += flow(8, 1);
    const std::string dir = scratch_dir("li_hol");
    r = run_uetsim({"run", write_file(dir + "/s.yaml", scenario(flows)), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = manifest(dir);
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["packets_dropped"].get<uint64_t>(), 0u);
    const csv f = read_csv(dir + "/li-flow-perf-0.csv");
    ASSERT_EQ(f.rows.size(), 15u);
    double victim_fct = 0;
    for (size_t i = 0; i < f.rows.size(); ++i)
        if (f.str(i, "src_host") == "8") {
            EXPECT_EQ(f.str(i, "dst_host"), "1");
            victim_fct = f.num(i, "fct_usec");
        }
    EXPECT_GT(victim_fct, 3 * solo_fct) << "solo " << solo_fct << " us";

    // The control: the same flow to host 9 on its own leaf, beside the same incast, shares no
    // paused port and is not slowed.
    std::string control = flows.substr(0, flows.size() - flow(8, 1).size()) + flow(8, 9);
    const std::string cdir = scratch_dir("li_hol_control");
    r = run_uetsim(
        {"run", write_file(cdir + "/s.yaml", scenario(control)), "--quiet", "--out", cdir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const csv fc = read_csv(cdir + "/li-flow-perf-0.csv");
    double control_fct = 0;
    for (size_t i = 0; i < fc.rows.size(); ++i)
        if (fc.str(i, "src_host") == "8") control_fct = fc.num(i, "fct_usec");
    EXPECT_GT(control_fct, 0);
    EXPECT_LT(control_fct, 1.5 * solo_fct);

    // The ports the victim crosses were paused: leaf1's uplink and spine0's port to leaf0.
    const csv e = read_csv(dir + "/li-ecn-pfc-stats-0.csv");
    EXPECT_GT(port_max(e, "leaf1", 8, "pfcxoff_rx"), 0);
    EXPECT_GT(port_max(e, "leaf1", 8, "pfc_time_paused_usec"), 0);
    EXPECT_GT(port_max(e, "spine0", 0, "pfcxoff_rx"), 0);
    EXPECT_GT(port_max(e, "spine0", 0, "pfc_time_paused_usec"), 0);
}

// The waveform of examples/lossless-hol-blocking.yaml (the head-of-line test's run, traced):
// spine0's port to leaf0 is paused first (19.2 us), then leaf1's uplink, the victim's upstream
// port (33.2 us). Through leaf1's first pause its queue grows (the eight senders of leaf1,
// the victim among them, keep arriving and nothing leaves: 2.15 MB to 2.56 MB), and the victim's
// NIC keeps its whole window in flight without an ACK: its packets are held behind the incast.
TEST(lossless_incast, the_hol_waveform_shows_the_victims_upstream_port_paused_while_its_queue_grows)
{
    const std::string dir = scratch_dir("li_hol_wave");
    const auto r = run_uetsim({"run", source_dir() + "/examples/lossless-hol-blocking.yaml",
                               "--quiet", "--out", dir, "--set", "Trace.File=hol.vcd"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const vcd v = parse_vcd(read_text(dir + "/hol.vcd"));
    const std::string up = "leaf1.port8_spine0", down = "spine0.port0_leaf0";
    auto first_pause = [&](const std::string& port) {
        std::pair<uint64_t, uint64_t> p{0, 0};
        for (const auto& c : v.of(port + ".tc0_paused")) {
            if (c.value == 1 && p.first == 0) p.first = c.t;
            if (c.value == 0 && p.first != 0) {
                p.second = c.t;
                break;
            }
        }
        return p;
    };
    const auto [t0, t1] = first_pause(up);
    ASSERT_GT(t0, 0u) << "leaf1's uplink is never paused";
    ASSERT_GT(t1, t0);
    const uint64_t down_t0 = first_pause(down).first;
    EXPECT_GT(down_t0, 0u);
    EXPECT_LT(down_t0, t0);  // the pause propagates upstream: spine0's port first

    const std::string queue = up + ".queue_bytes";
    const uint64_t q_start = v.at(queue, t0), q_end = v.at(queue, t1 - 1);
    EXPECT_GT(q_end, q_start + 100'000) << q_start << " -> " << q_end;
    // The victim's window stays full while its upstream port is paused: an ACK for one of its
    // packets that got past before the pause frees a packet's room and the NIC fills it at the
    // same instant, so at the end of every instant its bytes in flight are what they were.
    const std::string inflight = "host8.g0.inflight_bytes";
    const uint64_t held = v.at(inflight, t0);
    EXPECT_GT(held, 400'000u);  // its whole window (1.5 x BDP = 450,000 B at most)
    for (const auto& c : v.of(inflight))
        if (c.t > t0 && c.t < t1) {
            EXPECT_EQ(v.at(inflight, c.t), held) << "at " << c.t << " ps";
        }

    // And the run is the head-of-line test's: the victim finishes far later than alone.
    const csv f = read_csv(dir + "/hol-flow-perf-0.csv");
    for (size_t i = 0; i < f.rows.size(); ++i)
        if (f.str(i, "src_host") == "8") {
            EXPECT_GT(f.num(i, "fct_usec"), 200);
        }
}
