// RCCC (UetNic.RcccEnabled) in whole runs on one switch at 400 Gbps:
// - the incast: 8 senders of 2 MiB to host 0. With RCCC each sender starts with one
//   pull's credit (16,384 B) and the receiver's pull pacer then grants credit at its downlink's
//   rate, so the switch's egress queue toward host 0 holds about the 8 x 16 KiB of speculative
//   credit and stays below one BDP (400 Gbps x InitialBaseRTT 6 us / 8 = 300,000 B). NSCC alone
//   starts every sender at its max window (1.5 BDP) and the queue overshoots one BDP;
// - loss on the receiver's link (data, ACKs, CREDIT and CREDIT_REQ alike): every message still
//   completes once, whole (the scoreboard);
// - an RCCC key out of range stops the run before it starts, exit 2, naming the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

constexpr double bdp_bytes = 400e9 * 6e-6 / 8;  // 300,000

std::string incast(bool rccc)
{
    std::string y =
        "Simulation: {Name: rc, StopTime: 20ms}\n"
        "Topology: {Kind: single-switch, Hosts: 9, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "Switch: {ReportPerPortBufferStats: true, BufferStatsReportInterval: 10us}\n"
        "Records: {Enabled: [flow-perf]}\n";
    if (rccc) y += "UetNic: {RcccEnabled: true}\n";
    y += "Flows:\n";
    for (int s = 1; s <= 8; ++s) y += "  - {Src: " + std::to_string(s) + ", Dst: 0, Bytes: 2MiB}\n";
    return y;
}

struct incast_result
{
    double queue_max = 0;  // bytes, the switch's egress queue toward host 0
    double last_fct_us = 0;
};

incast_result run_incast(bool rccc)
{
    const std::string dir = scratch_dir(rccc ? "rccc_incast" : "nscc_incast");
    const auto r =
        run_uetsim({"run", write_file(dir + "/s.yaml", incast(rccc)), "--quiet", "--out", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/rc-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    incast_result out;
    const csv b = read_csv(dir + "/rc-scala-switch-buff-stats-0.csv");
    for (size_t i = 0; i < b.rows.size(); ++i)
        if (b.str(i, "buff_id") == "egressQueue" && b.num(i, "ifid") == 0)
            out.queue_max = std::max(out.queue_max, b.num(i, "ivl_max_bytes"));
    const csv f = read_csv(dir + "/rc-flow-perf-0.csv");
    EXPECT_EQ(f.rows.size(), 8u);
    for (size_t i = 0; i < f.rows.size(); ++i)
        out.last_fct_us = std::max(out.last_fct_us, f.num(i, "fct_usec"));
    return out;
}

}  // namespace

TEST(rccc, an_8_to_1_incast_keeps_the_receivers_queue_under_one_bdp_where_nscc_alone_overshoots)
{
    const incast_result nscc = run_incast(false);
    const incast_result rccc = run_incast(true);
    EXPECT_GT(nscc.queue_max, bdp_bytes);
    EXPECT_LT(rccc.queue_max, bdp_bytes);
    // The speculative credit sends 4 full packets per sender (16,384 B > 3 x 4,202 B); the 32
    // arrive together over 4 packet times, in which the port drains at most 4: at least 28
    // packets of 4,184 B (the switch charges the IP datagram) are queued at once.
    EXPECT_GE(rccc.queue_max, 28 * 4184.0);
    // 16 MiB through one 400 Gbps port takes 16 x 1,048,576 x 4,184 / 4,096 x 8 / 400 Gbps
    // = 342.7 us at least; credit paced at the link rate loses little of it.
    EXPECT_GT(rccc.last_fct_us, 342.7);
    EXPECT_LT(rccc.last_fct_us, 342.7 * 1.1);
    std::cout << "queue max: NSCC " << nscc.queue_max << " B, RCCC " << rccc.queue_max
              << " B; last FCT: NSCC " << nscc.last_fct_us << " us, RCCC " << rccc.last_fct_us
              << " us\n";
}

TEST(rccc, every_message_completes_once_through_loss_on_the_receivers_link)
{
    const std::string dir = scratch_dir("rccc_loss");
    std::string y =
        "Simulation: {Name: rl, StopTime: 50ms, RandomSeed: 3}\n"
        "Topology: {Kind: single-switch, Hosts: 5, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "UetNic: {RcccEnabled: true, RcccInitialCredit: 0, InitialRetransmitTimeout: 20us}\n"
        "Records: {Enabled: [flow-perf, uet-transport-stats]}\n"
        "Faults:\n"
        "  - {At: 0s, Link: host0-switch0, Action: loss, Loss: 0.02}\n"
        "Flows:\n";
    for (int s = 1; s <= 4; ++s)
        for (int k = 0; k < 3; ++k)
            y += "  - {Src: " + std::to_string(s) + ", Dst: 0, Bytes: 300000}\n";
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/rl-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(read_csv(dir + "/rl-flow-perf-0.csv").rows.size(), 12u);
    // Frames were lost and resent.
    const csv t = read_csv(dir + "/rl-uet-transport-stats-0.csv");
    double rtx = 0;
    for (size_t i = 0; i < t.rows.size(); ++i) rtx = std::max(rtx, t.num(i, "num_rtx"));
    EXPECT_GT(rtx, 0);
}

TEST(rccc, an_rccc_key_out_of_range_exits_2_naming_it)
{
    const std::string dir = scratch_dir("rccc_bad");
    for (const std::string& bad :
         {std::string("RcccPullQuantum: 32"), std::string("RcccCreditsPerPull: 0"),
          std::string("RcccPullRate: -1Gbps")}) {
        const std::string y = "Simulation: {Name: rb}\nNic: {Type: uet}\nUetNic: {" + bad + "}\n";
        const auto r =
            run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir + "/out"});
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("UetNic." + bad.substr(0, bad.find(':'))), std::string::npos) << r.err;
    }
}
