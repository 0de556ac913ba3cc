// The summary row of one sweep run, read from a hand-written run folder: nearest-rank FCT and WQE
// latency percentiles, goodput over the WQEs' span, counters summed over each NIC's last row,
// manifest figures, and which cells stay empty.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "sim/sweep/run_metrics.h"

namespace uetsim::sweep {
namespace {

namespace fs = std::filesystem;

struct run_folder
{
    fs::path dir = fs::temp_directory_path() / ("uetsim-metrics-" + std::to_string(getpid()));
    run_folder()
    {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~run_folder() { fs::remove_all(dir); }
    void write(const std::string& name, const std::string& text) const
    {
        std::ofstream(dir / name) << text;
    }
};

std::map<std::string, std::string> cells(const std::string& dir, const run_outcome& o)
{
    std::map<std::string, std::string> out;
    const auto v = metric_cells(dir, o);
    for (size_t i = 0; i < metric_columns().size(); ++i) out[metric_columns()[i]] = v[i];
    return out;
}

const char* manifest = R"({"name": "x", "status": "complete", "sim_time_s": 0.002,
  "events_executed": 1234, "data_packets_sent": 99, "packets_dropped": 3, "packets_trimmed": 4,
  "messages": {"total": 4, "completed": 4},
  "rdma_application": {"wqes_completed": 3},
  "wall_time_s": 0.5, "peak_rss_bytes": 4096})";

TEST(run_metrics, a_complete_run)
{
    run_folder f;
    f.write("x-manifest.json", manifest);
    // fct 40, 10, 30, 20: p50 rank ceil(2) = 2 -> 20; p99 rank ceil(3.96) = 4 -> 40.
    f.write("x-flow-perf-0.csv",
            "time_utc,sim_time_sec,flow_id,fct_usec\nt,0,0,40\nt,0,1,10\nt,0,2,30\nt,0,3,20\n");
    // Three WQEs of 1000 B posted from 1 ms, the last completed at 1.0001 ms:
    // 3000 B * 8 / 100 ns = 240 Gbit/s.
    f.write("x-rdma-perf-0.csv",
            "job_id,sim_time_sec,perf_metric_usec,transfer_size,start_time_sec\n"
            "x,0.00100005,0.05,1000,0.001\nx,0.0010001,0.07,1000,0.00100003\n"
            "x,0.00100008,0.02,1000,0.00100006\n");
    // Cumulative counters: host0's last row (5 rtx, 7 marks), host1's (2, 1).
    f.write("x-uet-transport-stats-0.csv",
            "sim_time_sec,component_name,fep_id,num_rtx,m_marked_pkts_sent\n"
            "0.001,host0,0,1,2\n0.001,host1,1,0,0\n0.002,host0,0,5,7\n0.002,host1,1,2,1\n");
    auto c = cells(f.dir.string(), run_outcome{true, 0, "", 0.6, 8192});
    EXPECT_EQ(c["fct_p50_usec"], "20");
    EXPECT_EQ(c["fct_p99_usec"], "40");
    EXPECT_EQ(c["fct_max_usec"], "40");
    EXPECT_EQ(c["flows_completed"], "4");
    EXPECT_EQ(c["wqe_latency_p50_usec"], "0.05");
    EXPECT_EQ(c["wqe_latency_p99_usec"], "0.07");
    EXPECT_NEAR(std::stod(c["goodput_gbps"]), 240, 1e-6);
    EXPECT_EQ(c["wqes_completed"], "3");
    EXPECT_EQ(c["retransmissions"], "7");
    EXPECT_EQ(c["ecn_marks"], "8");
    EXPECT_EQ(c["trims"], "4");
    EXPECT_EQ(c["drops"], "3");
    EXPECT_EQ(c["pauses"], "");
    EXPECT_EQ(c["events"], "1234");
    EXPECT_EQ(c["data_packets_sent"], "99");
    EXPECT_EQ(c["sim_time_sec"], "0.002");
    EXPECT_EQ(c["wall_time_sec"], "0.5");  // the manifest's, for a complete run
    EXPECT_EQ(c["peak_rss_bytes"], "4096");
    EXPECT_EQ(c["status"], "complete");
    EXPECT_EQ(c["exit_status"], "0");
    EXPECT_EQ(c["error"], "");
    EXPECT_EQ(manifest_status(f.dir.string()), "complete");
}

TEST(run_metrics, a_failed_run_has_only_its_outcome)
{
    run_folder f;
    auto c = cells(f.dir.string(), run_outcome{true, 2, "uetsim: error: bad", 0.25, 2048});
    EXPECT_EQ(c["status"], "failed");
    EXPECT_EQ(c["exit_status"], "2");
    EXPECT_EQ(c["error"], "uetsim: error: bad");
    EXPECT_EQ(c["wall_time_sec"], "0.25");
    EXPECT_EQ(c["peak_rss_bytes"], "2048");
    EXPECT_EQ(c["fct_max_usec"], "");
    EXPECT_EQ(c["events"], "");
    EXPECT_EQ(manifest_status(f.dir.string()), "");
}

TEST(run_metrics, runs_not_run_and_runs_skipped_as_complete)
{
    run_folder f;
    EXPECT_EQ(cells(f.dir.string(), run_outcome{})["status"], "not run");
    EXPECT_EQ(cells(f.dir.string(), run_outcome{})["exit_status"], "");
    f.write("x-manifest.json", manifest);
    auto c = cells(f.dir.string(), run_outcome{});
    EXPECT_EQ(c["status"], "complete");
    EXPECT_EQ(c["exit_status"], "0");
    // No flow-perf, rdma-perf or uet-transport-stats file: those cells stay empty.
    EXPECT_EQ(c["fct_p50_usec"], "");
    EXPECT_EQ(c["goodput_gbps"], "");
    EXPECT_EQ(c["retransmissions"], "");
}

}  // namespace
}  // namespace uetsim::sweep
