// Turning a periodic record on or off must change no other record: 8 UET flows across a
// leaf-spine with packet spraying, sampled every 10 us, with each periodic record alone and with
// all of them; every file must be byte for byte the same in both.
#include <gtest/gtest.h>

#include <algorithm>
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

// Each periodic record alone (with flow-perf, the model's outcome) against all of them at once.
const char* const periodic[] = {"nd-stats", "uet-transport-stats", "pcie-stats",
                                "scala-switch-load-balancing-stats", "nic-pipeline-stats"};

std::string run_with(const std::string& tag, const std::string& records)
{
    const std::string dir = scratch_dir(tag);
    const std::string f = write_file(
        dir + "/ord.yaml", std::string(base_text) + "Records: {Enabled: [" + records + "]}\n");
    const command_result r = run_uetsim({"run", f, "--quiet", "--out", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir;
}

}  // namespace

// The periodic records sample on one clock that every run has (testbench/records/record_clock.h),
// so which of them are on changes neither the model's outcome nor any other record.
TEST(record_independence, turning_a_periodic_record_on_or_off_changes_no_other_record)
{
    std::string all = "flow-perf";
    for (const char* r : periodic) all += std::string(", ") + r;
    const std::string with_all = run_with("ord-all", all);
    const std::string alone = run_with("ord-none", "flow-perf");
    const std::string fct = "/ord-flow-perf-0.csv";
    EXPECT_FALSE(read_text(alone + fct).empty());
    EXPECT_TRUE(read_text(alone + fct) == read_text(with_all + fct))
        << "flow-perf changed with the periodic records on";
    for (const char* r : periodic) {
        const std::string dir = run_with(std::string("ord-") + r, std::string("flow-perf, ") + r);
        const std::string name = std::string("/ord-") + r + "-0.csv";
        const std::string x = read_text(dir + name), y = read_text(with_all + name);
        EXPECT_GT(std::count(x.begin(), x.end(), '\n'), 2) << r;
        EXPECT_TRUE(x == y) << r << " differs between running alone and with the others";
        EXPECT_TRUE(read_text(dir + fct) == read_text(with_all + fct))
            << "flow-perf changed when only " << r << " was on";
    }
}
