// `uetsim sweep` as users run it: the same summary.csv whatever runs it (--jobs 1, --jobs 2,
// mpirun -n 3), a killed sweep that resumes without redoing finished runs, a failed run recorded
// while the others complete, and malformed sweep files rejected with exit 2 naming the problem.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

namespace uetsim::test {
namespace {

namespace fs = std::filesystem;

// Three UET messages on a 4-host leaf-spine: a run takes a few milliseconds of wall time.
const char* small_scenario = R"(Simulation: {Name: small, StopTime: 2ms}
Topology: {Kind: leaf-spine, Hosts: 4, HostsPerLeaf: 2, Spines: 2, LinkRate: 100Gbps}
Nic: {Type: uet}
Flows:
  - {Src: 0, Dst: 2, Bytes: 256KiB}
  - {Src: 1, Dst: 3, Bytes: 256KiB}
  - {Src: 2, Dst: 0, Bytes: 256KiB, Start: 5us}
)";

// A folder with the base scenario and a sweep file naming it.
std::string sweep_setup(const std::string& tag, const std::string& sweep_yaml,
                        const std::string& scenario = small_scenario)
{
    const std::string dir = scratch_dir(tag);
    write_file(dir + "/small.yaml", scenario);
    return write_file(dir + "/sweep.yaml", sweep_yaml);
}

const char* two_axes_three_seeds = R"(Base: small.yaml
Set: {Simulation.StopTime: 1ms}
Axes:
  UetNic.PacketSprayingType: [None, Default Packet Spraying]
  Topology.Spines: [2, 4]
  Simulation.RandomSeed: {From: 1, To: 3, Step: 1}
)";

// summary.csv without the wall-clock columns (the only ones that differ between identical runs).
std::vector<std::vector<std::string>> comparable(const std::string& summary)
{
    csv c = read_csv(summary);
    std::vector<std::vector<std::string>> out = {{}};
    std::vector<size_t> keep;
    for (size_t i = 0; i < c.header.size(); ++i)
        if (c.header[i] != "wall_time_sec" && c.header[i] != "peak_rss_bytes") {
            keep.push_back(i);
            out[0].push_back(c.header[i]);
        }
    for (const auto& r : c.rows) {
        out.emplace_back();
        for (size_t i : keep) out.back().push_back(i < r.size() ? r[i] : "<missing>");
    }
    return out;
}

