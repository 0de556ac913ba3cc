// `uetsim plot` draws every kind of figure from real outputs: the PNGs exist, are 800 x 500
// pixels and are not blank; bad requests exit 2 naming the problem.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_uetsim.h"

namespace uetsim::test {
namespace {

namespace fs = std::filesystem;

// Width and height from the PNG header (the IHDR chunk follows the 8-byte signature).
std::pair<uint32_t, uint32_t> png_size(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    unsigned char h[24] = {};
    f.read(reinterpret_cast<char*>(h), sizeof h);
    EXPECT_EQ(std::string(reinterpret_cast<char*>(h + 1), 3), "PNG") << path;
    auto be = [&](int i) {
        return uint32_t(h[i]) << 24 | uint32_t(h[i + 1]) << 16 | uint32_t(h[i + 2]) << 8 |
               uint32_t(h[i + 3]);
    };
    return {be(16), be(20)};
}

// Distinct colours of each image, one number per line (read by Debian's python3 with
// matplotlib, once for all the images: its start-up is what a figure costs in this test).
std::vector<int> colours(const std::vector<std::string>& paths)
{
    std::string cmd =
        "/usr/bin/python3 -c \"import sys, matplotlib.image as m, numpy as n\n"
        "for p in sys.argv[1:]:\n"
        "    a = m.imread(p); print(len(n.unique(a.reshape(-1, a.shape[2]), axis=0)))\"";
    for (const auto& p : paths) cmd += " " + p;
    std::istringstream in(shell_output(cmd));
    std::vector<int> out;
    for (int c; in >> c;) out.push_back(c);
    return out;
}

// Each PNG exists, is 800 x 500 pixels and is not blank (axes, text and data: many colours).
void expect_figures(const std::vector<std::string>& paths)
{
    for (const auto& p : paths) {
        ASSERT_TRUE(fs::exists(p)) << p;
        EXPECT_EQ(png_size(p), std::make_pair(800u, 500u)) << p;
    }
    const std::vector<int> c = colours(paths);
    ASSERT_EQ(c.size(), paths.size());
    for (size_t i = 0; i < paths.size(); ++i) EXPECT_GT(c[i], 20) << paths[i] << " looks blank";
}

const char* flows_scenario = R"(Simulation: {Name: small, StopTime: 2ms, NDStatsReportInterval: 5us}
Topology: {Kind: leaf-spine, Hosts: 4, HostsPerLeaf: 2, Spines: 2, LinkRate: 100Gbps}
Nic: {Type: uet}
UetNic: {PacketSprayingType: Default Packet Spraying}
Flows:
  - {Src: 0, Dst: 2, Bytes: 256KiB}
  - {Src: 1, Dst: 3, Bytes: 256KiB}
  - {Src: 2, Dst: 0, Bytes: 256KiB, Start: 5us}
)";

TEST(plot, figures_of_a_flows_run)
{
    const std::string dir = scratch_dir("plot-flows");
    const std::string file = write_file(dir + "/small.yaml", flows_scenario);
    ASSERT_EQ(run_uetsim({"run", file, "--out", dir + "/run", "--quiet"}).exit_code, 0);
    command_result r = run_uetsim({"plot", dir + "/run"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> pngs;
    for (const char* f : {"fct-cdf", "uplink-load", "nic-window", "port-rate"})
        pngs.push_back(dir + "/run/plots/" + f + ".png");
    expect_figures(pngs);
    EXPECT_FALSE(fs::exists(dir + "/run/plots/wqe-latency-cdf.png"));   // no RDMA application
    EXPECT_FALSE(fs::exists(dir + "/run/plots/collective-busbw.png"));  // no Chakra workload
    EXPECT_FALSE(fs::exists(dir + "/run/plots/collective-timeline.png"));

    // One figure on request, into another folder, as SVG.
    r = run_uetsim(
        {"plot", dir + "/run", "--figure", "fct-cdf", "--format", "svg", "--out", dir + "/svg"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(read_text(dir + "/svg/fct-cdf.svg").find("<svg"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir + "/svg/port-rate.svg"));

    r = run_uetsim({"plot", dir + "/run", "--figure", "wqe-latency-cdf"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no completed WQEs (rdma-perf)"), std::string::npos) << r.err;
    r = run_uetsim({"plot", dir + "/run", "--figure", "heatmap"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown figure 'heatmap' (a figure of a sweep folder)"),
              std::string::npos)
        << r.err;
    r = run_uetsim({"plot", dir + "/run", "--figure", "collective-timeline"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("has no Chakra transfers (chakra-perf)"), std::string::npos) << r.err;
}

// 8 hosts, two leaves of 4, 4 spines at 400 Gbps: AllReduce with two algorithms at two sizes,
// and an AllToAll (a synchronization barrier before each, by default).
const char* collectives_scenario = R"(Simulation: {Name: coll, RunTime: 50ms}
Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 4, LinkRate: 400Gbps}
Nic: {Type: uet}
Collectives:
  - {Type: AllReduce, Bytes: 256KiB, Ranks: all, Algorithm: ring}
  - {Type: AllReduce, Bytes: 1MiB, Ranks: all, Algorithm: ring}
  - {Type: AllReduce, Bytes: 256KiB, Ranks: all, Algorithm: halving-doubling}
  - {Type: AllReduce, Bytes: 1MiB, Ranks: all, Algorithm: halving-doubling}
  - {Type: AllToAll, Bytes: 1MiB, Ranks: all}
)";

TEST(plot, collective_figures_of_a_collectives_run)
{
    const std::string dir = scratch_dir("plot-collectives");
    const std::string file = write_file(dir + "/coll.yaml", collectives_scenario);
    ASSERT_EQ(run_uetsim({"run", file, "--out", dir + "/run", "--quiet"}).exit_code, 0);
    ASSERT_TRUE(fs::exists(dir + "/run/coll-chakra-busbw-0.csv"));
    ASSERT_TRUE(fs::exists(dir + "/run/coll-chakra-perf-0.csv"));

    // Without --figure, both collective figures are drawn (and no FCT CDF: no Flows).
    command_result r = run_uetsim({"plot", dir + "/run"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> pngs = {dir + "/run/plots/collective-busbw.png",
                                           dir + "/run/plots/collective-timeline.png"};
    for (const auto& p : pngs) {
        EXPECT_NE(r.out.find(p), std::string::npos) << r.out;
        ASSERT_TRUE(fs::exists(p)) << p;
        EXPECT_GT(fs::file_size(p), 10000u) << p << " looks empty";
    }
    expect_figures(pngs);
    EXPECT_FALSE(fs::exists(dir + "/run/plots/fct-cdf.png"));

    // Each on request, the timeline as SVG.
    r = run_uetsim({"plot", dir + "/run", "--figure", "collective-busbw", "--out", dir + "/one"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_figures({dir + "/one/collective-busbw.png"});
    EXPECT_FALSE(fs::exists(dir + "/one/collective-timeline.png"));
    r = run_uetsim({"plot", dir + "/run", "--figure", "collective-timeline", "--format", "svg",
                    "--out", dir + "/svg"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(read_text(dir + "/svg/collective-timeline.svg").find("<svg"), std::string::npos);
}

TEST(plot, wqe_latency_cdf_of_an_rdma_run)
{
    const std::string dir = scratch_dir("plot-rdma");
    command_result r = run_uetsim({"run",
                                   "--set",
                                   "Simulation.RunTime=0.2ms",
                                   "--set",
                                   "Simulation.WarmUp=0s",
                                   "--set",
                                   "Simulation.StartTime=0s",
                                   "--set",
                                   "Simulation.ClientStartOffset=0s",
                                   "--set",
                                   "Simulation.ClientStartInterval=0s",
                                   "--set",
                                   "Topology.Hosts=4",
                                   "--set",
                                   "Topology.HostsPerLeaf=2",
                                   "--set",
                                   "Topology.Spines=2",
                                   "--out",
                                   dir + "/run",
                                   "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_uetsim({"plot", dir + "/run", "--figure", "wqe-latency-cdf"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_figures({dir + "/run/plots/wqe-latency-cdf.png"});
}

TEST(plot, metric_against_an_axis_and_a_heat_map_of_a_sweep)
{
    const std::string dir = scratch_dir("plot-sweep");
    write_file(dir + "/small.yaml", flows_scenario);
    const std::string file = write_file(dir + "/sweep.yaml", R"(Base: small.yaml
Axes:
  UetNic.PacketSprayingType: [None, Default Packet Spraying, Recycled Entropy Packet Spraying]
  Topology.Spines: [2, 4]
  Simulation.RandomSeed: {From: 1, To: 3}
)");
    command_result r = run_uetsim({"sweep", file, "--out", dir + "/sweep"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_uetsim({"plot", dir + "/sweep"});
    ASSERT_EQ(r.exit_code, 0) << r.err;

    r = run_uetsim({"plot", dir + "/sweep", "--figure", "metric", "--metric", "events", "--x",
                    "Topology.Spines", "--lines", "UetNic.PacketSprayingType"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_figures({dir + "/sweep/plots/metric-fct_max_usec.png",
                    dir + "/sweep/plots/heatmap-fct_max_usec.png",
                    dir + "/sweep/plots/metric-events.png"});

    r = run_uetsim({"plot", dir + "/sweep", "--figure", "metric", "--x", "Topology.Hosts"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("'Topology.Hosts' is not an axis of the sweep"), std::string::npos)
        << r.err;
    r = run_uetsim({"plot", dir + "/sweep", "--figure", "metric", "--metric", "fct_usec"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown metric 'fct_usec'"), std::string::npos) << r.err;
}

// A sweep of a collective's size and algorithm: its bus bandwidth column against the size, one
// line per algorithm (keys with brackets, sizes with units as categories).
TEST(plot, busbw_of_a_collectives_sweep)
{
    const std::string dir = scratch_dir("plot-collectives-sweep");
    write_file(dir + "/coll.yaml", R"(Simulation: {Name: coll, RunTime: 50ms}
Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 4, LinkRate: 400Gbps}
Collectives:
  - {Type: AllReduce, Bytes: 1MiB, Ranks: all}
)");
    const std::string file = write_file(dir + "/sweep.yaml", R"(Base: coll.yaml
Axes:
  Collectives[0].Bytes: [256KiB, 1MiB]
  Collectives[0].Algorithm: [ring, halving-doubling]
)");
    command_result r = run_uetsim({"sweep", file, "--out", dir + "/sweep"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_uetsim({"plot", dir + "/sweep", "--figure", "metric", "--metric", "busbw_gbps", "--x",
                    "Collectives[0].Bytes", "--lines", "Collectives[0].Algorithm"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_figures({dir + "/sweep/plots/metric-busbw_gbps.png"});
}

}  // namespace
}  // namespace uetsim::test
