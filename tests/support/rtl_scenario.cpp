#include "tests/support/rtl_scenario.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/run_uetsim.h"

namespace uetsim::test {

std::string cross_leaf_reps_scenario(const std::string& name, const std::string& bytes,
                                     const std::string& extra, const std::string& more_faults)
{
    std::string y =
        "Simulation: {Name: " + name + ", StopTime: 20ms}\n" +
        "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8, LinkRate: 400Gbps}\n"
        "UetNic: {PacketSprayingType: Recycled Entropy Packet Spraying}\n"
        "Faults:\n"
        "  - {At: 20us, Link: leaf0-spine0, Action: degrade, Rate: 100Gbps}\n"
        "  - {At: 20us, Link: leaf1-spine0, Action: degrade, Rate: 100Gbps}\n" +
        more_faults + "Records: {UetMonitor: true}\n" + extra + "Flows:\n";
    for (int i = 0; i < 8; ++i)
        y += "  - {Src: " + std::to_string(i) + ", Dst: " + std::to_string(8 + i) +
             ", Bytes: " + bytes + "}\n";
    return y;
}

void expect_refused(const std::string& file, const std::string& out,
                    const std::vector<std::string>& sets, const std::string& message,
                    const std::string& manifest)
{
    std::vector<std::string> args = {"run", file, "--quiet", "--out", out};
    std::string shown;
    for (const auto& set : sets) {
        args.insert(args.end(), {"--set", set});
        shown += (shown.empty() ? "" : " ") + set;
    }
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 2) << shown;
    EXPECT_NE(r.err.find(message), std::string::npos) << shown << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(out + "/" + manifest)) << shown;
}

}  // namespace uetsim::test
