// The RDMA application's scenario keys as users give them to the real `uetsim` command: bad
// values exit 2 with one message naming the key and the value; `validate` accepts the defaults;
// `inspect --json` shows the application's timeline, placement and WQE shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

namespace uetsim::test {
namespace {

namespace fs = std::filesystem;

// A scenario with every default: no Flows, so the RDMA application is on.
std::string empty_scenario()
{
    return write_file(scratch_dir("rdma-config") + "/empty.yaml", "");
}

// `validate` of the default scenario with these --set overrides.
std::vector<std::string> validate_with(const std::vector<std::string>& sets)
{
    std::vector<std::string> args = {"validate", empty_scenario()};
    for (const auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    return args;
}

// Bad input: exit 2, one stderr line "uetsim: error: ..." holding every `expected` text.
void expect_bad_input(const std::vector<std::string>& sets,
                      const std::vector<std::string>& expected)
{
    command_result r = run_uetsim(validate_with(sets));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("uetsim: error: ", 0), 0u) << r.err;
    for (const auto& e : expected)
        EXPECT_NE(r.err.find(e), std::string::npos) << e << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "");
}

TEST(rdma_config, validate_accepts_the_defaults)
{
    std::string file = empty_scenario();
    command_result r = run_uetsim({"validate", file, "--set", "Simulation.RunTime=0.001"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "ok: " + file + "\n");
    EXPECT_EQ(r.err, "");
    // Every application key, given explicitly with its default, is accepted too.
    r = run_uetsim(validate_with({"RdmaApplication.Enabled=true",
                                  "RdmaApplication.InitiatorRatio=0.5",
                                  "RdmaApplication.ResponderRatio=0.5",
                                  "RdmaApplication.NumConnections=1",
                                  "RdmaApplication.MaxPendingWQEs=10",
                                  "RdmaApplication.StartType=simultaneous",
                                  "RdmaApplication.WqeSize=250000",
                                  "RdmaApplication.DoorbellPayloadSize=64B",
                                  "RdmaApplication.RdmaDataPacketTC=0",
                                  "RdmaApplication.OpCode=RDMA_OPCODE_WRITE_FIRST",
                                  "RdmaApplication.RdmaVerb=RDMA_VERB_POST_WRITE",
                                  "Simulation.StartTime=0.001",
                                  "Simulation.ClientStartOffset=0.001",
                                  "Simulation.ClientStartInterval=0.001",
                                  "Simulation.WarmUp=0.002",
                                  "Simulation.RunTime=0.5",
                                  "Simulation.CoolDown=0.001",
                                  "Simulation.BeaconReportInterval=0.001",
                                  "Pcie.NicSideLaneBps=31.52Gbps",
                                  "Pcie.NicSideLaneCount=16",
                                  "Pcie.HostSideLaneBps=31.52Gbps",
                                  "Pcie.HostSideLaneCount=16",
                                  "Pcie.MaxPayloadSize=512",
                                  "Pcie.TlpOverhead=34",
                                  "Pcie.ReadRequestSize=64",
                                  "Pcie.CompletionSize=64",
                                  "Pcie.Latency=0",
                                  "Records.Enabled=rdma-perf, beacon, pcie-stats"}));
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(rdma_config, ratios_must_add_up_to_1)
{
    expect_bad_input({"RdmaApplication.InitiatorRatio=0.6", "RdmaApplication.ResponderRatio=0.6"},
                     {"RdmaApplication.InitiatorRatio", "RdmaApplication.ResponderRatio", "0.6",
                      "1.2", "must add up to 1"});
}

TEST(rdma_config, a_ratio_of_0_is_invalid)
{
    expect_bad_input({"RdmaApplication.InitiatorRatio=0", "RdmaApplication.ResponderRatio=1"},
                     {"RdmaApplication.InitiatorRatio = 0", "a ratio of 0 is invalid"});
}

TEST(rdma_config, num_connections_is_1_to_1024)
{
    expect_bad_input({"RdmaApplication.NumConnections=0"},
                     {"RdmaApplication.NumConnections: 0 is out of range 1..1024"});
    expect_bad_input({"RdmaApplication.NumConnections=1025"},
                     {"RdmaApplication.NumConnections: 1025 is out of range 1..1024"});
}

TEST(rdma_config, negative_times_are_rejected)
{
    expect_bad_input({"Simulation.WarmUp=-0.001"}, {"Simulation.WarmUp", "-0.001", "negative"});
    expect_bad_input({"Simulation.StartTime=-1"}, {"Simulation.StartTime", "'-1'", "negative"});
}

TEST(rdma_config, unknown_start_type_lists_the_allowed_values)
{
    expect_bad_input({"RdmaApplication.StartType=burst"},
                     {"RdmaApplication.StartType: 'burst' is not one of simultaneous, uniform, "
                      "sequential"});
}

TEST(rdma_config, data_packet_tc_is_0_to_7)
{
    expect_bad_input({"RdmaApplication.RdmaDataPacketTC=8"},
                     {"RdmaApplication.RdmaDataPacketTC: 8 is out of range 0..7"});
}

TEST(rdma_config, pcie_lane_count_is_1_to_16)
{
    expect_bad_input({"Pcie.NicSideLaneCount=17"},
                     {"Pcie.NicSideLaneCount: 17 is out of range 1..16"});
    expect_bad_input({"Pcie.HostSideLaneCount=0"},
                     {"Pcie.HostSideLaneCount: 0 is out of range 1..16"});
}

TEST(rdma_config, the_application_needs_nics)
{
    expect_bad_input({"Nic.Type=raw"}, {"Nic.Type", "raw",
                                        "the RDMA application needs NICs: set Nic.Type: uet, or "
                                        "give Flows and RdmaApplication.Enabled: false"});
}

TEST(rdma_config, inspect_json_shows_timeline_placement_and_wqe)
{
    command_result r = run_uetsim({"inspect", empty_scenario(), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);

    // The run ends at the timeline's stop time.
    EXPECT_NEAR(j["scenario"]["Simulation"]["StopTime"].get<double>(), 0.506, 1e-12);
    EXPECT_EQ(j["scenario"]["RdmaApplication"]["Enabled"], true);

    ASSERT_TRUE(j.contains("timeline")) << r.out;
    const auto& t = j["timeline"];
    EXPECT_NEAR(t["responders_start_s"].get<double>(), 0.001, 1e-12);
    ASSERT_EQ(t["client_start_window_s"].size(), 2u);
    EXPECT_NEAR(t["client_start_window_s"][0].get<double>(), 0.002, 1e-12);
    EXPECT_NEAR(t["client_start_window_s"][1].get<double>(), 0.003, 1e-12);
    ASSERT_EQ(t["recording_window_s"].size(), 2u);
    EXPECT_NEAR(t["recording_window_s"][0].get<double>(), 0.005, 1e-12);
    EXPECT_NEAR(t["recording_window_s"][1].get<double>(), 0.505, 1e-12);
    EXPECT_NEAR(t["stop_time_s"].get<double>(), 0.506, 1e-12);

    ASSERT_TRUE(j.contains("placement")) << r.out;
    const auto& p = j["placement"];
    EXPECT_EQ(p["hosts"], 16);
    ASSERT_EQ(p["initiators"].size(), 8u);
    ASSERT_EQ(p["responders"].size(), 8u);
    ASSERT_EQ(p["pairs"].size(), 8u);
    std::set<int> hosts;
    for (const auto& h : p["initiators"]) hosts.insert(h.get<int>());
    for (const auto& h : p["responders"]) hosts.insert(h.get<int>());
    EXPECT_EQ(hosts.size(), 16u);  // every host runs exactly one component
    std::set<int> paired_responders;
    for (const auto& pair : p["pairs"]) {
        ASSERT_EQ(pair.size(), 2u);
        EXPECT_NE(pair[0], pair[1]);
        paired_responders.insert(pair[1].get<int>());
    }
    EXPECT_EQ(paired_responders.size(), 8u);  // 8 and 8: each Initiator its own Responder

    ASSERT_TRUE(j.contains("wqe")) << r.out;
    const auto& w = j["wqe"];
    EXPECT_EQ(w["nic"], "uet");
    EXPECT_EQ(w["bytes"], 250000);
    EXPECT_EQ(w["packets"], 62);
    EXPECT_EQ(w["full_packets"], 61);
    EXPECT_EQ(w["last_packet_bytes"], 144);
    EXPECT_EQ(w["wire_bytes"], 250000 + 62 * 106);
    EXPECT_NEAR(w["serialization_s"].get<double>(), 256572.0 * 8 / 400e9, 1e-15);
    EXPECT_EQ(w["doorbell_pcie_bytes"], 92);
}

TEST(rdma_config, stop_time_is_the_earlier_of_stop_time_and_the_timeline)
{
    std::string file = empty_scenario();
    command_result r = run_uetsim({"inspect", file, "--json", "--set", "Simulation.StopTime=10ms"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NEAR(nlohmann::json::parse(r.out)["scenario"]["Simulation"]["StopTime"].get<double>(),
                0.01, 1e-12);
    r = run_uetsim({"inspect", file, "--json", "--set", "Simulation.StopTime=2s"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NEAR(nlohmann::json::parse(r.out)["scenario"]["Simulation"]["StopTime"].get<double>(),
                0.506, 1e-12);
}

}  // namespace
}  // namespace uetsim::test