int shell(const std::string& command)
{
    const int rc = std::system(command.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

TEST(sweep, same_summary_with_one_or_two_jobs_and_under_mpirun)
{
    const std::string file = sweep_setup("sweep-same", two_axes_three_seeds);
    const std::string root = fs::path(file).parent_path().string();
    command_result one = run_uetsim({"sweep", file, "--out", root + "/j1", "--jobs", "1"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    command_result two = run_uetsim({"sweep", file, "--out", root + "/j2", "--jobs", "2"});
    ASSERT_EQ(two.exit_code, 0) << two.err;
    // OpenMPI's runtime keeps allocations past MPI_Finalize, which LeakSanitizer reports in the
    // sanitizer build: leaks are checked in the local sweeps above, not in the MPI ranks.
    const std::string mpi =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 "
        "mpirun --oversubscribe -n 3 " +
        uetsim_path() + " sweep " + file + " --out " + root + "/mpi > " + root + "/mpi.log 2>&1";
    ASSERT_EQ(shell(mpi), 0) << read_text(root + "/mpi.log");
    EXPECT_NE(read_text(root + "/mpi.log").find("on 2 MPI ranks"), std::string::npos)
        << read_text(root + "/mpi.log");

    const auto a = comparable(root + "/j1/summary.csv");
    ASSERT_EQ(a.size(), 1u + 12u);  // header + 2 x 2 x 3 runs
    EXPECT_EQ(a, comparable(root + "/j2/summary.csv"));
    EXPECT_EQ(a, comparable(root + "/mpi/summary.csv"));

    // Cross-product order, first axis outermost; every run complete with its FCT figures.
    csv c = read_csv(root + "/j1/summary.csv");
    EXPECT_EQ(c.str(0, "run_id"), "PacketSprayingType=None_Spines=2_RandomSeed=1");
    EXPECT_EQ(c.str(1, "Simulation.RandomSeed"), "2");
    EXPECT_EQ(c.str(3, "Topology.Spines"), "4");
    EXPECT_EQ(c.str(11, "UetNic.PacketSprayingType"), "Default Packet Spraying");
    for (size_t r = 0; r < c.rows.size(); ++r) {
        EXPECT_EQ(c.str(r, "status"), "complete");
        EXPECT_EQ(c.str(r, "exit_status"), "0");
        EXPECT_EQ(c.str(r, "flows_completed"), "3");
        EXPECT_GE(c.num(r, "fct_max_usec"), c.num(r, "fct_p50_usec"));
        EXPECT_EQ(c.str(r, "wqe_latency_p50_usec"), "");  // no RDMA application
        // The row is the run's own records: its largest fct_usec.
        csv flows = read_csv(root + "/j1/" + c.str(r, "run_id") + "/small-flow-perf-0.csv");
        double max = 0;
        for (size_t f = 0; f < flows.rows.size(); ++f)
            max = std::max(max, flows.num(f, "fct_usec"));
        EXPECT_DOUBLE_EQ(c.num(r, "fct_max_usec"), max);
    }
    // The seed reached the run.
    auto m = nlohmann::json::parse(
        read_text(root + "/j1/" + c.str(2, "run_id") + "/small-manifest.json"));
    EXPECT_EQ(m["random_seed"], 3);
    EXPECT_EQ(m["status"], "complete");
}

// Runs long enough (some 100 ms each) that a sweep can be killed between them.
const char* slower_scenario = R"(Simulation: {Name: small, StopTime: 5ms}
Topology: {Kind: leaf-spine, Hosts: 4, HostsPerLeaf: 2, Spines: 2, LinkRate: 100Gbps}
Nic: {Type: uet}
Flows:
  - {Src: 0, Dst: 2, Bytes: 8MiB}
  - {Src: 1, Dst: 3, Bytes: 8MiB}
  - {Src: 2, Dst: 0, Bytes: 8MiB}
)";

// Eight of the slower runs.
const char* two_sprayings_four_seeds = R"(Base: small.yaml
Axes:
  UetNic.PacketSprayingType: [None, Default Packet Spraying]
  Simulation.RandomSeed: {From: 1, To: 4}
)";

std::map<std::string, fs::file_time_type> complete_manifests(const std::string& out)
{
    std::map<std::string, fs::file_time_type> found;
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(out, ec)) {
        const fs::path m = d.path() / "small-manifest.json";
        if (!fs::exists(m)) continue;
        try {
            if (nlohmann::json::parse(read_text(m.string()))["status"] == "complete")
                found[d.path().filename().string()] = fs::last_write_time(m);
        } catch (const std::exception&) {
        }
    }
    return found;
}

// Resumes the killed sweep in `out` (whose complete runs were `before`) locally and compares its
// summary with an uninterrupted sweep's: no complete run is run again.
void expect_resumed_to_the_whole_summary(const std::string& file, const std::string& out,
                                         const std::map<std::string, fs::file_time_type>& before,
                                         size_t runs = 8)
{
    const std::string root = fs::path(file).parent_path().string();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // mtimes would show a rerun
    command_result resumed = run_uetsim({"sweep", file, "--out", out, "--jobs", "2"});
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_NE(resumed.err.find(std::to_string(before.size()) + " complete already"),
              std::string::npos)
        << resumed.err;
    const auto after = complete_manifests(out);
    EXPECT_EQ(after.size(), runs);
    for (const auto& [id, t] : before) EXPECT_EQ(after.at(id), t) << id << " was run again";

    command_result whole = run_uetsim({"sweep", file, "--out", root + "/whole"});
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    EXPECT_EQ(comparable(out + "/summary.csv"), comparable(root + "/whole/summary.csv"));
}

// Kills a sweep's process group with `sig` after two complete runs, resumes it and compares its
// summary with an uninterrupted sweep's.
void kill_and_resume(const std::string& tag, int sig, int expected_exit)
{
    const std::string file = sweep_setup(tag, two_sprayings_four_seeds, slower_scenario);
    const std::string root = fs::path(file).parent_path().string();
    const std::string out = root + "/killed";
    const int pid = start_uetsim({"sweep", file, "--out", out, "--jobs", "1"}, root + "/k.out",
                                 root + "/k.err");
    // Wait for two complete runs, then signal the sweep's process group (a batch system's kill;
    // SIGKILL: the machine's, which gives nothing a chance to write).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (complete_manifests(out).size() < 2 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(-pid, sig);
    EXPECT_EQ(wait_uetsim(pid), expected_exit) << read_text(root + "/k.err");
    const auto before = complete_manifests(out);
    ASSERT_GE(before.size(), 2u);
    ASSERT_LT(before.size(), 8u) << "the sweep finished before it was killed";
    if (sig == SIGTERM) {
        EXPECT_NE(read_text(root + "/k.err").find("interrupted"), std::string::npos);
    }

    expect_resumed_to_the_whole_summary(file, out, before);
}

TEST(sweep, killed_sweep_resumes_without_redoing_finished_runs)
{
    kill_and_resume("sweep-kill", SIGTERM, 143);
}

// SIGKILL leaves the run in progress with a manifest that says "running": the resumed sweep runs
// it again, and the summary is the uninterrupted one.
TEST(sweep, a_sweep_killed_with_sigkill_resumes_to_the_same_summary)
{
    kill_and_resume("sweep-sigkill", SIGKILL, 128 + SIGKILL);
}

// The command line of process `pid`, arguments separated by spaces ("" once it is gone).
std::string command_line(const std::string& pid)
{
    std::string cmd = read_text("/proc/" + pid + "/cmdline");
    std::replace(cmd.begin(), cmd.end(), '\0', ' ');
    return cmd;
}

// Processes whose command line names `path`.
int processes_naming(const std::string& path)
{
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") == std::string::npos &&
            command_line(pid).find(path) != std::string::npos && pid != std::to_string(getpid()))
            ++n;
    }
    return n;
}

