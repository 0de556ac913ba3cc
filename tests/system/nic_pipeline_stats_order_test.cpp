// Turning nic-pipeline-stats on must change no other record: it samples on nd-stats' process
// and adds no timed event, so same-time events keep their order. 8 UET flows across a
// leaf-spine with packet spraying, sampled every 10 us, run with and without it; every other CSV
// must be byte for byte the same.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const char* const base_text =
    "Simulation: {Name: ord, NDStatsReportInterval: 10us}\n"
    "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 4, LinkRate: 400Gbps}\n"
    "Nic: {Type: uet}\n"
    "UetNic: {PacketSprayingType: Default Packet Spraying}\n"
    "Pcie: {Latency: 300ns}\n"
    "Flows:\n"
    "  - {Src: 0, Dst: 8, Bytes: 1MiB}\n"
    "  - {Src: 1, Dst: 8, Bytes: 1MiB}\n"
    "  - {Src: 2, Dst: 10, Bytes: 1MiB}\n"
    "  - {Src: 3, Dst: 11, Bytes: 1MiB}\n"
    "  - {Src: 4, Dst: 12, Bytes: 1MiB}\n"
    "  - {Src: 5, Dst: 12, Bytes: 1MiB}\n"
    "  - {Src: 6, Dst: 14, Bytes: 1MiB}\n"
    "  - {Src: 7, Dst: 15, Bytes: 1MiB}\n";

const char* const others[] = {"nd-stats", "flow-perf", "pcie-stats", "uet-transport-stats",
                              "switch-load-balancing-stats"};

}  // namespace

TEST(nic_pipeline_stats_order, turning_it_on_leaves_every_other_record_byte_identical)
{
    const std::string off = scratch_dir("ord-off");
    const std::string on = scratch_dir("ord-on");
    const std::string listed =
        "Records: {Enabled: [nd-stats, flow-perf, uet-transport-stats, pcie-stats, "
        "switch-load-balancing-stats";
    const std::string f_off = write_file(off + "/ord.yaml", base_text + listed + "]}\n");
    const std::string f_on =
        write_file(on + "/ord.yaml", base_text + listed + ", nic-pipeline-stats]}\n");
    const command_result a = run_uetsim({"run", f_off, "--quiet", "--out", off});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    const command_result b = run_uetsim({"run", f_on, "--quiet", "--out", on});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_FALSE(read_text(on + "/ord-nic-pipeline-stats-0.csv").empty());
    for (const char* r : others) {
        const std::string name = std::string("/ord-") + r + "-0.csv";
        const std::string x = read_text(off + name), y = read_text(on + name);
        EXPECT_FALSE(x.empty()) << r;
        EXPECT_TRUE(x == y) << r << " changed when nic-pipeline-stats was turned on";
    }
}
