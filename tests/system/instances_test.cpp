// Per-device keys end to end: Switch[leaf0].EcmpHashMethod changes how leaf0 spreads its flows
// over the spines, exactly as if leaf0's section said so, while leaf1 keeps the section's hash; a
// bad override stops the command with exit 2 before anything is simulated.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

// Six UET flows from leaf0's hosts to leaf1's over 4 spines; one entropy value per flow
// (spraying None), so the leaves' ECMP hash alone picks each flow's spine.
const char* const scenario_yaml = R"(Simulation: {Name: pi}
Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 4}
UetNic: {PacketSprayingType: None}
Switch: {EcmpHashMethod: crc32WithSalt}
Flows:
  - {Src: 0, Dst: 8, Bytes: 256KiB}
  - {Src: 1, Dst: 9, Bytes: 256KiB}
  - {Src: 2, Dst: 10, Bytes: 256KiB}
  - {Src: 3, Dst: 11, Bytes: 256KiB}
  - {Src: 4, Dst: 12, Bytes: 256KiB}
  - {Src: 5, Dst: 13, Bytes: 256KiB}
)";

using member_bytes = std::map<std::pair<std::string, std::string>, double>;  // (switch, ifid)

// Bytes each ECMP member carried over the run (the last row per member), for one run.
member_bytes run(const std::string& file, const std::string& tag, const std::string& set = "")
{
    const std::string out = scratch_dir(tag);
    std::vector<std::string> args = {"run", file, "--quiet", "--out", out};
    if (!set.empty()) args.insert(args.end(), {"--set", set});
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    EXPECT_EQ(read_csv(out + "/pi-flow-perf-0.csv").rows.size(), 6u);
    const csv lb = read_csv(out + "/pi-scala-switch-load-balancing-stats-0.csv");
    member_bytes m;
    for (size_t i = 0; i < lb.rows.size(); ++i)
        if (lb.num(i, "group_size") > 1)  // the uplinks: the sets where the hash chooses
            m[{lb.str(i, "component_name"), lb.str(i, "ifid")}] = lb.num(i, "bytes");
    return m;
}

member_bytes of(const member_bytes& m, const std::string& sw)
{
    member_bytes out;
    for (const auto& [k, v] : m)
        if (k.first == sw) out[k] = v;
    return out;
}

}  // namespace

TEST(instances, a_leaf_override_changes_that_leaf_only)
{
    const std::string file = write_file(scratch_dir("pi") + "/s.yaml", scenario_yaml);
    const member_bytes plain = run(file, "pi-plain");
    const member_bytes leaf0 = run(file, "pi-leaf0", "Switch[leaf0].EcmpHashMethod=crc32");
    const member_bytes all = run(file, "pi-all", "Switch.EcmpHashMethod=crc32");
    ASSERT_EQ(of(plain, "leaf0").size(), 4u);  // leaf0's four uplinks
    // leaf0 spreads its flows differently, exactly as when every switch hashes with crc32...
    EXPECT_NE(of(leaf0, "leaf0"), of(plain, "leaf0"));
    EXPECT_EQ(of(leaf0, "leaf0"), of(all, "leaf0"));
    // ...while leaf1 (the ACKs' first hop) keeps the section's hash.
    EXPECT_EQ(of(leaf0, "leaf1"), of(plain, "leaf1"));
    EXPECT_NE(of(all, "leaf1"), of(plain, "leaf1"));
}

TEST(instances, inspect_and_manifest_show_the_override)
{
    const std::string dir = scratch_dir("pi-inspect");
    const std::string file = write_file(dir + "/s.yaml", std::string(scenario_yaml) +
                                                             "Switch[leaf*]:\n  EcmpHashMethod: "
                                                             "hash\n");
    const command_result r = run_uetsim({"inspect", file, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["instances"]["leaf0"]["Switch.EcmpHashMethod"], "hash");
    EXPECT_EQ(j["instances"]["leaf1"]["Switch.EcmpHashMethod"], "hash");
    EXPECT_FALSE(j["instances"].contains("spine0"));
    EXPECT_EQ(j["scenario"]["Switch[leaf*]"]["EcmpHashMethod"], "hash");
    const command_result text = run_uetsim({"inspect", file});
    EXPECT_NE(text.out.find("# leaf1: Switch.EcmpHashMethod: hash\n"), std::string::npos)
        << text.out;
    const command_result ran = run_uetsim({"run", file, "--quiet", "--out", dir});
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/pi-manifest.json"));
    EXPECT_EQ(m["scenario"]["Switch[leaf*]"]["EcmpHashMethod"], "hash");
}

TEST(instances, bad_overrides_exit_2_before_simulating)
{
    const std::string dir = scratch_dir("pi-bad");
    const std::string file = write_file(dir + "/s.yaml", scenario_yaml);
    const std::pair<const char*, const char*> cases[] = {
        {"Switch[lef*].EcmpHashMethod=crc32",
         "uetsim: error: Switch[lef*].EcmpHashMethod: 'lef*' matches no switch of this topology; "
         "its switches are leaf0..leaf1, spine0..spine3\n"},
        {"UetNic[host3].EntropyMaskBits=9",
         "uetsim: error: UetNic[host3].EntropyMaskBits: 9 is out of range 0..8\n"},
        {"Flows[host3].Bytes=1",
         "uetsim: error: --set Flows[host3].Bytes: a row of Flows is chosen by its number, e.g. "
         "Flows[3]\n"},
        {"Records[leaf0].UetMonitor=true",
         "uetsim: error: Records[leaf0]: Records is not a device section: its keys hold for the "
         "whole run; per-device keys (Section[glob].Key) are for Link, Nic, Switch, UetNic, "
         "RoceNic, "
         "Pcie, Rtl\n"},
    };
    for (const auto& [set, message] : cases) {
        const command_result r = run_uetsim({"run", file, "--quiet", "--out", dir, "--set", set});
        EXPECT_EQ(r.exit_code, 2) << set;
        EXPECT_EQ(r.err, message) << set;
        EXPECT_FALSE(std::filesystem::exists(dir + "/pi-manifest.json")) << set;
    }
}