// The pid of the sweep's MPI rank `rank` writing into `out` (0 while there is none).
pid_t mpi_rank_pid(int rank, const std::string& out)
{
    const std::string want = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string cmd = command_line(pid);
        if (cmd.find(" sweep ") == std::string::npos || cmd.find(out) == std::string::npos)
            continue;
        std::string env = read_text("/proc/" + pid + "/environ");
        std::replace(env.begin(), env.end(), '\0', '\n');
        if (("\n" + env + "\n").find("\n" + want + "\n") != std::string::npos)
            return std::stoi(pid);
    }
    return 0;
}

// A machine of an MPI sweep dies: one worker rank is killed with SIGKILL half way, mpirun ends
// the job, and the sweep resumed on one machine gives the uninterrupted summary. 96 runs of about
// 50 ms: with 24 the sweep could end before the rank was found and killed.
TEST(sweep, an_mpi_sweep_whose_rank_is_killed_resumes_to_the_same_summary)
{
    const std::string file = sweep_setup("sweep-mpi-kill", R"(Base: small.yaml
Axes:
  UetNic.PacketSprayingType: [None, Default Packet Spraying]
  Simulation.RandomSeed: {From: 1, To: 48}
)",
                                         slower_scenario);
    const std::string root = fs::path(file).parent_path().string();
    const std::string out = root + "/killed";
    const std::string mpi =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 "
        "mpirun --oversubscribe -n 3 " +
        uetsim_path() + " sweep " + file + " --out " + out + " > " + root + "/mpi.log 2>&1";
    int mpi_exit = -1;
    std::thread job([&] { mpi_exit = shell(mpi); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    pid_t victim = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        if (complete_manifests(out).size() >= 1 && (victim = mpi_rank_pid(1, out))) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_GT(victim, 0) << read_text(root + "/mpi.log");
    kill(victim, SIGKILL);
    job.join();
    EXPECT_NE(mpi_exit, 0) << "mpirun ends the job when a rank dies\n"
                           << read_text(root + "/mpi.log");
    // A run the killed rank had started may go on alone; wait until no process writes in `out`.
    while (std::chrono::steady_clock::now() < deadline && processes_naming(out) > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(processes_naming(out), 0);
    const auto before = complete_manifests(out);
    ASSERT_GE(before.size(), 1u);
    ASSERT_LT(before.size(), 96u) << "the sweep finished before its rank was killed";
    expect_resumed_to_the_whole_summary(file, out, before, 96);
}

TEST(sweep, a_changed_sweep_file_reruns_the_runs_it_changes)
{
    const std::string file = sweep_setup("sweep-changed", R"(Base: small.yaml
Set: {Simulation.StopTime: 1ms}
Axes: {Simulation.RandomSeed: [1, 2]}
)");
    const std::string root = fs::path(file).parent_path().string();
    ASSERT_EQ(run_uetsim({"sweep", file, "--out", root + "/out"}).exit_code, 0);
    command_result again = run_uetsim({"sweep", file, "--out", root + "/out"});
    EXPECT_NE(again.err.find("2 complete already, 0 to run"), std::string::npos) << again.err;
    // Same run ids, another Set: the old records must not stand for the new runs.
    write_file(file,
               "Base: small.yaml\nSet: {Simulation.StopTime: 2ms}\n"
               "Axes: {Simulation.RandomSeed: [1, 2]}\n");
    command_result changed = run_uetsim({"sweep", file, "--out", root + "/out"});
    EXPECT_NE(changed.err.find("0 complete already, 2 to run"), std::string::npos) << changed.err;
}

TEST(sweep, an_invalid_run_is_recorded_as_failed_and_the_others_complete)
{
    const std::string file = sweep_setup("sweep-fail", R"(Base: small.yaml
Axes:
  UetNic.EntropyMaskBits: [4, 9, 8]
)");
    const std::string root = fs::path(file).parent_path().string();
    command_result r = run_uetsim({"sweep", file, "--out", root + "/out"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("1 failed"), std::string::npos) << r.err;
    csv c = read_csv(root + "/out/summary.csv");
    ASSERT_EQ(c.rows.size(), 3u);
    EXPECT_EQ(c.str(0, "status"), "complete");
    EXPECT_EQ(c.str(2, "status"), "complete");
    EXPECT_EQ(c.str(1, "run_id"), "EntropyMaskBits=9");
    EXPECT_EQ(c.str(1, "status"), "failed");
    EXPECT_EQ(c.str(1, "exit_status"), "2");
    EXPECT_NE(c.str(1, "error").find("UetNic.EntropyMaskBits: 9 is out of range"),
              std::string::npos)
        << c.str(1, "error");
    EXPECT_EQ(c.str(1, "fct_max_usec"), "");
    EXPECT_NE(c.str(2, "fct_max_usec"), "");
}

TEST(sweep, malformed_sweep_files_exit_2_naming_the_problem)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"Base: small.yaml\nAxes: {UetNic.PacketSprayinType: [None]}\n",
         "UetNic.PacketSprayinType"},
        {"Base: small.yaml\nAxes: {UetNic.PacketSprayingType: []}\n",
         "UetNic.PacketSprayingType: the axis has no values"},
        {"Base: small.yaml\nAxes: {Simulation.RandomSeed: {From: 5, To: 1}}\n",
         "Simulation.RandomSeed: bad range: To 1 is below From 5"},
        {"Base: small.yaml\nAxes: {Simulation.RandomSeed: {From: 1, To: 3, Step: 0}}\n",
         "Step 0 must be positive"},
        {"Base: small.yaml\nAxes: {Simulation.RandomSeed: [1, 2]}\n"
         "Exclude: [{Topology.Spines: 2}]\n",
         "Exclude[0]: 'Topology.Spines' is not an axis; the axes are Simulation.RandomSeed"},
        {"Base: small.yaml\nAxes: {Simulation.RandomSeed: [1, 2]}\n"
         "Exclude: [{Simulation.RandomSeed: 3}]\n",
         "Simulation.RandomSeed: '3' is not one of the axis values (1, 2)"},
        {"Base: small.yaml\nAxis: {Simulation.RandomSeed: [1]}\n", "did you mean 'Axes'?"},
        {"Base: small.yaml\n", "Axes: a sweep needs at least one axis"},
        {"Base: nothere.yaml\nAxes: {Simulation.RandomSeed: [1]}\n", "Base: no scenario file"},
        {"Base: small.yaml\nSet: {Topology.Hosts: many}\nAxes: {Simulation.RandomSeed: [1]}\n",
         "Topology.Hosts"},
        {"Base: small.yaml\nAxes: {UetNic.EntropyMaskBits: [9, 10]}\n",
         "UetNic.EntropyMaskBits: no value works"},
    };
    for (const auto& [yaml, expected] : cases) {
        const std::string file = sweep_setup("sweep-bad", yaml);
        const std::string out = fs::path(file).parent_path().string() + "/out";
        command_result r = run_uetsim({"sweep", file, "--out", out});
        EXPECT_EQ(r.exit_code, 2) << yaml << r.err;
        EXPECT_EQ(r.err.rfind("uetsim: error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(expected), std::string::npos) << yaml << r.err;
        EXPECT_FALSE(fs::exists(out)) << "a rejected sweep runs nothing";
    }
}

}  // namespace
}  // namespace uetsim::test
