// Simulation.StallTimeout and `uetsim campaign`: a run whose work stops moving is stopped with a
// report naming the stuck message and its sender's connection; the watch adds no event and
// changes no record; a campaign of random faulted cases passes, finds a case that fails, and
// leaves a scenario file that fails the same way on its own.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

namespace uetsim::test {
namespace {

namespace fs = std::filesystem;

// Host 0 sends 1 MiB to host 1, whose link goes down for good at 20 us.
std::string cut_off_scenario(const std::string& nic)
{
    return "Simulation: {StopTime: 1s, StallTimeout: 1ms}\n"
           "Nic: {Type: " +
           nic +
           "}\n"
           "Topology: {Kind: single-switch, Hosts: 4, LinkRate: 100Gbps}\n"
           "Flows: [{Src: 0, Dst: 1, Bytes: 1MiB}]\n"
           "Faults: [{At: 20us, Link: host1-switch0, Action: down}]\n";
}

void expect_stalled(const std::string& nic, const std::string& connection)
{
    const std::string dir = scratch_dir("stall-" + nic);
    const std::string file = write_file(dir + "/cut.yaml", cut_off_scenario(nic));
    const command_result r = run_uetsim({"run", file, "--out", dir + "/out", "--quiet"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("the run stalled"), std::string::npos) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/out/uetsim-manifest.json"));
    EXPECT_EQ(m["status"], "stalled");
    const std::string report = m["stall"]["report"];
    EXPECT_NE(report.find("message 0 (host0 -> host1)"), std::string::npos) << report;
    EXPECT_NE(report.find(connection), std::string::npos) << report;
    // The watch looks between slices of Simulation.Quantum (10 us): the last progress is seen at
    // most a slice after the cut, and the run stops within a slice of 1 ms after that.
    const double since = m["stall"]["since_s"], end = m["sim_time_s"];
    EXPECT_GT(since, 0);
    EXPECT_LE(since, 30e-6);
    EXPECT_GE(end - since, 1e-3 - 1e-12);
    EXPECT_LE(end - since, 1e-3 + 10e-6 + 1e-12);
    EXPECT_FALSE(m["scoreboard"]["ok"]);
}

TEST(stall_timeout, a_uet_run_cut_off_for_good_stops_naming_the_pdc)
{
    expect_stalled("uet", "host0 PDC 1 -> host1");
}

TEST(stall_timeout, a_roce_run_cut_off_for_good_stops_naming_the_queue_pair)
{
    expect_stalled("roce", "host0 QP ");
}

TEST(stall_timeout, watching_changes_no_record_and_waiting_for_a_late_message_is_no_stall)
{
    const std::string dir = scratch_dir("stall-off");
    const std::string file = write_file(
        dir + "/late.yaml",
        "Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 2, LinkRate: 100Gbps}\n"
        "Flows: [{Src: 0, Dst: 5, Bytes: 256KiB}, {Src: 1, Dst: 5, Bytes: 256KiB},\n"
        "        {Src: 2, Dst: 6, Bytes: 64KiB, Start: 3ms}]\n");
    const command_result off = run_uetsim({"run", file, "--out", dir + "/off", "--quiet"});
    ASSERT_EQ(off.exit_code, 0) << off.err;
    const command_result on = run_uetsim(
        {"run", file, "--set", "Simulation.StallTimeout=1ms", "--out", dir + "/on", "--quiet"});
    ASSERT_EQ(on.exit_code, 0) << on.err;
    EXPECT_EQ(csv_files(dir + "/off"), csv_files(dir + "/on"));
    const auto m = nlohmann::json::parse(read_text(dir + "/on/uetsim-manifest.json"));
    EXPECT_EQ(m["status"], "complete");
    EXPECT_GT(m["sim_time_s"].get<double>(), 3e-3);  // idle for 2.9 ms with nothing outstanding
    EXPECT_EQ(
        m["events_executed"],
        nlohmann::json::parse(read_text(dir + "/off/uetsim-manifest.json"))["events_executed"]);
}

// Four small cases on four hosts, each with one or two faults that end.
std::string small_campaign(const std::string& extra_base, const std::string& faults)
{
    return "Cases: 4\nSeed: 2\nStallTimeout: 2ms\nCaseTimeout: 120s\n"
           "Base:\n  Simulation: {StopTime: 200ms}\n"
           "  Topology: {Kind: single-switch, Hosts: 4, LinkRate: 100Gbps}\n" +
           extra_base +
           "Draw:\n  Nic.Type: [uet, roce]\n"
           "Workload: {Patterns: [permutation, incast], Messages: [2, 3], Bytes: [1KiB, 64KiB]}\n" +
           faults;
}

TEST(campaign, small_faulted_cases_pass_and_leave_only_the_table)
{
    const std::string dir = scratch_dir("campaign-pass");
    const std::string file =
        write_file(dir + "/c.yaml",
                   small_campaign("",
                                  "Faults: {Count: [1, 2], Kinds: [flap, loss], At: [5us, 20us], "
                                  "Duration: [5us, 20us], Loss: [0.01, 0.05]}\n"));
    const command_result r = run_uetsim({"campaign", file, "--out", dir + "/out", "--jobs", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("pass 4, refused 0, scoreboard 0, stalled 0, hang 0, crash 0: no failure"),
              std::string::npos)
        << r.out;
    const csv t = read_csv(dir + "/out/campaign.csv");
    ASSERT_EQ(t.rows.size(), 4u);
    std::set<std::string> nics;
    for (size_t i = 0; i < t.rows.size(); ++i) {
        EXPECT_EQ(t.str(i, "case"), std::to_string(i));
        EXPECT_EQ(t.str(i, "outcome"), "pass");
        EXPECT_FALSE(t.str(i, "faults").empty());
        EXPECT_GT(t.num(i, "sim_time_s"), 0);
        nics.insert(t.str(i, "nic"));
    }
    EXPECT_EQ(nics.size(), 2u) << "both NIC types drawn";
    for (const auto& e : fs::directory_iterator(dir + "/out"))
        EXPECT_FALSE(e.is_directory()) << "a passing case's folder is left: " << e.path();
}

TEST(campaign, a_failing_case_is_reported_and_its_file_fails_the_same_way)
{
    const std::string dir = scratch_dir("campaign-fail");
    // Host 1 is cut off for good, so every case's permutation or incast to it stalls.
    const std::string file = write_file(
        dir + "/c.yaml",
        small_campaign("  Faults: [{At: 1us, Link: host1-switch0, Action: down}]\n", ""));
    const command_result r =
        run_uetsim({"campaign", file, "--out", dir + "/out", "--jobs", "2", "--cases", "2"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("2 FAILED"), std::string::npos) << r.out;
    const csv t = read_csv(dir + "/out/campaign.csv");
    ASSERT_EQ(t.rows.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(t.str(i, "outcome"), "stalled") << t.str(i, "detail");
        const std::string scenario = t.str(i, "scenario");
        ASSERT_TRUE(fs::exists(scenario)) << scenario;
        const command_result again =
            run_uetsim({"run", scenario, "--out", dir + "/again" + std::to_string(i), "--quiet"});
        EXPECT_EQ(again.exit_code, 1) << again.err;
        EXPECT_EQ(nlohmann::json::parse(read_text(dir + "/again" + std::to_string(i) +
                                                  "/uetsim-manifest.json"))["status"],
                  "stalled");
    }
}

// CI's share of the campaign (docs/campaign.md): the example file's 50 cases.
TEST(campaign, fifty_random_cases_of_the_example_campaign)
{
    const std::string dir = scratch_dir("campaign-50");
    const command_result r =
        run_uetsim({"campaign", source_dir() + "/examples/campaign/faults.yaml", "--out",
                    dir + "/out", "--jobs", "2", "--cases", "50"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("scoreboard 0, stalled 0, hang 0, crash 0: no failure"), std::string::npos)
        << r.out;
    EXPECT_EQ(read_csv(dir + "/out/campaign.csv").rows.size(), 50u);
}

// The link-layer campaign (examples/campaign/link-layer.yaml): LLR and CBFC on every link or
// none, with the same faults. Its first 200 cases hold 4 in which a CBFC sender lost credit to
// frames or updates lost on a link and, without the credit sync, stalled for good.
TEST(campaign, two_hundred_random_cases_of_the_link_layer_campaign)
{
    const std::string dir = scratch_dir("campaign-ll");
    const command_result r =
        run_uetsim({"campaign", source_dir() + "/examples/campaign/link-layer.yaml", "--out",
                    dir + "/out", "--jobs", "2", "--cases", "200"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("pass 200, refused 0, scoreboard 0, stalled 0, hang 0, crash 0"),
              std::string::npos)
        << r.out;
}

TEST(campaign, a_bad_campaign_file_is_exit_2_naming_the_key)
{
    const std::string dir = scratch_dir("campaign-bad");
    const std::string file = write_file(dir + "/c.yaml", "Faults: {Count: 1, Kinds: [flop]}\n");
    const command_result r = run_uetsim({"campaign", file, "--out", dir + "/out"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("Faults.Kinds: 'flop' is not one of flap, degrade, loss, storm, ber"),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace uetsim::test
