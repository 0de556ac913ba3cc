// The `uetsim` command as users run it: exit codes, one-line messages naming key, value and what
// is allowed, inspect/validate output, and no records for rejected input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

namespace uetsim::test {
namespace {

namespace fs = std::filesystem;

std::string scenario_file(const std::string& yaml)
{
    return write_file(scratch_dir("cli") + "/scenario.yaml", yaml);
}

// Bad input: exit 2 and exactly one stderr line "uetsim: error: ..." holding `expected`.
void expect_bad_input(const std::vector<std::string>& args, const std::string& expected)
{
    command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("uetsim: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(cli, version)
{
    command_result r = run_uetsim({"--version"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, std::string("uetsim ") + UETSIM_VERSION + "\n");
    EXPECT_EQ(r.err, "");  // no SystemC banner either
}

TEST(cli, help_lists_the_commands)
{
    command_result r = run_uetsim({"--help"});
    EXPECT_EQ(r.exit_code, 0);
    for (const char* cmd : {"run", "inspect", "validate", "keys", "Exit codes"})
        EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
}

TEST(cli, usage_errors_exit_2)
{
    expect_bad_input({}, "A subcommand is required");
    expect_bad_input({"simulate"}, "simulate");
    expect_bad_input({"run", "--bogus"}, "--bogus");
    expect_bad_input({"validate"}, "scenario is required");
    expect_bad_input({"run", "--set"}, "--set");
}

TEST(cli, validate_ok)
{
    std::string file = scenario_file("Topology:\n  Hosts: 32\n  HostsPerLeaf: 16\n");
    command_result r = run_uetsim({"validate", file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "ok: " + file + "\n");
    EXPECT_EQ(r.err, "");
}

TEST(cli, validate_the_examples)
{
    std::string root = source_dir();
    for (const char* name :
         {"collision-8x8.yaml", "fat-tree.yaml", "single-switch-incast.yaml", "roce-incast.yaml"}) {
        command_result r = run_uetsim({"validate", root + "/examples/" + name});
        EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    }
}

TEST(cli, bad_scenarios_exit_2_naming_key_value_and_allowed)
{
    expect_bad_input({"validate", scenario_file("Switch:\n  EcmpHashMetod: crc32\n")},
                     "unknown key 'Switch.EcmpHashMetod'; did you mean 'Switch.EcmpHashMethod'?");
    expect_bad_input({"validate", scenario_file("Swtich: {}\n")},
                     "unknown section 'Swtich'; did you mean 'Switch'?");
    expect_bad_input({"validate", scenario_file("Topology:\n  Hosts: abc\n")},
                     "Topology.Hosts: 'abc' is not a whole number");
    expect_bad_input({"validate", scenario_file("Topology:\n  Hosts: 65544\n")},
                     "Topology.Hosts: 65544 is out of range 1..65536");
    expect_bad_input({"validate", scenario_file("Topology: {Kind: fat-tree, K: 66}\n")},
                     "Topology.K: 66 is out of range 2..64");
    expect_bad_input(
        {"validate", scenario_file("Topology: {Kind: single-switch, Hosts: 4097}\n")},
        "Topology.Hosts: 4097 is more than a single-switch topology allows (at most 4096)");
    expect_bad_input({"validate", scenario_file("Topology: {Hosts: 8192, HostsPerLeaf: 1, "
                                                "UplinksPerSpine: 16}\n")},
                     "Topology.Hosts: 8192 gives each spine 131072 ports (Hosts / HostsPerLeaf 1 "
                     "x UplinksPerSpine 16), more than a switch has (at most 65536)");
    expect_bad_input({"validate", scenario_file("Topology:\n  LinkRate: 6us\n")},
                     "Topology.LinkRate: '6us' is a time, expected a data rate such as 400Gbps");
    expect_bad_input({"validate", scenario_file("Switch:\n  EcmpHashMethod: md5\n")},
                     "Switch.EcmpHashMethod: 'md5' is not one of crc32WithSalt, crc32, "
                     "hashWithSalt, hash, dpr, dprWithFallback");
    expect_bad_input({"validate", scenario_file("Switch:\n  LoadBalancingMethod: ecmp\n")},
                     "Switch.LoadBalancingMethod: 'ecmp' is not one of none, flowlet");
    expect_bad_input({"validate", scenario_file("Records:\n  Enabled: [pcap]\n")},
                     "Records.Enabled[0]: 'pcap' is not one of nd-stats, "
                     "scala-switch-load-balancing-stats, flow-perf, uet-transport-stats");
    expect_bad_input({"validate", scenario_file("Switch:\n  TrimmingEnabled: true\n")},
                     "Switch.TrimmingEnabled is true but Switch.UETPolicyEnabled is false");
    expect_bad_input({"validate", scenario_file("Topology:\n  Hosts: 12\n")},
                     "Topology.Hosts (12) must be a multiple of Topology.HostsPerLeaf (8)");
    expect_bad_input({"validate", scenario_file("Topology: {Kind: fat-tree, Hosts: 8}\n")},
                     "Topology.Hosts: 8 cannot be set for a fat-tree: its host count is derived "
                     "from Topology.K");
    expect_bad_input({"validate", scenario_file("Flows:\n  - {Src: 0, Dst: 16, Bytes: 1MB}\n")},
                     "Flows[0].Dst: 16 is out of range 0..15 (the topology has 16 hosts)");
    expect_bad_input({"validate", scenario_file("UetNic:\n  EntropyMaskBits: 9\n")},
                     "UetNic.EntropyMaskBits: 9 is out of range 0..8");
}

TEST(cli, malformed_and_missing_files_exit_2)
{
    std::string file = scenario_file("Switch:\n  EnableEcn: [true\n");
    expect_bad_input({"validate", file}, file + ":3:1: malformed YAML: ");
    expect_bad_input({"validate", scenario_file("Link: {}\nLink: {}\n")},
                     ":2:1: duplicate key 'Link' (first given at line 1)");
    expect_bad_input({"validate", scenario_file("[1, 2]\n")},
                     "a scenario must be a map of sections");
    expect_bad_input({"validate", "/nonexistent/s.yaml"},
                     "cannot read scenario file '/nonexistent/s.yaml': no such file");
    expect_bad_input({"run", scratch_dir("cli")}, "it is a folder");
}

TEST(cli, set_errors_exit_2)
{
    expect_bad_input({"inspect", "--set", "Topology.Hosts"},
                     "--set 'Topology.Hosts': expected Section.Key=VALUE");
    expect_bad_input({"inspect", "--set", "Switch.EcmpHashMetod=crc32"},
                     "unknown key 'Switch.EcmpHashMetod'; did you mean 'Switch.EcmpHashMethod'?");
    expect_bad_input({"inspect", "--set", "Switch.EwmaWeight=2"},
                     "Switch.EwmaWeight: 2 is out of range 0..1");
    expect_bad_input({"inspect", "--set", "Flows[99].Bytes=1MB"},
                     "there is no Flows[99]; the scenario has 0 Flows");
}

TEST(cli, set_applies_in_order_after_the_file)
{
    std::string file = scenario_file("Simulation:\n  Name: from-file\n");
    command_result r = run_uetsim(
        {"inspect", file, "--set", "Simulation.Name=a", "--set", "Simulation.Name=b", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["scenario"]["Simulation"]["Name"], "b");
    // A --set before the positional file does not swallow it.
    r = run_uetsim({"inspect", "--set", "Simulation.Name=c", file, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["scenario"]["Simulation"]["Name"], "c");
}

TEST(cli, inspect_json_has_scenario_and_derived_members)
{
    command_result r = run_uetsim({"inspect", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);  // throws (fails the test) if not JSON
    ASSERT_TRUE(j.contains("scenario"));
    ASSERT_TRUE(j.contains("topology"));
    EXPECT_EQ(j["scenario"]["Topology"]["Kind"], "leaf-spine");
    EXPECT_EQ(j["scenario"]["Topology"]["Hosts"], 16);
    EXPECT_EQ(j["scenario"]["Topology"]["LinkRate"], 400e9);
    EXPECT_EQ(j["scenario"]["Flows"].size(), 0u);
    EXPECT_EQ(j["scenario"]["RdmaApplication"]["Enabled"], true);
    EXPECT_EQ(j["topology"]["hosts"], 16);
    EXPECT_EQ(j["placement"]["pairs"].size(), 8u);
}

// The seed's worked example through the command: one 250,000-byte WRITE on the RoCE NIC at
// MSS 4096 is 62 packets (61 x 4,096 + 144), 1 FIRST, 60 MIDDLE, 1 LAST, 253,596 B on the wire,
// 5.07 us at 400 Gbps.
TEST(cli, inspect_json_wqe_on_the_roce_nic)
{
    command_result r = run_uetsim({"inspect", "--set", "Nic.Type=roce", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["scenario"]["Nic"]["Type"], "roce");
    EXPECT_EQ(j["scenario"]["RoceNic"]["MSS"], 4096);
    const auto& w = j["wqe"];
    EXPECT_EQ(w["nic"], "roce");
    EXPECT_EQ(w["bytes"], 250000);
    EXPECT_EQ(w["packets"], 62);
    EXPECT_EQ(w["full_packets"], 61);
    EXPECT_EQ(w["last_packet_bytes"], 144);
    EXPECT_EQ(w["opcodes"]["first"], 1);
    EXPECT_EQ(w["opcodes"]["middle"], 60);
    EXPECT_EQ(w["opcodes"]["last"], 1);
    EXPECT_EQ(w["opcodes"]["only"], 0);
    EXPECT_EQ(w["wire_bytes"], 253596);
    EXPECT_NEAR(w["serialization_s"].get<double>() * 1e6, 5.07, 0.005);
    // The same WQE on the UET NIC: 106 B of headers a packet.
    r = run_uetsim({"inspect", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json u = nlohmann::json::parse(r.out)["wqe"];
    EXPECT_EQ(u["nic"], "uet");
    EXPECT_EQ(u["wire_bytes"], 256572);
    EXPECT_EQ(u["opcodes"]["middle"], 60);
}

// A RoCE configuration rule stops the command with exit 2 and one line naming key and value.
TEST(cli, roce_rules_stop_the_run)
{
    expect_bad_input({"inspect", "--set", "Nic.Type=roce", "--set", "RoceNic.MSS=4126"},
                     "RoceNic.MSS = 4126 B: MSS + 58 = 4184 B must be smaller than RoceNic.Mtu");
    expect_bad_input({"inspect", "--set", "Nic.Type=roce", "--set", "Switch.UETPolicyEnabled=true"},
                     "Switch.UETPolicyEnabled is true but Nic.Type is roce");
}

TEST(cli, inspect_yaml_loads_back)
{
    command_result r = run_uetsim({"inspect", "--set", "Topology.Kind=fat-tree", "--set",
                                   "Topology.K=6", "--set", "Switch.EcmpHashMethod=dpr"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("  EcmpHashMethod: dpr\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  Hosts: 54\n"), std::string::npos) << r.out;
    std::string file = scenario_file(r.out);
    command_result again = run_uetsim({"inspect", file});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(again.out, r.out);
}

TEST(cli, keys_markdown_lists_keys)
{
    command_result r = run_uetsim({"keys", "--markdown"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out.rfind("# Scenario keys\n", 0), 0u);
    EXPECT_NE(r.out.find("`Switch.EcmpHashMethod`"), std::string::npos);
}

TEST(cli, unwritable_output_folder_exits_2_before_simulating)
{
    command_result r = run_uetsim({"run", "--quiet", "--out", "/proc/uetsim-cli-test"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("uetsim: error: output folder '/proc/uetsim-cli-test' cannot be created"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "");  // no summary: nothing ran
    EXPECT_FALSE(fs::exists("/proc/uetsim-cli-test"));

    // A regular file in the way.
    std::string file = write_file(scratch_dir("cli") + "/not-a-folder", "x");
    r = run_uetsim({"run", "--quiet", "--out", file + "/out"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("uetsim: error: output folder '" + file + "/out' cannot be created"),
              std::string::npos)
        << r.err;
}

TEST(cli, bad_input_writes_nothing)
{
    std::string out = scratch_dir("cli") + "/records";
    command_result r = run_uetsim({"run", "--quiet", "--out", out, "--set", "Topology.Hosts=0"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("Topology.Hosts: 0 is out of range 1..65536"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));  // rejected before the output folder is even created
}

TEST(cli, run_default_scenario)
{
    std::string out = scratch_dir("cli") + "/records";
    command_result r = run_uetsim({"run", "--quiet", "--out", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The RDMA application: 8 pairs, one connection each, closed loop of 10 WQEs.
    EXPECT_NE(r.out.find("RDMA WQEs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("on 8 connections"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    for (const char* rec : {"rdma-perf", "beacon", "nd-stats", "uet-transport-stats"})
        EXPECT_TRUE(fs::exists(out + "/uetsim-" + std::string(rec) + "-0.csv")) << rec;
    // pcie-stats is off by default (the reference's EnablePCIeStatsLogging is false).
    EXPECT_FALSE(fs::exists(out + "/uetsim-pcie-stats-0.csv"));
    EXPECT_TRUE(fs::exists(out + "/uetsim-manifest.json"));
}

}  // namespace
}  // namespace uetsim::test
