// Per-device keys (Section[glob].Key): the YAML and --set forms, precedence over the plain keys,
// the sections and globs that are refused, values and rules checked like the plain keys, and the
// resolved configuration each device gets (testbench/elab/instance_config.h).
#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"
#include "sim/config/output.h"
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/instance_config.h"

namespace uetsim::config {
namespace {

using test::error_of;

// 16 hosts under leaf0 and leaf1, two spines.
const std::string small = "Topology: {Hosts: 16, HostsPerLeaf: 8, Spines: 2}\n";

TEST(config_instances, yaml_section_overrides_matching_devices_only)
{
    scenario sc = resolve_text(small + R"(
Switch:
  EcmpHashMethod: hash
Switch[leaf*]:
  EcmpHashMethod: crc32
  ForwardingLatency: 1us
UetNic[host3]:
  PacketSprayingType: None
Pcie[host1?]:
  Latency: 2us
)");
    ASSERT_EQ(sc.overrides.size(), 4u);
    EXPECT_EQ(sc.overrides[0].section, "Switch");
    EXPECT_EQ(sc.overrides[0].glob, "leaf*");
    EXPECT_EQ(sc.overrides[0].key, "Switch.EcmpHashMethod");
    // The section keeps its own value; only matching devices see the override.
    EXPECT_EQ(sc.sw.hash_method, ecmp_hash_method::hash);
    EXPECT_EQ(switch_for(sc, "leaf0").hash_method, ecmp_hash_method::crc32);
    EXPECT_EQ(switch_for(sc, "leaf1").forwarding_latency_s, 1e-6);
    EXPECT_EQ(switch_for(sc, "spine0").hash_method, ecmp_hash_method::hash);
    EXPECT_EQ(switch_for(sc, "spine0").forwarding_latency_s, sc.sw.forwarding_latency_s);
    EXPECT_EQ(nic_for(sc, "host3").spraying.type, packet_spraying_type::none);
    EXPECT_EQ(nic_for(sc, "host13").spraying.type, packet_spraying_type::default_spraying);
    EXPECT_EQ(pcie_for(sc, "host12").latency_s, 2e-6);
    EXPECT_EQ(pcie_for(sc, "host1").latency_s, sc.pcie.latency_s);  // host1? needs a 2nd digit
    EXPECT_EQ(scenario_for_device(sc, "leaf0").sw.hash_method, ecmp_hash_method::crc32);
}

TEST(config_instances, set_form_and_precedence)
{
    const std::string file = small + "Switch[leaf*]:\n  EcmpHashMethod: crc32\n";
    // A plain --set changes the section, not the devices an override names.
    scenario sc = resolve_text(file, {"Switch.EcmpHashMethod=hash"});
    EXPECT_EQ(switch_for(sc, "leaf0").hash_method, ecmp_hash_method::crc32);
    EXPECT_EQ(switch_for(sc, "spine1").hash_method, ecmp_hash_method::hash);
    // Overrides apply in order, the later one winning for the devices both match.
    sc = resolve_text(file, {"Switch[leaf1].EcmpHashMethod=dpr"});
    EXPECT_EQ(switch_for(sc, "leaf0").hash_method, ecmp_hash_method::crc32);
    EXPECT_EQ(switch_for(sc, "leaf1").hash_method, ecmp_hash_method::dpr);
    sc = resolve_text(file,
                      {"Switch[leaf1].EcmpHashMethod=dpr", "Switch[leaf*].EcmpHashMethod=hash"});
    EXPECT_EQ(switch_for(sc, "leaf1").hash_method, ecmp_hash_method::hash);
    ASSERT_EQ(sc.overrides.size(), 2u);  // the same glob and key again replaces the first one
    EXPECT_EQ(sc.overrides[1].glob, "leaf*");
    // fnmatch character classes.
    sc = resolve_text(small, {"Switch[spine[1-9]].EcmpHashMethod=hashWithSalt"});
    EXPECT_EQ(switch_for(sc, "spine1").hash_method, ecmp_hash_method::hash_with_salt);
    EXPECT_EQ(switch_for(sc, "spine0").hash_method, ecmp_hash_method::crc32_with_salt);
}

// Nic[glob].Type: the later override wins for the hosts both match; a fabric whose hosts all get
// one type through overrides is a fabric of that type.
TEST(config_instances, nic_type_per_host)
{
    const std::string flows =
        "Flows:\n  - {Src: 0, Dst: 2, Bytes: 1MB}\n"
        "  - {Src: 1, Dst: 3, Bytes: 1MB}\n";
    scenario sc = resolve_text(small + flows, {"Nic[host*].Type=roce", "Nic[host[13]].Type=uet"});
    EXPECT_TRUE(sets_nic_type_per_host(sc));
    EXPECT_EQ(sc.nic.type, nic_kind::uet);  // the section keeps its own value
    const std::vector<nic_kind> kinds = host_nic_kinds(sc, 16);
    for (uint32_t h = 0; h < 16; ++h) {
        EXPECT_EQ(kinds[h], h == 1 || h == 3 ? nic_kind::uet : nic_kind::roce) << h;
        EXPECT_EQ(host_nic_kind(sc, h), kinds[h]);
        EXPECT_EQ(nic_for(sc, "host" + std::to_string(h)).type, kinds[h]);
    }
    EXPECT_EQ(nic_kinds_in_use(sc, 16), (std::vector<nic_kind>{nic_kind::roce, nic_kind::uet}));
    EXPECT_EQ(fabric_nic(sc, 16).type, nic_kind::uet);  // mixed: the section as given

    const scenario all_roce = resolve_text(small + flows, {"Nic[host*].Type=roce"});
    EXPECT_EQ(nic_kinds_in_use(all_roce, 16), std::vector<nic_kind>{nic_kind::roce});
    EXPECT_EQ(fabric_nic(all_roce, 16).type, nic_kind::roce);
    EXPECT_FALSE(sets_nic_type_per_host(resolve_text(small + flows)));
}

TEST(config_instances, refused_sections)
{
    EXPECT_EQ(error_of("Simulation[leaf*]:\n  Name: x\n"),
              "scenario.yaml:1:1: Simulation[leaf*]: Simulation is not a device section: its keys "
              "hold for the whole run; per-device keys (Section[glob].Key) are for Link, Nic, "
              "Switch, UetNic, RoceNic, Pcie, Rtl");
    EXPECT_EQ(
        error_of("", {"Topology[leaf0].Spines=2"}),
        "Topology[leaf0]: Topology is not a device section: its keys hold for the whole "
        "run; per-device keys (Section[glob].Key) are for Link, Nic, Switch, UetNic, RoceNic, "
        "Pcie, Rtl");
    EXPECT_EQ(error_of("Swich[leaf*]:\n  EnableEcn: true\n"),
              "scenario.yaml:1:1: unknown section 'Swich'; did you mean 'Switch'?");
    EXPECT_EQ(error_of("", {"Switch[].EnableEcn=true"}),
              "Switch[]: no device-name glob between [ and ], e.g. Switch[leaf*]");
    EXPECT_EQ(error_of("Switch[leaf*]: 3\n"),
              "scenario.yaml:1:16: Switch[leaf*]: expected a map of keys, got a single value");
}

TEST(config_instances, unmatched_glob_names_the_devices)
{
    EXPECT_EQ(error_of(small, {"Switch[lef*].EnableEcn=true"}),
              "Switch[lef*].EnableEcn: 'lef*' matches no switch of this topology; its switches "
              "are leaf0..leaf1, spine0..spine1");
    // A host name is no switch, and a switch name no host.
    EXPECT_EQ(error_of(small + "UetNic[leaf0]:\n  EntropyMaskBits: 3\n"),
              "UetNic[leaf0].EntropyMaskBits: 'leaf0' matches no host of this topology; its hosts "
              "are host0..host15");
    EXPECT_EQ(
        error_of("Topology: {Kind: single-switch, Hosts: 4}\n", {"Switch[leaf*].EnableEcn=true"}),
        "Switch[leaf*].EnableEcn: 'leaf*' matches no switch of this topology; its switches "
        "are switch0");
}

TEST(config_instances, values_are_checked_like_the_plain_key)
{
    EXPECT_EQ(error_of("UetNic[host3]:\n  EntropyMaskBits: 9\n"),
              "scenario.yaml:2:20: UetNic[host3].EntropyMaskBits: 9 is out of range 0..8");
    EXPECT_EQ(error_of("", {"UetNic.EntropyMaskBits=9"}),
              "UetNic.EntropyMaskBits: 9 is out of range 0..8");
    EXPECT_EQ(error_of("", {"Switch[leaf*].EcmpHashMethod=crc33"}),
              "Switch[leaf*].EcmpHashMethod: 'crc33' is not one of crc32WithSalt, crc32, "
              "hashWithSalt, hash, dpr, dprWithFallback; did you mean 'crc32'?");
    EXPECT_EQ(error_of("Switch[leaf*]:\n  EcmpHashMetod: crc32\n"),
              "scenario.yaml:2:3: unknown key 'Switch[leaf*].EcmpHashMetod'; did you mean "
              "'Switch[leaf*].EcmpHashMethod'?");
    // Keys the application or a record reads too have one value for the fabric.
    EXPECT_EQ(error_of("", {"UetNic[host3].RdmaDataMSS=1024"}),
              "UetNic[host3].RdmaDataMSS: UetNic.RdmaDataMSS holds for the whole fabric and cannot "
              "be set per device; set UetNic.RdmaDataMSS instead");
}

TEST(config_instances, rules_hold_for_every_device)
{
    EXPECT_EQ(error_of(small, {"Switch[leaf*].TrimmingEnabled=true"}),
              "leaf0, leaf1 with Switch[leaf*].TrimmingEnabled: Switch.TrimmingEnabled is true but "
              "Switch.UETPolicyEnabled is false; trimming requires the UET policy (set "
              "Switch.UETPolicyEnabled: true)");
    // Trimming also needs PFC off (the default EnablePFC is [1, 1, 0, ...]) ...
    EXPECT_EQ(error_of(small, {"Switch[leaf*].TrimmingEnabled=true",
                               "Switch[leaf*].UETPolicyEnabled=true"}),
              "leaf0, leaf1 with Switch[leaf*].TrimmingEnabled, Switch[leaf*].UETPolicyEnabled: "
              "Switch.EnablePFC [1, 1, 0, 0, 0, 0, 0, 0] enables PFC while "
              "Switch.TrimmingEnabled is true; trimming needs PFC off for every class (all "
              "entries 0: set Switch.EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0])");
    // ... valid together: the policy on and PFC off for the same switches.
    EXPECT_EQ(error_of(small,
                       {"Switch[leaf*].TrimmingEnabled=true", "Switch[leaf*].UETPolicyEnabled=true",
                        "Switch[leaf*].EnablePFC=0, 0, 0, 0, 0, 0, 0, 0"}),
              "no error");
    EXPECT_EQ(error_of(small, {"Switch[leaf0].MinThreshold=0.9"}),
              "leaf0 with Switch[leaf0].MinThreshold: Switch.MaxThreshold (0.8) must be at least "
              "Switch.MinThreshold (0.9)");
}

TEST(config_instances, printed_scenario_keeps_the_overrides)
{
    const std::string file = small +
                             "Switch[leaf*]:\n  EcmpHashMethod: crc32\nUetNic[host3]:\n  "
                             "FreezingTimeout: 50us\n";
    scenario sc = resolve_text(file);
    const std::string yaml = scenario_yaml(sc);
    EXPECT_NE(yaml.find("Switch[leaf*]:\n  EcmpHashMethod: crc32\n"), std::string::npos) << yaml;
    EXPECT_NE(yaml.find("UetNic[host3]:\n  FreezingTimeout: 50us\n"), std::string::npos) << yaml;
    scenario again = resolve_text(yaml);
    EXPECT_EQ(scenario_yaml(again), yaml);
    EXPECT_EQ(switch_for(again, "leaf1").hash_method, ecmp_hash_method::crc32);
    EXPECT_EQ(scenario_json(sc)["Switch[leaf*]"]["EcmpHashMethod"], "crc32");
    EXPECT_EQ(scenario_json(sc)["UetNic[host3]"]["FreezingTimeout"], 50e-6);
}

TEST(config_instances, inspect_shows_values_that_differ_per_device)
{
    // leaf1's override equals the section's value: not shown.
    scenario sc = resolve_text(small + "Switch[leaf*]:\n  EcmpHashMethod: crc32\n",
                               {"Switch[leaf1].EcmpHashMethod=crc32WithSalt"});
    const auto j = instances_json(sc);
    ASSERT_EQ(j.size(), 1u) << j.dump();
    EXPECT_EQ(j["leaf0"]["Switch.EcmpHashMethod"], "crc32");
    EXPECT_EQ(instances_text(sc), "# leaf0: Switch.EcmpHashMethod: crc32\n");
    EXPECT_TRUE(instances_json(resolve_text(small)).empty());
}

// Link[glob] configures links by link name: a glob must match a link (not a device), and the
// tier delays stay fabric-wide.
TEST(config_instances, link_globs_name_links)
{
    EXPECT_EQ(error_of("", {"Link[leaf0].Rate=200Gbps"}),
              "Link[leaf0].Rate: 'leaf0' matches no link of this topology; its links are "
              "host0-leaf0..host15-leaf1, leaf0-spine0..leaf1-spine7");
    EXPECT_EQ(error_of("", {"Topology.UplinksPerSpine=2", "Link[leaf0-spine0].Delay=1us"}),
              "Link[leaf0-spine0].Delay: 'leaf0-spine0' matches no link of this topology; its "
              "links are host0-leaf0..host15-leaf1, leaf0-spine0.0..leaf1-spine7.1");
    EXPECT_EQ(error_of("", {"Link[host*].NicDelay=1us"}),
              "Link[host*].NicDelay: Link.NicDelay holds for the whole fabric and cannot be set "
              "per device; set Link.NicDelay instead");
    EXPECT_EQ(error_of("", {"Link[].Rate=1Tbps"}),
              "Link[]: no device-name glob between [ and ], e.g. Link[leaf0-spine*]");
    // A Link glob that also matches a device name configures no device.
    EXPECT_EQ(error_of("", {"Link[*].BitErrorRate=1e-9"}), "no error");
}

}  // namespace
}  // namespace uetsim::config
