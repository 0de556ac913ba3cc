// `uetsim run` stopped by SIGINT (Ctrl-C) or SIGTERM (a batch system's time limit): it stops
// within a slice of simulated time, flushes complete CSV records, writes its manifest with
// status "interrupted" and the simulated time reached, and exits 130 / 143.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

namespace uetsim::test {
namespace {

namespace fs = std::filesystem;

// Every line of every CSV has the header's number of cells, and the file ends with a newline.
void expect_complete_csvs(const std::string& dir)
{
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() != ".csv") continue;
        ++files;
        const std::string text = read_text(e.path().string());
        ASSERT_FALSE(text.empty()) << e.path();
        EXPECT_EQ(text.back(), '\n') << e.path();
        std::istringstream in(text);
        std::string line;
        std::getline(in, line);
        const auto cells = std::count(line.begin(), line.end(), ',');
        int n = 1;
        while (std::getline(in, line)) {
            ++n;
            EXPECT_EQ(std::count(line.begin(), line.end(), ','), cells)
                << e.path() << " line " << n;
        }
    }
    EXPECT_GE(files, 5);
}

void interrupt_a_long_run(int sig, int expected_exit)
{
    const std::string dir = scratch_dir("run-signal");
    // The default scenario for a simulated second: minutes of wall time if not stopped.
    const int pid =
        start_uetsim({"run", "--set", "Simulation.RunTime=1s", "--out", dir + "/out", "--quiet"},
                     dir + "/stdout", dir + "/stderr");
    // Past its start (the first records are written each simulated millisecond).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(dir + "/out/uetsim-nd-stats-0.csv") &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const auto sent = std::chrono::steady_clock::now();
    kill(pid, sig);
    EXPECT_EQ(wait_uetsim(pid), expected_exit) << read_text(dir + "/stderr");
    EXPECT_LT(std::chrono::steady_clock::now() - sent, std::chrono::seconds(10));
    EXPECT_NE(read_text(dir + "/stderr")
                  .find(sig == SIGINT ? "interrupted by SIGINT" : "interrupted by SIGTERM"),
              std::string::npos)
        << read_text(dir + "/stderr");

    const auto m = nlohmann::json::parse(read_text(dir + "/out/uetsim-manifest.json"));
    EXPECT_EQ(m["status"], "interrupted");
    const double reached = m["sim_time_s"];
    EXPECT_GT(reached, 0.001);
    EXPECT_LT(reached, m["scenario"]["Simulation"]["StopTime"].get<double>());
    expect_complete_csvs(dir + "/out");
    // The periodic records stop at the time reached.
    csv nd = read_csv(dir + "/out/uetsim-nd-stats-0.csv");
    ASSERT_FALSE(nd.rows.empty());
    EXPECT_DOUBLE_EQ(nd.num(nd.rows.size() - 1, "sim_time_sec"), reached);
}

TEST(run_signal, sigint_exits_130_with_an_interrupted_manifest)
{
    interrupt_a_long_run(SIGINT, 130);
}

TEST(run_signal, sigterm_exits_143_with_an_interrupted_manifest)
{
    interrupt_a_long_run(SIGTERM, 143);
}

TEST(run_signal, a_complete_run_says_so)
{
    const std::string dir = scratch_dir("run-complete");
    command_result r =
        run_uetsim({"run", "--set", "Simulation.RunTime=0.1ms", "--set", "Topology.Hosts=4",
                    "--set", "Topology.HostsPerLeaf=2", "--out", dir, "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(read_text(dir + "/uetsim-manifest.json"))["status"],
              "complete");
}

// SIGKILL gives the run no chance to write anything: the manifest it wrote when it started still
// says "running", so nothing vouches for the partial records beside it (a sweep reruns it).
TEST(run_signal, sigkill_leaves_a_manifest_that_says_running)
{
    const std::string dir = scratch_dir("run-kill");
    const int pid =
        start_uetsim({"run", "--set", "Simulation.RunTime=1s", "--out", dir + "/out", "--quiet"},
                     dir + "/stdout", dir + "/stderr");
    const std::string manifest = dir + "/out/uetsim-manifest.json";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(dir + "/out/uetsim-nd-stats-0.csv") &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    kill(pid, SIGKILL);
    EXPECT_EQ(wait_uetsim(pid), 128 + SIGKILL);
    const auto m = nlohmann::json::parse(read_text(manifest));
    EXPECT_EQ(m["status"], "running");
    EXPECT_EQ(m["sim_time_s"], 0);
    EXPECT_EQ(m["scenario"]["Simulation"]["RunTime"], 1);
    EXPECT_FALSE(fs::exists(manifest + ".tmp"));
    EXPECT_GT(fs::file_size(dir + "/out/uetsim-nd-stats-0.csv"), 0u);
}

// A record the file system refuses (here a file size limit, as a full disk would) stops the run
// with exit code 2 naming the file, and the manifest says "output_error", never "complete".
TEST(run_signal, a_record_that_cannot_be_written_stops_the_run_with_exit_code_2)
{
    const std::string dir = scratch_dir("run-fsize");
    // 200 KiB per file (bash counts ulimit -f in KiB); uet-monitor's rows of every packet pass it
    // within microseconds. SIGXFSZ ignored, so the write fails with EFBIG instead.
    const std::string out = shell_output(
        "bash -c \"trap '' XFSZ; ulimit -f 200; exec " + uetsim_path() + " run " + source_dir() +
        "/examples/uet-spraying.yaml --set Records.UetMonitor=true --quiet --out " + dir +
        "/out\" 2>&1; echo \"exit=$?\"");
    EXPECT_NE(out.find("exit=2\n"), std::string::npos) << out;
    EXPECT_NE(out.find("uetsim: error: record '" + dir +
                       "/out/uet-spraying-uet-monitor-0.csv': File too large; "
                       "the run stopped at simulated time "),
              std::string::npos)
        << out;
    const auto m = nlohmann::json::parse(read_text(dir + "/out/uet-spraying-manifest.json"));
    EXPECT_EQ(m["status"], "output_error");
    EXPECT_LT(m["sim_time_s"].get<double>(), 100e-6);  // stopped early, not at the traffic's end
    EXPECT_EQ(fs::file_size(dir + "/out/uet-spraying-uet-monitor-0.csv"), 200u * 1024u);
}

}  // namespace
}  // namespace uetsim::test
