// An 8:1 incast over RoCE with every RoCE NIC attribute at its default (PFC on TC0 and TC1,
// ECT(0) data, DCQCN): hosts 1..8 each WRITE 2 MiB to host0 on one 400 Gbps switch. The fabric
// loses nothing (nd-stats rx_drops and tx_drops 0, the manifest's packets_dropped 0), the switch
// pauses the senders (ecn-pfc-stats), the switch marks and the receiver returns CNPs that every
// sender counts (roce-transport-stats), the senders' rates fall far below line rate (nd-stats
// tx_rate_Gbps) and the Responder's link stays at least 90% busy over the incast's steady part
// (nd-stats of the switch port toward host0).
//
// The switch's ECN band: at its defaults RED marks from 20% of the pool's static egress limit,
// 45.7 MB on this switch, far above where PFC pauses a sender (700,000 B per ingress port), so
// nothing is ever marked and DCQCN never acts (the second test shows it: PFC alone holds the
// incast). A RoCE fabric sets the band low for DCQCN, as deployments do: MinThreshold 0.0005 and
// MaxThreshold 0.01 of the 228,326,400-byte limit, 114 KB to 2.28 MB. With DCQCN acting, the
// senders spend less than half as long paused as with PFC alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

constexpr int senders = 8;
constexpr double line_gbps = 400;
constexpr double interval_s = 10e-6;  // nd-stats rows every 10 us

// `dcqcn_band`: the switch's ECN band set for DCQCN (else the switch's defaults).
std::string scenario(bool dcqcn_band)
{
    std::string y = R"(Simulation: {Name: ri, StopTime: 50ms, NDStatsReportInterval: 10us}
Topology: {Kind: single-switch, Hosts: 9, LinkRate: 400Gbps}
Nic: {Type: roce}
Records: {Enabled: [nd-stats, flow-perf, roce-transport-stats, ecn-pfc-stats]}
)";
    if (dcqcn_band) y += "Switch: {MinThreshold: 0.0005, MaxThreshold: 0.01}\n";
    y += "Flows:\n";
    for (int s = 1; s <= senders; ++s)
        y += "  - {Src: " + std::to_string(s) + ", Dst: 0, Bytes: 2MiB}\n";
    return y;
}

double last_of(const csv& c, const std::string& component, const std::string& column)
{
    double v = -1;
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (c.str(i, "component_name") == component) v = c.num(i, column);
    return v;
}

// ecn-pfc-stats counters are cumulative: the largest value of a port's class is its total (0
// when the class has no row, that is, never counted anything).
double class_total(const csv& c, const std::string& component, int priority,
                   const std::string& column)
{
    double v = 0;
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (c.str(i, "component_name") == component && c.num(i, "priority") == priority)
            v = std::max(v, c.num(i, column));
    return v;
}

// The time the senders' NICs held their data class (TC0) because the switch paused it, in all.
double senders_paused_us(const csv& e)
{
    double us = 0;
    for (int s = 1; s <= senders; ++s)
        us += class_total(e, "host" + std::to_string(s), 0, "pfc_time_paused_usec");
    return us;
}

command_result run_incast(const std::string& dir, bool dcqcn_band)
{
    return run_uetsim(
        {"run", write_file(dir + "/s.yaml", scenario(dcqcn_band)), "--quiet", "--out", dir});
}

}  // namespace

