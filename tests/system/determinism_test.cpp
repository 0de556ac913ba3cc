// Same scenario and seed: byte-identical records (the manifest's wall-clock members aside).
// A different seed: different ECMP placements.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json manifest_without_wall_time(const std::string& path)
{
    auto j = nlohmann::json::parse(read_text(path));
    j.erase("wall_time_s");
    j.erase("elaboration_wall_time_s");
    j.erase("peak_rss_bytes");
    return j;
}

}  // namespace

TEST(determinism, default_scenario_twice_gives_identical_records)
{
    const std::string a = scratch_dir("det-a"), b = scratch_dir("det-b");
    auto ra = run_uetsim({"run", "--quiet", "--out", a});
    auto rb = run_uetsim({"run", "--quiet", "--out", b});
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    EXPECT_NE(ra.out.find("scoreboard            ok"), std::string::npos) << ra.out;
    int csvs = 0;
    for (auto& e : fs::directory_iterator(a)) {
        const std::string name = e.path().filename().string();
        ASSERT_TRUE(fs::exists(b + "/" + name)) << name;
        if (e.path().extension() == ".csv") {
            ++csvs;
            EXPECT_EQ(read_text(a + "/" + name), read_text(b + "/" + name)) << name;
        } else if (name.find("manifest") != std::string::npos) {
            EXPECT_EQ(manifest_without_wall_time(a + "/" + name),
                      manifest_without_wall_time(b + "/" + name));
        }
    }
    EXPECT_GE(csvs, 3);
}

// The progress line watches the run between its slices of simulated time. As a process with
// timed wake-ups of its own it moved the kernel's order of same-time notifications, and a run on
// a terminal gave other records than the same run with --quiet (1 ms of the default scenario:
// three CSVs differed).
TEST(determinism, the_progress_line_changes_no_record)
{
    const std::string a = scratch_dir("prog-a"), b = scratch_dir("prog-b");
    const std::vector<std::string> common = {"--set", "Simulation.RunTime=1ms"};
    auto args = [&](const std::string& out, const char* flag) {
        std::vector<std::string> v = {"run", flag, "--out", out};
        v.insert(v.end(), common.begin(), common.end());
        return v;
    };
    auto ra = run_uetsim(args(a, "--quiet"));
    auto rb = run_uetsim(args(b, "--progress"));
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    EXPECT_EQ(ra.err.find("eta"), std::string::npos) << ra.err;
    EXPECT_NE(rb.err.find("eta"), std::string::npos) << "no progress line: " << rb.err;
    int csvs = 0;
    for (auto& e : fs::directory_iterator(a)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".csv") continue;
        ++csvs;
        EXPECT_EQ(read_text(a + "/" + name), read_text(b + "/" + name)) << name;
    }
    EXPECT_GE(csvs, 3);
}

// Waveforms have wake-ups of their own (a link's busy falling at the end of a frame, a PCIe
// link's end of transfer). With the kernel ordering same-time events, they moved the model's
// order and a traced run differed from the untraced one (1 ms of the default scenario: three
// CSVs). The model scheduler orders same-time wake-ups by when they were scheduled, with the
// samplers last, so an observer cannot move the model.
TEST(determinism, waveforms_change_no_record)
{
    // "uet+llr": Link Level Retry on every link with bit errors, whose traced links wake their
    // senders at every control ordered set (a NACK lost its wake-up untraced before #35).
    for (const std::string run : {"uet", "roce", "uet+llr"}) {
        const std::string nic = run.substr(0, run.find('+'));
        const std::string a = scratch_dir("wave-a"), b = scratch_dir("wave-b");
        std::vector<std::string> common = {
            "run", "--quiet", "--set", "Simulation.RunTime=1ms", "--set", "Nic.Type=" + nic};
        if (run == "uet+llr")
            common.insert(common.end(),
                          {"--set", "Link.Llr=true", "--set", "Link.BitErrorRate=1e-5"});
        auto args = [&](const std::string& out, bool traced) {
            std::vector<std::string> v = common;
            v.insert(v.end(), {"--out", out, "--set",
                               std::string("Trace.Enabled=") + (traced ? "true" : "false")});
            return v;
        };
        auto ra = run_uetsim(args(a, false));
        auto rb = run_uetsim(args(b, true));
        ASSERT_EQ(ra.exit_code, 0) << ra.err;
        ASSERT_EQ(rb.exit_code, 0) << rb.err;
        EXPECT_FALSE(fs::exists(a + "/uetsim.fst")) << run;
        EXPECT_TRUE(fs::exists(b + "/uetsim.fst")) << run << ": no waveform written";
        int csvs = 0;
        for (auto& e : fs::directory_iterator(a)) {
            const std::string name = e.path().filename().string();
            if (e.path().extension() != ".csv") continue;
            ++csvs;
            EXPECT_EQ(read_text(a + "/" + name), read_text(b + "/" + name)) << run << " " << name;
        }
        EXPECT_GE(csvs, 3) << run;
    }
}

