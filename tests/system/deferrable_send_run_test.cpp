// Deferrable sends in whole runs (docs/deferrable-sends.md), an incast of 4 x 256 KiB to host 0
// on one switch at 400 Gbps, UET NICs:
// - receives posted at 20 us, after every first transfer arrived: every message is deferred and
//   completes after 20 us plus the resume (the RTR across the switch and the data back: at
//   least 2 x (2 x 100 ns + 500 ns) = 1.4 us), with a clean scoreboard (every byte once);
// - the same with 1% of the frames on the receiver's link lost (data, ACKs, RTRs alike): the
//   scoreboard stays clean;
// - receives posted at 0 (before anything arrives): the sends go eagerly and complete when the
//   same incast of ordinary sends does;
// - RecvPostedAt on a RoCE host exits 2 naming the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

std::string incast(const std::string& posted, const std::string& extra = "")
{
    std::string y =
        "Simulation: {Name: dfr, StopTime: 20ms}\n"
        "Topology: {Kind: single-switch, Hosts: 5, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "Records: {Enabled: [flow-perf]}\n" +
        extra + "Flows:\n";
    for (int s = 1; s <= 4; ++s)
        y += "  - {Src: " + std::to_string(s) + ", Dst: 0, Bytes: 256KiB" +
             (posted.empty() ? "" : ", RecvPostedAt: " + posted) + "}\n";
    return y;
}

std::vector<double> fcts_us(const std::string& tag, const std::string& yaml)
{
    const std::string dir = scratch_dir(tag);
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", yaml), "--quiet", "--out", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/dfr-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    const csv f = read_csv(dir + "/dfr-flow-perf-0.csv");
    std::vector<double> out;
    for (size_t i = 0; i < f.rows.size(); ++i) out.push_back(f.num(i, "fct_usec"));
    return out;
}

}  // namespace

TEST(deferrable_send_run, an_incast_posted_late_completes_after_the_post_and_the_resume)
{
    const std::vector<double> late = fcts_us("dfr_late", incast("20us"));
    ASSERT_EQ(late.size(), 4u);
    for (double f : late) EXPECT_GE(f, 20.0 + 1.4);
}

TEST(deferrable_send_run, loss_on_the_receivers_link_keeps_the_scoreboard_clean)
{
    const std::vector<double> late =
        fcts_us("dfr_loss", incast("20us",
                                   "Faults:\n  - {At: 0s, Link: host0-switch0, Action: loss, "
                                   "Loss: 0.01}\n"));
    ASSERT_EQ(late.size(), 4u);
    for (double f : late) EXPECT_GE(f, 20.0 + 1.4);
}

TEST(deferrable_send_run, receives_posted_in_time_make_the_sends_eager)
{
    const std::vector<double> eager = fcts_us("dfr_eager", incast("0s"));
    const std::vector<double> ordinary = fcts_us("dfr_plain", incast(""));
    ASSERT_EQ(eager.size(), 4u);
    ASSERT_EQ(ordinary.size(), 4u);
    for (size_t i = 0; i < eager.size(); ++i) EXPECT_DOUBLE_EQ(eager[i], ordinary[i]);
}

TEST(deferrable_send_run, recv_posted_at_on_a_roce_host_exits_2_naming_the_key)
{
    const std::string dir = scratch_dir("dfr_roce");
    const auto r = run_uetsim(
        {"validate", write_file(dir + "/s.yaml",
                                "Topology: {Kind: single-switch, Hosts: 2}\nNic: {Type: roce}\n"
                                "Flows:\n  - {Src: 1, Dst: 0, Bytes: 1KiB, RecvPostedAt: 5us}\n")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("Flows[0].RecvPostedAt"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("roce"), std::string::npos) << r.err;
}