TEST(roce_pfc_incast, eight_to_one_at_the_nic_defaults_loses_nothing_pauses_and_keeps_the_link_busy)
{
    const std::string dir = scratch_dir("roce-incast");
    const command_result r = run_incast(dir, true);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/ri-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["packets_dropped"].get<uint64_t>(), 0u);

    // Every message completes; the steady part of the incast runs from when every sender has
    // had 20 us to start until the first message completes (all eight share the link).
    const csv fp = read_csv(dir + "/ri-flow-perf-0.csv");
    ASSERT_EQ(fp.rows.size(), size_t(senders));
    double first_done = 1e9, last_done = 0;
    for (size_t i = 0; i < fp.rows.size(); ++i) {
        first_done = std::min(first_done, fp.num(i, "finish_time_sec"));
        last_done = std::max(last_done, fp.num(i, "finish_time_sec"));
    }
    const double from = 20e-6, to = first_done;
    ASSERT_GT(to - from, 10 * interval_s) << "a steady part of at least 10 rows";

    // nd-stats: no drops anywhere; the switch port toward host0 (port 0) busy; the senders'
    // ports well below line rate.
    const csv nd = read_csv(dir + "/ri-nd-stats-0.csv");
    double busy_bytes = 0, busy_time = 0;
    std::vector<double> sender_bytes(senders + 1, 0);
    for (size_t i = 0; i < nd.rows.size(); ++i) {
        EXPECT_EQ(nd.num(i, "rx_drops"), 0) << nd.str(i, "component_name");
        EXPECT_EQ(nd.num(i, "tx_drops"), 0) << nd.str(i, "component_name");
        const double t = nd.num(i, "sim_time_sec");
        if (t - interval_s < from - 1e-12 || t > to + 1e-12) continue;  // rows inside [from, to]
        const std::string c = nd.str(i, "component_name");
        if (c == "switch0" && nd.num(i, "ifid") == 0) {
            busy_bytes += nd.num(i, "interval_bytes_tx_MB") * 1e6;
            busy_time += interval_s;
        }
        if (c.rfind("host", 0) == 0 && c != "host0")
            sender_bytes[size_t(std::stoi(c.substr(4)))] += nd.num(i, "interval_bytes_tx_MB") * 1e6;
    }
    ASSERT_GT(busy_time, 0);
    const double busy = busy_bytes * 8 / busy_time / (line_gbps * 1e9);
    EXPECT_GE(busy, 0.90) << "Responder's link utilization over the steady part";
    RecordProperty("responder_link_busy", std::to_string(busy));
    for (int s = 1; s <= senders; ++s) {
        const double gbps = sender_bytes[size_t(s)] * 8 / busy_time / 1e9;
        // Eight senders share 400 Gbps: about 50 Gbps each, far below the 400 Gbps line rate.
        EXPECT_LT(gbps, 0.3 * line_gbps) << "host" << s;
        EXPECT_GT(gbps, 0.02 * line_gbps) << "host" << s << " starved";
    }

    // PFC: the switch paused the senders and resumed them; the NICs held their data class.
    const csv e = read_csv(dir + "/ri-ecn-pfc-stats-0.csv");
    double xoff_tx = 0, xoff_rx = 0, paused_us = 0, marked = 0;
    for (int s = 1; s <= senders; ++s) {
        const std::string h = "host" + std::to_string(s);
        xoff_rx += class_total(e, h, 0, "pfcxoff_rx");  // the data class, TC0
        paused_us += class_total(e, h, 0, "pfc_time_paused_usec");
    }
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.str(i, "component_name") == "switch0") {
            xoff_tx = std::max(xoff_tx, e.num(i, "pfcxoff_tx"));
            marked = std::max(marked, e.num(i, "pkts_ecn_marked"));
        }
    EXPECT_GT(xoff_tx, 0) << "the switch sent pause frames";
    EXPECT_GT(xoff_rx, 0) << "the senders' NICs received them";
    EXPECT_GT(paused_us, 0);
    EXPECT_GT(marked, 0) << "the switch marked CE toward host0";

    // DCQCN: host0 answered CE-marked packets with CNPs and every sender got some.
    const csv t = read_csv(dir + "/ri-roce-transport-stats-0.csv");
    EXPECT_GT(last_of(t, "host0", "num_cnp_sent"), 0);
    double cnp_recvd = 0;
    for (int s = 1; s <= senders; ++s) {
        const double c = last_of(t, "host" + std::to_string(s), "num_cnp_recvd");
        EXPECT_GT(c, 0) << "host" << s;
        cnp_recvd += c;
    }
    EXPECT_LE(cnp_recvd, last_of(t, "host0", "num_cnp_sent"));
    RecordProperty("pauses_sent", std::to_string(xoff_tx));
    RecordProperty("cnps", std::to_string(cnp_recvd));
}

TEST(roce_pfc_incast, dcqcn_halves_the_pause_time_against_pfc_alone)
{
    // The same incast at the switch's default ECN band: nothing is marked, no CNP is sent, and
    // PFC alone keeps it lossless, pausing the senders more than twice as long.
    const std::string with = scratch_dir("roce-incast-dcqcn"),
                      alone = scratch_dir("roce-incast-pfc");
    ASSERT_EQ(run_incast(with, true).exit_code, 0);
    const command_result r = run_incast(alone, false);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(alone + "/ri-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["packets_dropped"].get<uint64_t>(), 0u);
    EXPECT_EQ(read_csv(alone + "/ri-flow-perf-0.csv").rows.size(), size_t(senders));
    const csv t = read_csv(alone + "/ri-roce-transport-stats-0.csv");
    EXPECT_EQ(last_of(t, "host0", "num_cnp_sent"), 0);
    const csv e_alone = read_csv(alone + "/ri-ecn-pfc-stats-0.csv");
    EXPECT_EQ(class_total(e_alone, "switch0", 0, "pkts_ecn_marked"), 0);
    const double paused_alone = senders_paused_us(e_alone);
    const double paused_with = senders_paused_us(read_csv(with + "/ri-ecn-pfc-stats-0.csv"));
    EXPECT_GT(paused_with, 0);
    EXPECT_LT(paused_with, 0.5 * paused_alone)
        << "with DCQCN " << paused_with << " us, PFC alone " << paused_alone << " us";
    RecordProperty("paused_usec_dcqcn", std::to_string(paused_with));
    RecordProperty("paused_usec_pfc_alone", std::to_string(paused_alone));
}