// Within a slice of simulated time (the global quantum) the decoupled model scheduler goes from
// one due time to the next without returning to the kernel; Simulation.TimeBase: kernel makes
// every due time a kernel event. Only running ahead lets a switch port hold back the end of a
// frame nothing waits to follow (deferred_frame_ends.h), so the kernel time base is the
// reference for that too: every record must be the same, and only the count of wake-ups
// executed lower. (tests/system/time_base_test.cpp runs every example in both.)
TEST(determinism, running_ahead_of_the_kernel_changes_no_record)
{
    // The default scenario with either NIC, and the head-of-line example untraced: its
    // switches pause and resume (PFC), so frame ends are held back, queued again at an Xoff
    // and settled by the PFC timers.
    const std::string hol = source_dir() + "/examples/lossless-hol-blocking.yaml";
    for (const std::string run : {"uet", "roce", "hol"}) {
        const std::string a = scratch_dir("ahead-a"), b = scratch_dir("ahead-b");
        auto args = [&](const std::string& out) {
            if (run == "hol")
                return std::vector<std::string>{
                    "run", hol, "--quiet", "--out", out, "--set", "Trace.Enabled=false"};
            return std::vector<std::string>{"run",   "--quiet",        "--out",
                                            out,     "--set",          "Simulation.RunTime=1ms",
                                            "--set", "Nic.Type=" + run};
        };
        auto ra = run_uetsim(args(a));
        auto kernel = args(b);
        kernel.insert(kernel.end(), {"--set", "Simulation.TimeBase=kernel"});
        auto rb = run_uetsim(kernel);
        ASSERT_EQ(ra.exit_code, 0) << ra.err;
        ASSERT_EQ(rb.exit_code, 0) << rb.err;
        int csvs = 0;
        for (auto& e : fs::directory_iterator(a)) {
            const std::string name = e.path().filename().string();
            if (e.path().extension() == ".csv") {
                ++csvs;
                EXPECT_EQ(read_text(a + "/" + name), read_text(b + "/" + name))
                    << run << " " << name;
            } else if (name.find("manifest") != std::string::npos) {
                auto ja = manifest_without_wall_time(a + "/" + name);
                auto jb = manifest_without_wall_time(b + "/" + name);
                const uint64_t ea = ja.at("events_executed"), eb = jb.at("events_executed");
                EXPECT_LT(ea, eb * 95 / 100) << run << ": frame ends held back";
                ja.erase("events_executed");
                jb.erase("events_executed");
                EXPECT_EQ(jb["scenario"]["Simulation"]["TimeBase"], "kernel");
                jb["scenario"]["Simulation"]["TimeBase"] = "decoupled";
                EXPECT_EQ(ja, jb) << run;  // sim_time_s and the scoreboard included
            }
        }
        EXPECT_GE(csvs, 3) << run;
    }
}

TEST(determinism, another_seed_changes_the_placement)
{
    const std::string a = scratch_dir("seed-a"), b = scratch_dir("seed-b");
    ASSERT_EQ(run_uetsim({"run", "--quiet", "--out", a, "--set", "Simulation.RandomSeed=1", "--set",
                          "Simulation.RunTime=2ms"})
                  .exit_code,
              0);
    ASSERT_EQ(run_uetsim({"run", "--quiet", "--out", b, "--set", "Simulation.RandomSeed=2", "--set",
                          "Simulation.RunTime=2ms"})
                  .exit_code,
              0);
    const std::string f = "/uetsim-scala-switch-load-balancing-stats-0.csv";
    EXPECT_NE(read_text(a + f), read_text(b + f));
}
