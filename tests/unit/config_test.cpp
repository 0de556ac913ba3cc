// Scenario loading through the key schema: defaults, every key type, --set order, and the exact
// shape of each class of error message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"
#include "sim/config/output.h"
#include "sim/default_scenario.h"
#include "testbench/traffic/app/timeline.h"

namespace uetsim::config {
namespace {

// The source tree: UETSIM_SOURCE (set by ctest), else the tree this file is in.
std::string source_dir()
{
    if (const char* env = std::getenv("UETSIM_SOURCE")) return env;
    return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().string();
}

// The config_error message of resolving `yaml` (source name "scenario.yaml") with overrides.
using test::error_of;

TEST(config, empty_scenario_has_struct_defaults)
{
    scenario def;
    scenario sc = resolve_text("");
    EXPECT_EQ(sc.simulation.name, def.simulation.name);
    EXPECT_EQ(sc.simulation.random_seed, def.simulation.random_seed);
    // No Flows: the RDMA application is on, and the run ends at its timeline's stop time.
    EXPECT_TRUE(sc.rdma.enabled);
    EXPECT_EQ(sc.simulation.stop_time_s, make_timeline(def.simulation.timeline).stop_time_s);
    EXPECT_EQ(sc.topology.kind, def.topology.kind);
    EXPECT_EQ(sc.topology.hosts, def.topology.hosts);
    EXPECT_EQ(sc.topology.link_rate_bps, def.topology.link_rate_bps);
    EXPECT_EQ(sc.link.nic_delay_s, def.link.nic_delay_s);
    EXPECT_EQ(sc.sw.hash_method, def.sw.hash_method);
    EXPECT_EQ(sc.sw.buffer.plane_bdp_bytes, def.sw.buffer.plane_bdp_bytes);
    EXPECT_EQ(sc.sw.buffer.enable_pfc, def.sw.buffer.enable_pfc);
    EXPECT_EQ(sc.sw.ewma_weight, def.sw.ewma_weight);
    EXPECT_EQ(sc.nic.uet.rdma_data_mss, def.nic.uet.rdma_data_mss);
    EXPECT_TRUE(sc.flows.messages.empty());
    EXPECT_EQ(sc.records.enabled, def.records.enabled);
    // Sections given with nothing under them are fine too.
    EXPECT_EQ(resolve_text("Switch:\nFlows:\nRoceNic: {}\nFaults: []\n").sw.hash_method,
              def.sw.hash_method);
}

TEST(config, defaults_in_the_key_reference_come_from_the_structs)
{
    const auto& keys = schema().keys;
    EXPECT_EQ(keys.find("Simulation.StopTime")->info.default_value, "1s");
    EXPECT_EQ(keys.find("Topology.LinkRate")->info.default_value, "400Gbps");
    EXPECT_EQ(keys.find("Switch.PlaneBDP")->info.default_value, "300KB");
    EXPECT_EQ(keys.find("Switch.EcmpHashMethod")->info.default_value, "crc32WithSalt");
    EXPECT_EQ(keys.find("UetNic.RdmaDataMSS")->info.default_value, "4KiB");
}

TEST(config, every_key_type_loads)
{
    scenario sc = resolve_text(R"(
Simulation:
  Name: run-1.a_b
  RandomSeed: 18446744073709551615
  StopTime: 2ms
  NDStatsReportInterval: 10us
  EpochUtc: 2024-02-29T23:59:59Z
Topology:
  Kind: leaf-spine
  Hosts: 32
  HostsPerLeaf: 4
  Spines: 2
  UplinksPerSpine: 2
  LinkRate: 800Gbps
Link:
  NicDelay: 0.2us
  SwitchDelay: 1e-6
Switch:
  EcmpHashMethod: dprWithFallback
  LoadBalancingMethod: none
  EnableLoadBalancingStats: FALSE
  LoadBalancingStatsReportInterval: 10us
  ForwardingLatency: 0ns
  TotalSharedBufferSize: 64MB
  PoolAllocationMap: 0.59, 0.41, 0, 0, 0, 0, 0, 0
  EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0]
  PlaneBDP: 600KB
  QueueDropThreshold: 3
  UETPolicyEnabled: true
  TrimmingEnabled: true
  EnableEcn: false
  EwmaWeight: 0.5
  MinThreshold: 0.1
  MaxThreshold: 0.9
  MaxMarkProbability: 0.25
UetNic:
  RdmaDataMSS: 2048
  EgressPoolAllocationVector: [0.6, 0.1, 0.1, 0.2, 0, 0, 0, 0]  # a pool for class 3's data
Flows:
  - {Src: 0, Dst: 31, Bytes: 1MB, Start: 5us, Entropy: 0x100, EntropyValues: 64, TrafficClass: 3}
  - Src: 4
    Dst: 5
    Bytes: 0
Records:
  Enabled: [flow-perf]
)");
    EXPECT_EQ(sc.simulation.name, "run-1.a_b");
    EXPECT_EQ(sc.simulation.random_seed, 18446744073709551615ull);
    EXPECT_EQ(sc.simulation.stop_time_s, 2e-3);
    EXPECT_EQ(sc.simulation.nd_stats_interval_s, 10e-6);
    EXPECT_EQ(sc.simulation.epoch_utc, "2024-02-29T23:59:59Z");
    EXPECT_EQ(sc.topology.hosts, 32u);
    EXPECT_EQ(sc.topology.hosts_per_leaf, 4u);
    EXPECT_EQ(sc.topology.spines, 2u);
    EXPECT_EQ(sc.topology.uplinks_per_spine, 2u);
    EXPECT_EQ(sc.topology.link_rate_bps, 800e9);
    EXPECT_EQ(sc.link.nic_delay_s, 0.2e-6);
    EXPECT_EQ(sc.link.switch_delay_s, 1e-6);
    EXPECT_EQ(sc.sw.hash_method, ecmp_hash_method::dpr_with_fallback);
    EXPECT_FALSE(sc.sw.enable_load_balancing_stats);
    EXPECT_EQ(sc.sw.load_balancing_stats_interval_s, 10e-6);
    EXPECT_EQ(sc.sw.forwarding_latency_s, 0.0);
    EXPECT_EQ(sc.sw.buffer.total_shared_buffer_size_bytes, 64'000'000u);
    EXPECT_EQ(sc.sw.buffer.pool_allocation_map,
              (std::vector<double>{0.59, 0.41, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(sc.sw.buffer.enable_pfc, std::vector<double>(8, 0.0));
    EXPECT_EQ(sc.sw.buffer.plane_bdp_bytes, 600000u);
    EXPECT_EQ(sc.sw.buffer.queue_drop_threshold, 3u);
    EXPECT_TRUE(sc.sw.buffer.uet_policy_enabled);
    EXPECT_TRUE(sc.sw.buffer.trimming_enabled);
    EXPECT_FALSE(sc.sw.enable_ecn);
    EXPECT_EQ(sc.sw.ewma_weight, 0.5);
    EXPECT_EQ(sc.sw.min_threshold, 0.1);
    EXPECT_EQ(sc.sw.max_threshold, 0.9);
    EXPECT_EQ(sc.sw.max_mark_probability, 0.25);
    EXPECT_EQ(sc.nic.uet.rdma_data_mss, 2048u);
    ASSERT_EQ(sc.flows.messages.size(), 2u);
    const auto& f = sc.flows.messages[0];
    EXPECT_EQ(f.src, 0u);
    EXPECT_EQ(f.dst, 31u);
    EXPECT_EQ(f.bytes, 1'000'000u);
    EXPECT_EQ(f.start_s, 5e-6);
    EXPECT_EQ(f.entropy, 256);
    EXPECT_EQ(f.entropy_values, 64u);
    EXPECT_EQ(f.traffic_class, 3);
    const auto& g = sc.flows.messages[1];  // optional fields keep the flow_spec defaults
    EXPECT_EQ(g.bytes, 0u);
    EXPECT_EQ(g.start_s, 0.0);
    EXPECT_EQ(g.entropy, -1);
    EXPECT_EQ(g.entropy_values, 1u);
    EXPECT_EQ(sc.records.enabled, std::vector<std::string>{"flow-perf"});
}

TEST(config, set_overrides_the_file_in_order)
{
    scenario sc = resolve_text("Topology:\n  Spines: 4\nSimulation:\n  Name: file\n",
                               {"Topology.Spines=2", "Simulation.Name=first",
                                "Simulation.Name=second", "Switch.EcmpHashMethod=hash"});
    EXPECT_EQ(sc.topology.spines, 2u);
    EXPECT_EQ(sc.simulation.name, "second");
    EXPECT_EQ(sc.sw.hash_method, ecmp_hash_method::hash);
}

TEST(config, set_takes_lists_and_flow_cells)
{
    scenario sc = resolve_text(
        "Flows:\n  - {Src: 0, Dst: 1, Bytes: 1KB}\n  - {Src: 1, Dst: 0, Bytes: 1KB}\n",
        {"Flows[1].Bytes=2MiB", "Flows[0].Entropy=7", "Records.Enabled=nd-stats, flow-perf"});
    EXPECT_EQ(sc.flows.messages[1].bytes, 2u * 1024 * 1024);
    EXPECT_EQ(sc.flows.messages[0].entropy, 7);
    EXPECT_EQ(sc.records.enabled, (std::vector<std::string>{"nd-stats", "flow-perf"}));
    sc = resolve_text("", {"Flows=[{Src: 2, Dst: 3, Bytes: 10B}]", "Records.Enabled=[]"});
    ASSERT_EQ(sc.flows.messages.size(), 1u);
    EXPECT_EQ(sc.flows.messages[0].dst, 3u);
    EXPECT_TRUE(sc.records.enabled.empty());
    // An override is checked against the other keys like the file's values.
    EXPECT_EQ(error_of("Flows:\n  - {Src: 0, Dst: 1, Bytes: 1KB}\n", {"Flows[0].Dst=0"}),
              "Flows[0]: Src and Dst are both 0; a flow needs two different hosts");
}

TEST(config, set_errors)
{
    EXPECT_EQ(error_of("", {"Topology.Hosts"}),
              "--set 'Topology.Hosts': expected Section.Key=VALUE, e.g. --set Topology.Hosts=32");
    EXPECT_EQ(error_of("", {"=5"}),
              "--set '=5': expected Section.Key=VALUE, e.g. --set Topology.Hosts=32");
    EXPECT_EQ(error_of("", {"Switch.EcmpHashMetod=crc32"}),
              "unknown key 'Switch.EcmpHashMetod'; did you mean 'Switch.EcmpHashMethod'?");
    EXPECT_EQ(error_of("", {"Topology.Hosts=abc"}), "Topology.Hosts: 'abc' is not a whole number");
    EXPECT_EQ(error_of("", {"Flows[0].Bytes=1MB"}),
              "--set Flows[0].Bytes: there is no Flows[0]; the scenario has 0 Flows");
    EXPECT_EQ(error_of("Flows: [{Src: 0, Dst: 1, Bytes: 1}]", {"Flows[0].Bytez=1MB"}),
              "unknown key 'Flows[0].Bytez'; did you mean 'Flows[0].Bytes'?");
    // A section that is not a list takes a device-name glob instead of a row number.
    EXPECT_EQ(error_of("", {"Switch[0].EnableEcn=true"}),
              "Switch[0].EnableEcn: '0' matches no switch of this topology; its switches are "
              "leaf0..leaf1, spine0..spine7");
    EXPECT_EQ(error_of("Flows: [{Src: 0, Dst: 1, Bytes: 1}]", {"Flows[x].Bytes=1MB"}),
              "--set Flows[x].Bytes: a row of Flows is chosen by its number, e.g. Flows[3]");
    EXPECT_EQ(error_of("", {"Topology=1"}),
              "--set Topology: Topology is a section; --set takes a key such as "
              "Topology.Kind=VALUE");
    EXPECT_EQ(error_of("", {"Flows=[{Src: 0"}),
              "--set Flows: malformed YAML value '[{Src: 0': end of map flow not found");
}

TEST(config, unknown_key_names_the_closest)
{
    EXPECT_EQ(error_of("Switch:\n  EcmpHashMetod: crc32\n"),
              "scenario.yaml:2:3: unknown key 'Switch.EcmpHashMetod'; did you mean "
              "'Switch.EcmpHashMethod'?");
    EXPECT_EQ(error_of("Switch:\n  rdmadatamss: 1KB\n"),
              "scenario.yaml:2:3: unknown key 'Switch.rdmadatamss'; did you mean "
              "'UetNic.RdmaDataMSS'?");
    EXPECT_EQ(error_of("Topology:\n  Qqqqqqqqqqqq: 1\n"),
              "scenario.yaml:2:3: unknown key 'Topology.Qqqqqqqqqqqq'; the Topology keys are "
              "Topology.Kind, Topology.Hosts, Topology.HostsPerLeaf, Topology.Spines, "
              "Topology.UplinksPerSpine, Topology.K, Topology.LinkRate");
    // A section of more than 12 keys (Link, with LLR and CBFC) points to the full list.
    EXPECT_EQ(error_of("Link:\n  Bogus: 1\n"),
              "scenario.yaml:2:3: unknown key 'Link.Bogus'; 'uetsim keys' lists every key");
    // Sections without keys in this version: any key is unknown.
    EXPECT_EQ(error_of("Check:\n  Foo: 1\n"),
              "scenario.yaml:2:3: unknown key 'Check.Foo'; the Check section has no keys in "
              "this version");
    EXPECT_EQ(error_of("Flows:\n  - {Src: 0, Dest: 1, Bytes: 1}\n"),
              "scenario.yaml:2:14: unknown key 'Flows[0].Dest'; did you mean 'Flows[0].Dst'?");
}

TEST(config, unknown_section_names_the_closest)
{
    EXPECT_EQ(error_of("Swtich:\n  EnableEcn: true\n"),
              "scenario.yaml:1:1: unknown section 'Swtich'; did you mean 'Switch'?");
    EXPECT_EQ(error_of("Zzz: 1\n"),
              "scenario.yaml:1:1: unknown section 'Zzz'; the sections are Simulation, Topology, "
              "Link, Nic, Switch, UetNic, RoceNic, Pcie, RdmaApplication, Flows, Chakra, "
              "Collectives, Faults, Records, "
              "Trace, Rtl, Capture, Check");
    EXPECT_EQ(error_of("Faults:\n  - {At: 1us}\n"),
              "scenario.yaml:2:5: Faults[0]: Link is required");
    EXPECT_EQ(error_of("Faults:\n  - {At: 1us, Link: leaf0-spine9, Action: down}\n"),
              "Faults[0].Link: 'leaf0-spine9' is not a link of this topology; did you mean "
              "'leaf0-spine0'? (links are named by their two ends, lower tier first, e.g. "
              "host0-leaf0)");
    // roce is modelled: the RoCE NIC at every host, with the RDMA application by default.
    EXPECT_EQ(error_of("Nic:\n  Type: roce\n"), "no error");
    EXPECT_EQ(resolve_text("Nic:\n  Type: roce\n").nic.type, nic_kind::roce);
    EXPECT_EQ(error_of("Nic:\n  Type: rocev2\n")
                  .rfind("scenario.yaml:2:9: Nic.Type: 'rocev2' is not one of uet, raw, roce", 0),
              0u);
}

TEST(config, wrong_types)
{
    EXPECT_EQ(error_of("Topology:\n  Hosts: abc\n"),
              "scenario.yaml:2:10: Topology.Hosts: 'abc' is not a whole number");
    EXPECT_EQ(error_of("Topology:\n  Hosts: 16.5\n"),
              "scenario.yaml:2:10: Topology.Hosts: '16.5' is not a whole number");
    EXPECT_EQ(error_of("Switch:\n  EnableEcn: yes\n"),
              "scenario.yaml:2:14: Switch.EnableEcn: 'yes' is not a boolean (true or false)");
    EXPECT_EQ(error_of("Switch:\n  EwmaWeight: high\n"),
              "scenario.yaml:2:15: Switch.EwmaWeight: 'high' is not a number");
    EXPECT_EQ(error_of("Topology:\n  LinkRate: 6us\n"),
              "scenario.yaml:2:13: Topology.LinkRate: '6us' is a time, expected a data rate such "
              "as 400Gbps");
    EXPECT_EQ(error_of("Link:\n  NicDelay: fast\n"),
              "scenario.yaml:2:13: Link.NicDelay: 'fast' is not a time (a number in s or a value "
              "with a unit such as 6us)");
    EXPECT_EQ(error_of("Switch:\n  PlaneBDP: 1.5B\n"),
              "scenario.yaml:2:13: Switch.PlaneBDP: '1.5B' is not a whole number of bytes");
    EXPECT_EQ(error_of("Topology:\n  Hosts: [1, 2]\n"),
              "scenario.yaml:2:10: Topology.Hosts: expected a single value, got a list");
    EXPECT_EQ(error_of("Topology:\n  Hosts:\n"),
              "scenario.yaml:2:3: Topology.Hosts: no value given");
    EXPECT_EQ(error_of("Topology:\n  Hosts: ~\n"),
              "scenario.yaml:2:3: Topology.Hosts: no value given");
    EXPECT_EQ(error_of("Topology: 16\n"),
              "scenario.yaml:1:11: Topology: expected a map of keys, got a single value");
    EXPECT_EQ(error_of("Flows:\n  Src: 1\n"),
              "scenario.yaml:2:3: Flows: expected a list of maps such as {Src: 0, Dst: 8, Bytes: "
              "4MiB, Start: 0s}");
    EXPECT_EQ(error_of("Records:\n  Enabled: {a: 1}\n"),
              "scenario.yaml:2:12: Records.Enabled: expected a list, got a map");
}

TEST(config, out_of_range)
{
    EXPECT_EQ(error_of("Topology:\n  Hosts: 70000\n"),
              "scenario.yaml:2:10: Topology.Hosts: 70000 is out of range 1..65536");
    EXPECT_EQ(error_of("Topology:\n  Hosts: -1\n"),
              "scenario.yaml:2:10: Topology.Hosts: -1 is out of range 1..65536");
    EXPECT_EQ(error_of("Topology:\n  Hosts: 99999999999999999999999\n"),
              "scenario.yaml:2:10: Topology.Hosts: 99999999999999999999999 is out of range "
              "1..65536");
    EXPECT_EQ(error_of("Topology:\n  Kind: fat-tree\n  K: 66\n"),
              "scenario.yaml:3:6: Topology.K: 66 is out of range 2..64, even");
    EXPECT_EQ(error_of("Topology:\n  Kind: fat-tree\n  K: 5\n"),
              "scenario.yaml:3:6: Topology.K: 5 is not even");
    EXPECT_EQ(error_of("Topology:\n  LinkRate: 4Tbps\n"),
              "scenario.yaml:2:13: Topology.LinkRate: 4Tbps is out of range 1Gbps..3200Gbps");
    EXPECT_EQ(error_of("Simulation:\n  StopTime: 0s\n"),
              "scenario.yaml:2:13: Simulation.StopTime: 0s is out of range: must be greater than "
              "0s and at most 100s");
    EXPECT_EQ(error_of("Simulation:\n  NDStatsReportInterval: 100ns\n"),
              "scenario.yaml:2:26: Simulation.NDStatsReportInterval: 100ns is out of range "
              "1us..10s");
    EXPECT_EQ(error_of("Switch:\n  LoadBalancingStatsReportInterval: 9us\n"),
              "scenario.yaml:2:37: Switch.LoadBalancingStatsReportInterval: 9us is out of range "
              "10us..10s");
    EXPECT_EQ(error_of("Link:\n  SwitchDelay: -1ns\n"),
              "scenario.yaml:2:16: Link.SwitchDelay: '-1ns' is negative");
    EXPECT_EQ(error_of("Switch:\n  MaxThreshold: 1.5\n"),
              "scenario.yaml:2:17: Switch.MaxThreshold: 1.5 is out of range 0..1");
    EXPECT_EQ(error_of("UetNic:\n  RdmaDataMSS: 9KiB\n"),
              "scenario.yaml:2:16: UetNic.RdmaDataMSS: '9KiB' (9216 B) is out of range 64..9000 B");
    EXPECT_EQ(error_of("Switch:\n  TotalSharedBufferSize: 4294967296\n"),
              "scenario.yaml:2:26: Switch.TotalSharedBufferSize: 4294967296 is out of range "
              "1..4294967295 B");
    EXPECT_EQ(error_of("Flows:\n  - {Src: 0, Dst: 1, Bytes: 1, Entropy: 65536}\n"),
              "scenario.yaml:2:41: Flows[0].Entropy: 65536 is out of range -1..65535");
    EXPECT_EQ(error_of("Flows:\n  - {Src: 0, Dst: 1, Bytes: 1, TrafficClass: 8}\n"),
              "scenario.yaml:2:46: Flows[0].TrafficClass: 8 is out of range 0..7");
}

TEST(config, text_rules)
{
    EXPECT_EQ(error_of("Simulation:\n  Name: my run\n"),
              "scenario.yaml:2:9: Simulation.Name: 'my run' may only contain letters, digits, "
              "'_', '.' and '-' (it prefixes record file names)");
    EXPECT_EQ(error_of("Simulation:\n  Name: ''\n"),
              "scenario.yaml:2:9: Simulation.Name: '' may only contain letters, digits, '_', "
              "'.' and '-' (it prefixes record file names)");
    EXPECT_EQ(error_of("Simulation:\n  EpochUtc: 2025-02-29T00:00:00Z\n"),
              "scenario.yaml:2:13: Simulation.EpochUtc: '2025-02-29T00:00:00Z' is not an ISO "
              "8601 UTC time such as 2026-01-01T00:00:00Z");
    EXPECT_EQ(error_of("Simulation:\n  EpochUtc: 2026-01-01 00:00:00\n"),
              "scenario.yaml:2:13: Simulation.EpochUtc: '2026-01-01 00:00:00' is not an ISO "
              "8601 UTC time such as 2026-01-01T00:00:00Z");
}

TEST(config, unknown_enum_value_lists_the_allowed)
{
    EXPECT_EQ(error_of("Switch:\n  EcmpHashMethod: crc33\n"),
              "scenario.yaml:2:19: Switch.EcmpHashMethod: 'crc33' is not one of crc32WithSalt, "
              "crc32, hashWithSalt, hash, dpr, dprWithFallback; did you mean 'crc32'?");
    EXPECT_EQ(error_of("Topology:\n  Kind: torus\n"),
              "scenario.yaml:2:9: Topology.Kind: 'torus' is not one of leaf-spine, fat-tree, "
              "single-switch");
    EXPECT_EQ(error_of("Switch:\n  LoadBalancingMethod: flowlets\n"),
              "scenario.yaml:2:24: Switch.LoadBalancingMethod: 'flowlets' is not one of none, "
              "flowlet; did you mean 'flowlet'?");
    EXPECT_EQ(
        error_of("Records:\n  Enabled: [nd-stats, foo]\n"),
        "scenario.yaml:2:23: Records.Enabled[1]: 'foo' is not one of nd-stats, "
        "scala-switch-load-balancing-stats, flow-perf, uet-transport-stats, rdma-perf, beacon, "
        "pcie-stats, nic-pipeline-stats, ecn-pfc-stats, scala-switch-agg-buff-stats, "
        "roce-transport-stats, net-buff-stats, topology-report, tier-hop, cpu-mem-stats, "
        "application-report, perf, chakra-capable-hosts, chakra-mapping, chakra-apps, "
        "chakra-perf, chakra-completion-stats, chakra-cdf, chakra-comm-collective-stats, "
        "chakra-comm-collective-percentiles-stats, chakra-busbw, link-stats");
    EXPECT_EQ(error_of("Records:\n  Enabled: [nd-stats, nd-stats]\n"),
              "scenario.yaml:2:23: Records.Enabled[1]: 'nd-stats' is listed twice");
}

TEST(config, the_old_name_of_the_load_balancing_record_is_read_as_the_new_one)
{
    // switch-load-balancing-stats was renamed to the reference's name; for one release the old
    // name still works, with a note on stderr.
    testing::internal::CaptureStderr();
    const scenario sc =
        resolve_text("Records:\n  Enabled: [nd-stats, switch-load-balancing-stats]\n");
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(sc.records.enabled,
              (std::vector<std::string>{"nd-stats", "scala-switch-load-balancing-stats"}));
    EXPECT_NE(err.find("'switch-load-balancing-stats' is now named "
                       "'scala-switch-load-balancing-stats'"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("Records.Enabled"), std::string::npos) << err;
}

TEST(config, malformed_yaml_gives_file_line_and_column)
{
    EXPECT_EQ(error_of("Switch:\n  EnableEcn: [true\n"),
              "scenario.yaml:3:1: malformed YAML: end of sequence flow not found");
    EXPECT_EQ(error_of("Switch:\n  EnableEcn: true\n   bad: 1\n"),
              "scenario.yaml:3:7: malformed YAML: illegal map value");
}

TEST(config, document_shape)
{
    EXPECT_EQ(error_of("Switch:\n  EnableEcn: true\n  EnableEcn: false\n"),
              "scenario.yaml:3:3: duplicate key 'Switch.EnableEcn' (first given at line 2)");
    EXPECT_EQ(error_of("Link: {}\nLink: {}\n"),
              "scenario.yaml:2:1: duplicate key 'Link' (first given at line 1)");
    EXPECT_EQ(error_of("- a\n- b\n"),
              "scenario.yaml:1:1: a scenario must be a map of sections (Simulation, Topology, "
              "...), not a list");
    EXPECT_EQ(error_of("hello\n"),
              "scenario.yaml:1:1: a scenario must be a map of sections (Simulation, Topology, "
              "...), not a single value");
    EXPECT_EQ(error_of("Link: {}\n---\nLink: {}\n"),
              "scenario.yaml: holds more than one YAML document (a '---' line, or a ',' outside "
              "[ ] and { }); a scenario is a single document");
    // yaml-cpp's LoadAll never returned on a ',' at the top (found by the scenario fuzzer).
    EXPECT_EQ(error_of(", Entropy: 1004}\n  - {Src: 6, ,d=true"),
              "scenario.yaml: holds more than one YAML document (a '---' line, or a ',' outside "
              "[ ] and { }); a scenario is a single document");
    EXPECT_EQ(error_of(","),
              "scenario.yaml: holds more than one YAML document (a '---' line, or a ',' outside "
              "[ ] and { }); a scenario is a single document");
    EXPECT_EQ(error_of("Flows:\n  - [0, 1]\n"),
              "scenario.yaml:2:5: Flows[0]: expected a map of Src, Dst, Bytes, Start, Entropy, "
              "EntropyValues, TrafficClass, CompletionAt, RecvPostedAt, Mode, JobId");
    EXPECT_EQ(error_of("Flows:\n  - {Src: 0, Bytes: 1}\n"),
              "scenario.yaml:2:5: Flows[0]: Dst is required");
}

TEST(config, cross_field_rules_name_both_keys)
{
    EXPECT_EQ(error_of("Topology:\n  Hosts: 20\n"),
              "Topology.Hosts (20) must be a multiple of Topology.HostsPerLeaf (8) for a "
              "leaf-spine topology");
    EXPECT_EQ(error_of("Topology:\n  Kind: fat-tree\n  Hosts: 20\n"),
              "Topology.Hosts: 20 cannot be set for a fat-tree: its host count is derived from "
              "Topology.K (K^3/4 = 16 for K = 4); remove Topology.Hosts or change Topology.K");
    EXPECT_EQ(error_of("Switch:\n  TrimmingEnabled: true\n"),
              "Switch.TrimmingEnabled is true but Switch.UETPolicyEnabled is false; trimming "
              "requires the UET policy (set Switch.UETPolicyEnabled: true)");
    // Trimming with the default EnablePFC [1, 1, 0, ...]: the page's rule stops the run.
    EXPECT_EQ(error_of("Switch:\n  TrimmingEnabled: true\n  UETPolicyEnabled: true\n"),
              "Switch.EnablePFC [1, 1, 0, 0, 0, 0, 0, 0] enables PFC while Switch.TrimmingEnabled "
              "is true; trimming needs PFC off for every class (all entries 0: set "
              "Switch.EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0])");
    EXPECT_EQ(error_of("Switch:\n  PoolAllocationMap: [0.9, 0.1]\n"),
              "Switch.PoolAllocationMap [0.9, 0.1] has 2 entries; it needs exactly 8, one for "
              "each pool 0 to 7");
    EXPECT_EQ(error_of("Switch:\n  EnablePFC: 1, 1, 0, 0, 0, 0, 0, 2\n"),
              "Switch.EnablePFC [1, 1, 0, 0, 0, 0, 0, 2]: entry 7 is 2; allowed: 0 (lossy) or 1 "
              "(lossless)");
    EXPECT_EQ(error_of("Switch:\n  PoolAllocationMap: [0, 0, 0, 0, 0, 0, 0, 0]\n"),
              "Switch.PoolAllocationMap [0, 0, 0, 0, 0, 0, 0, 0] has no non-zero entry; at least "
              "one pool must get a fraction");
    EXPECT_EQ(error_of("Switch:\n  TrafficClassPoolMapping: [0, x, 0, 0, 0, 0, 0, 0]\n"),
              "scenario.yaml:2:32: Switch.TrafficClassPoolMapping[1]: 'x' is not a number");
    // 16 connected ports on each leaf of the default fabric: 16 x 16 MB > 200 MB.
    EXPECT_EQ(error_of("Switch:\n  HeadRoomPerPortLimit: 16MB\n  TotalSharedBufferSize: 200MB\n"),
              "leaf0: Switch.HeadRoomPerPortLimit 16000000 B x 16 connected ports = 256000000 B "
              "of headroom is larger than Switch.TotalSharedBufferSize 200000000 B; allowed: at "
              "most TotalSharedBufferSize / connected ports = 12500000 B");
    EXPECT_EQ(error_of("Switch:\n  MinThreshold: 0.5\n  MaxThreshold: 0.4\n"),
              "Switch.MaxThreshold (0.4) must be at least Switch.MinThreshold (0.5)");
    EXPECT_EQ(error_of("Flows:\n  - {Src: 0, Dst: 1, Bytes: 1}\n  - {Src: 0, Dst: 16, Bytes: 1}\n"),
              "Flows[1].Dst: 16 is out of range 0..15 (the topology has 16 hosts)");
    EXPECT_EQ(
        error_of(
            "Topology: {Kind: single-switch, Hosts: 4}\nFlows: [{Src: 4, Dst: 1, Bytes: 1}]\n"),
        "Flows[0].Src: 4 is out of range 0..3 (the topology has 4 hosts)");
    EXPECT_EQ(error_of("Flows:\n  - {Src: 3, Dst: 3, Bytes: 1}\n"),
              "Flows[0]: Src and Dst are both 3; a flow needs two different hosts");
    EXPECT_EQ(
        error_of("Flows:\n  - {Src: 0, Dst: 1, Bytes: 1, Entropy: 65500, EntropyValues: 100}\n"),
        "Flows[0]: Entropy 65500 with 100 EntropyValues goes past 65535");
    EXPECT_EQ(
        error_of(
            "Simulation: {StopTime: 1ms}\nFlows:\n  - {Src: 0, Dst: 1, Bytes: 1, Start: 2ms}\n"),
        "Flows[0].Start: 2ms is not before Simulation.StopTime (1ms)");
}

TEST(config, rdma_application_keys_load)
{
    scenario sc = resolve_text(R"(
Simulation:
  StartTime: 0
  ClientStartOffset: 10us
  ClientStartInterval: 20us
  WarmUp: 0s
  RunTime: 1ms
  CoolDown: 5us
  BeaconReportInterval: 100us
Pcie:
  NicSideLaneBps: 16Gbps
  NicSideLaneCount: 8
  HostSideLaneBps: 32Gbps
  HostSideLaneCount: 4
  MaxPayloadSize: 256
  TlpOverhead: 24B
  ReadRequestSize: 0
  CompletionSize: 32B
  Latency: 200ns
RdmaApplication:
  InitiatorRatio: 0.25
  ResponderRatio: 0.75
  NumConnections: 1024
  MaxPendingWQEs: 0
  StartType: sequential
  WqeSize: 1MiB
  DoorbellPayloadSize: 0
  RdmaDataPacketTC: 7
  OpCode: RDMA_OPCODE_WRITE_FIRST
  RdmaVerb: RDMA_VERB_POST_WRITE
UetNic:
  EgressPoolAllocationVector: [0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]  # a pool for class 7
Records:
  Enabled: [rdma-perf, beacon, pcie-stats]
)");
    EXPECT_EQ(sc.simulation.timeline.start_time, 0.0);
    EXPECT_EQ(sc.simulation.timeline.client_start_offset, 10e-6);
    EXPECT_EQ(sc.simulation.timeline.client_start_interval, 20e-6);
    EXPECT_EQ(sc.simulation.timeline.warm_up, 0.0);
    EXPECT_EQ(sc.simulation.timeline.run_time, 1e-3);
    EXPECT_EQ(sc.simulation.timeline.cool_down, 5e-6);
    EXPECT_EQ(sc.simulation.beacon_interval_s, 100e-6);
    EXPECT_EQ(sc.simulation.stop_time_s, make_timeline(sc.simulation.timeline).stop_time_s);
    EXPECT_EQ(sc.pcie.nic_side_lane_bps, 16e9);
    EXPECT_EQ(sc.pcie.nic_side_lanes, 8u);
    EXPECT_EQ(sc.pcie.host_side_lane_bps, 32e9);
    EXPECT_EQ(sc.pcie.host_side_lanes, 4u);
    EXPECT_EQ(sc.pcie.max_payload, 256u);
    EXPECT_EQ(sc.pcie.tlp_overhead, 24u);
    EXPECT_EQ(sc.pcie.read_request, 0u);
    EXPECT_EQ(sc.pcie.completion_bytes, 32u);
    EXPECT_EQ(sc.pcie.latency_s, 200e-9);
    EXPECT_TRUE(sc.rdma.enabled);
    EXPECT_EQ(sc.rdma.initiator_ratio, 0.25);
    EXPECT_EQ(sc.rdma.responder_ratio, 0.75);
    EXPECT_EQ(sc.rdma.num_connections, 1024u);
    EXPECT_EQ(sc.rdma.max_pending_wqes, 0u);
    EXPECT_EQ(sc.rdma.start, start_type::sequential);
    EXPECT_EQ(sc.rdma.wqe_bytes, 1u << 20);
    EXPECT_EQ(sc.rdma.doorbell_payload_bytes, 0u);
    EXPECT_EQ(sc.rdma.data_tc, 7u);
    EXPECT_EQ(sc.records.enabled, (std::vector<std::string>{"rdma-perf", "beacon", "pcie-stats"}));
}

TEST(config, pcie_defaults_come_from_the_struct)
{
    const auto& keys = schema().keys;
    EXPECT_EQ(keys.find("Pcie.NicSideLaneBps")->info.default_value, "31520Mbps");
    EXPECT_EQ(keys.find("Pcie.NicSideLaneCount")->info.default_value, "16");
    EXPECT_EQ(keys.find("Pcie.MaxPayloadSize")->info.default_value, "512B");
    EXPECT_EQ(keys.find("Simulation.RunTime")->info.default_value, "500ms");
    EXPECT_EQ(keys.find("RdmaApplication.StartType")->info.default_value, "simultaneous");
    EXPECT_EQ(keys.find("UetNic.PcieLaneRate"), nullptr);
    EXPECT_EQ(keys.find("UetNic.PcieLaneCount"), nullptr);
}

TEST(config, rdma_application_is_on_exactly_when_flows_is_empty)
{
    const std::string flow = "Flows: [{Src: 0, Dst: 1, Bytes: 1}]\n";
    EXPECT_TRUE(resolve_text("").rdma.enabled);
    EXPECT_TRUE(resolve_text("Flows: []\n").rdma.enabled);
    scenario sc = resolve_text(flow);
    EXPECT_FALSE(sc.rdma.enabled);
    EXPECT_EQ(sc.simulation.stop_time_s, 1.0);  // a Flows run keeps StopTime
    EXPECT_FALSE(resolve_text("RdmaApplication: {Enabled: false}\n").rdma.enabled);
    EXPECT_TRUE(resolve_text(flow + "RdmaApplication: {Enabled: true}\n").rdma.enabled);
    // Raw ports with Flows: the application is off, so raw is fine.
    EXPECT_FALSE(resolve_text(flow + "Nic: {Type: raw}\n").rdma.enabled);
    // With the application off, its keys are not checked against each other.
    EXPECT_EQ(error_of("RdmaApplication: {Enabled: false, InitiatorRatio: 0.6, ResponderRatio: "
                       "0.6}\n"),
              "no error");
}

TEST(config, rdma_application_stop_time)
{
    // The timeline's stop time, or StopTime if given and earlier.
    EXPECT_EQ(resolve_text("Simulation: {StopTime: 10ms}\n").simulation.stop_time_s, 10e-3);
    scenario sc = resolve_text("Simulation: {StopTime: 2s}\n");
    EXPECT_EQ(sc.simulation.stop_time_s, make_timeline(sc.simulation.timeline).stop_time_s);
    EXPECT_NEAR(sc.simulation.stop_time_s, 0.506, 1e-12);
    // Flows starts are checked against the resolved stop time.
    EXPECT_EQ(error_of("Simulation: {RunTime: 0s}\nRdmaApplication: {Enabled: true}\n"
                       "Flows: [{Src: 0, Dst: 1, Bytes: 1, Start: 10ms}]\n"),
              "Flows[0].Start: 10ms is not before Simulation.StopTime (6ms)");
    EXPECT_EQ(error_of("Simulation: {StartTime: 0, ClientStartOffset: 0, ClientStartInterval: 0, "
                       "WarmUp: 0, RunTime: 0, CoolDown: 0}\n"),
              "Simulation.StartTime + ClientStartOffset + ClientStartInterval + WarmUp + RunTime "
              "+ CoolDown = 0s: the RDMA application's timeline must end after 0s");
}

TEST(config, rdma_application_rules)
{
    EXPECT_EQ(error_of("RdmaApplication: {InitiatorRatio: 0.6, ResponderRatio: 0.6}\n"),
              "RdmaApplication.InitiatorRatio + RdmaApplication.ResponderRatio = 0.6 + 0.6 = 1.2: "
              "the ratios must add up to 1");
    EXPECT_EQ(error_of("RdmaApplication: {InitiatorRatio: 0, ResponderRatio: 1}\n"),
              "RdmaApplication.InitiatorRatio = 0: a ratio of 0 is invalid");
    EXPECT_EQ(error_of("Nic: {Type: raw}\n"),
              "Nic.Type is raw but the RDMA application needs NICs: set Nic.Type: uet, or give "
              "Flows and RdmaApplication.Enabled: false");
    EXPECT_EQ(error_of("Topology: {Kind: single-switch, Hosts: 1}\n"),
              "Topology.Hosts: 1: the RDMA application needs at least 2 hosts (an Initiator and a "
              "Responder never share a host), or set RdmaApplication.Enabled: false");
    EXPECT_EQ(error_of("Simulation:\n  WarmUp: -0.001\n"),
              "scenario.yaml:2:11: Simulation.WarmUp: '-0.001' is negative");
    EXPECT_EQ(error_of("", {"Simulation.StartTime=-1"}), "Simulation.StartTime: '-1' is negative");
    EXPECT_EQ(error_of("RdmaApplication:\n  StartType: burst\n"),
              "scenario.yaml:2:14: RdmaApplication.StartType: 'burst' is not one of simultaneous, "
              "uniform, sequential");
    EXPECT_EQ(error_of("RdmaApplication:\n  OpCode: RDMA_OPCODE_READ\n"),
              "scenario.yaml:2:11: RdmaApplication.OpCode: 'RDMA_OPCODE_READ' is not one of "
              "RDMA_OPCODE_WRITE_FIRST");
    EXPECT_EQ(error_of("", {"RdmaApplication.RdmaDataPacketTC=8"}),
              "RdmaApplication.RdmaDataPacketTC: 8 is out of range 0..7");
    EXPECT_EQ(error_of("", {"RdmaApplication.WqeSize=0"}),
              "RdmaApplication.WqeSize: 0 is out of range 1..1073741824 B");
    EXPECT_EQ(error_of("", {"Simulation.BeaconReportInterval=0"}),
              "Simulation.BeaconReportInterval: 0 is out of range 1us..10s");
}

TEST(config, fat_tree_hosts_are_derived)
{
    scenario sc = resolve_text("Topology:\n  Kind: fat-tree\n  K: 6\n");
    EXPECT_EQ(sc.topology.hosts, 54u);
    // Giving the derived value is consistent, so a printed scenario loads again.
    EXPECT_EQ(resolve_text("Topology: {Kind: fat-tree, K: 4, Hosts: 16}").topology.hosts, 16u);
    EXPECT_EQ(resolve_text("Topology: {Kind: fat-tree, K: 4}\nFlows: [{Src: 15, Dst: 0, Bytes: 1}]")
                  .flows.messages.size(),
              1u);
}

TEST(config, printed_scenario_loads_back_identically)
{
    scenario_builder b;
    b.load_default();
    b.apply_set("Topology.Kind=fat-tree");
    b.apply_set("Topology.K=6");
    b.apply_set("Link.NicDelay=123.456ns");
    b.apply_set("Switch.EwmaWeight=0.3");
    scenario sc = b.finish();
    std::string yaml = scenario_yaml(sc);
    scenario again = resolve_text(yaml);
    EXPECT_EQ(scenario_yaml(again), yaml);
    EXPECT_EQ(scenario_json(again), scenario_json(sc));
    EXPECT_EQ(again.link.nic_delay_s, sc.link.nic_delay_s);
}

// The resolved scenario of every example and bench scenario (Flows, Chakra, RDMA, PCIe, ...)
// prints as a document that resolves to the same text: `uetsim inspect` output is a scenario.
TEST(config, every_example_prints_back_identically)
{
    namespace fs = std::filesystem;
    size_t checked = 0;
    for (const char* dir : {"/examples", "/examples/failure-modes", "/bench/scenarios"})
        for (const auto& e : fs::directory_iterator(source_dir() + dir)) {
            if (e.path().extension() != ".yaml") continue;
            SCOPED_TRACE(e.path().string());
            scenario_builder b;
            b.load_file(e.path().string());
            const std::string yaml = scenario_yaml(b.finish());
            testing::internal::CaptureStderr();
            EXPECT_EQ(scenario_yaml(resolve_text(yaml)), yaml);
            EXPECT_EQ(testing::internal::GetCapturedStderr(), "")
                << "reading a printed scenario warns of nothing (no deprecated key printed)";
            ++checked;
        }
    EXPECT_GE(checked, 26u);
}

// An optional time prints as `none` when not given, which reads back as not given.
TEST(config, recv_posted_at_not_given_prints_as_none)
{
    const scenario sc = resolve_text(
        "Nic: {Type: uet}\nFlows: [{Src: 0, Dst: 1, Bytes: 4KiB}, "
        "{Src: 1, Dst: 0, Bytes: 4KiB, RecvPostedAt: 2us}]");
    const std::string yaml = scenario_yaml(sc);
    EXPECT_NE(yaml.find("RecvPostedAt: none"), std::string::npos) << yaml;
    EXPECT_NE(yaml.find("RecvPostedAt: 2us"), std::string::npos) << yaml;
    const scenario again = resolve_text(yaml);
    EXPECT_LT(again.flows.messages[0].recv_posted_s, 0);
    EXPECT_EQ(again.flows.messages[1].recv_posted_s, 2e-6);
    EXPECT_EQ(error_of("Nic: {Type: uet}\nFlows: [{Src: 0, Dst: 1, Bytes: 1, RecvPostedAt: -1s}]"),
              "scenario.yaml:2:50: Flows[0].RecvPostedAt: '-1s' is negative; or the word none");
}

// A fault that is not a degrade prints its Rate as 0bps (not given), which loads again; a degrade
// still needs 1 Mbps or more.
TEST(config, a_printed_fault_without_a_rate_loads_back)
{
    const std::string yaml =
        scenario_yaml(resolve_text("Faults: [{At: 10us, Link: leaf0-spine0, Action: down}]"));
    EXPECT_NE(yaml.find("Rate: 0bps"), std::string::npos) << yaml;
    EXPECT_EQ(scenario_yaml(resolve_text(yaml)), yaml);
    EXPECT_EQ(error_of("Faults: [{At: 1us, Link: leaf0-spine0, Action: degrade, Rate: 500Kbps}]"),
              "Faults[0].Rate: 500Kbps is below 1Mbps, the slowest a degraded link runs at");
    EXPECT_EQ(error_of("Faults: [{At: 1us, Link: leaf0-spine0, Action: degrade}]"),
              "Faults[0]: Action degrade needs a Rate, e.g. Rate: 100Gbps");
}

TEST(config, printed_defaults_load_back)
{
    // Every default must itself be an allowed value.
    std::string yaml = scenario_yaml(resolve_text(""));
    EXPECT_EQ(scenario_yaml(resolve_text(yaml)), yaml);
}

TEST(config, json_uses_si_base_units)
{
    auto j = scenario_json(resolve_text("Link: {NicDelay: 100ns}\nSwitch: {PlaneBDP: 1KiB}\n"));
    EXPECT_EQ(j["Link"]["NicDelay"].get<double>(), 100e-9);
    EXPECT_EQ(j["Topology"]["LinkRate"].get<double>(), 400e9);
    EXPECT_EQ(j["Switch"]["PlaneBDP"].get<uint64_t>(), 1024u);
    EXPECT_EQ(j["Switch"]["EcmpHashMethod"].get<std::string>(), "crc32WithSalt");
    EXPECT_EQ(j["Records"]["Enabled"].size(), scenario{}.records.enabled.size());
    EXPECT_TRUE(j["Flows"].is_array());
}

TEST(config, default_scenario_is_the_16_host_leaf_spine)
{
    scenario sc = resolve_scenario("", {});
    EXPECT_EQ(sc.topology.kind, topology_kind::leaf_spine);
    EXPECT_EQ(sc.topology.hosts, 16u);
    EXPECT_EQ(sc.topology.hosts_per_leaf, 8u);
    EXPECT_EQ(sc.topology.spines, 8u);
    EXPECT_EQ(sc.topology.link_rate_bps, 400e9);
    EXPECT_EQ(sc.nic.type, nic_kind::uet);
    EXPECT_EQ(sc.nic.spraying.type, packet_spraying_type::default_spraying);
    // The RDMA application with its defaults, except a 50 ms RunTime; no Flows.
    EXPECT_TRUE(sc.flows.messages.empty());
    EXPECT_TRUE(sc.rdma.enabled);
    EXPECT_EQ(sc.rdma.initiator_ratio, 0.5);
    EXPECT_EQ(sc.rdma.responder_ratio, 0.5);
    EXPECT_EQ(sc.rdma.num_connections, 1u);
    EXPECT_EQ(sc.rdma.max_pending_wqes, 10u);
    EXPECT_EQ(sc.rdma.wqe_bytes, 250000u);
    EXPECT_EQ(sc.simulation.timeline.run_time, 0.05);
    // The run ends at the timeline's stop time: 0.005 s + 50 ms + 1 ms.
    EXPECT_EQ(sc.simulation.stop_time_s, make_timeline(sc.simulation.timeline).stop_time_s);
    EXPECT_NEAR(sc.simulation.stop_time_s, 0.056, 1e-12);
}

TEST(config, examples_validate)
{
    std::string root = source_dir();
    int n = 0;
    for (const char* dir : {"/examples", "/examples/failure-modes"})
        for (const auto& entry : std::filesystem::directory_iterator(root + dir)) {
            if (entry.path().extension() != ".yaml") continue;
            EXPECT_NO_THROW(resolve_scenario(entry.path().string(), {})) << entry.path();
            ++n;
        }
    EXPECT_GE(n, 11);
}

TEST(config, missing_file)
{
    try {
        resolve_scenario("/nonexistent/x.yaml", {});
        FAIL() << "no error";
    } catch (const config_error& e) {
        EXPECT_STREQ(e.what(), "cannot read scenario file '/nonexistent/x.yaml': no such file");
    }
}

}  // namespace
}  // namespace uetsim::config
