// The RDMA application's members of `inspect --json` (timeline, placement, wqe), computed from a
// resolved scenario by rdma_app_json.
#include <gtest/gtest.h>

#include <set>

#include "sim/config/loader.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/traffic/app/app_inspect.h"

using namespace uetsim;

TEST(rdma_app_inspect, defaults_on_16_hosts)
{
    const scenario sc = config::resolve_text("");
    const auto j = rdma_app_json(sc, 16, 400e9, nic_framing_of(sc.nic));

    EXPECT_EQ(j["enabled"], true);
    const auto& t = j["timeline"];
    EXPECT_NEAR(t["responders_start_s"].get<double>(), 0.001, 1e-12);
    EXPECT_NEAR(t["client_start_window_s"][0].get<double>(), 0.002, 1e-12);
    EXPECT_NEAR(t["client_start_window_s"][1].get<double>(), 0.003, 1e-12);
    EXPECT_NEAR(t["recording_window_s"][0].get<double>(), 0.005, 1e-12);
    EXPECT_NEAR(t["recording_window_s"][1].get<double>(), 0.505, 1e-12);
    EXPECT_NEAR(t["stop_time_s"].get<double>(), 0.506, 1e-12);

    const auto& p = j["placement"];
    EXPECT_EQ(p["hosts"], 16);
    EXPECT_EQ(p["initiators"].size(), 8u);
    EXPECT_EQ(p["responders"].size(), 8u);
    EXPECT_EQ(p["pairs"].size(), 8u);
    EXPECT_FALSE(p.contains("errors"));
    std::set<uint32_t> all;
    for (const auto& h : p["initiators"]) all.insert(h.get<uint32_t>());
    for (const auto& h : p["responders"]) all.insert(h.get<uint32_t>());
    EXPECT_EQ(all.size(), 16u);
    for (const auto& pair : p["pairs"]) {
        ASSERT_TRUE(pair.is_array());
        ASSERT_EQ(pair.size(), 2u);
    }

    const auto& w = j["wqe"];
    EXPECT_EQ(w["nic"], "uet");
    EXPECT_EQ(w["bytes"], 250000u);
    EXPECT_EQ(w["packets"], 62u);
    EXPECT_EQ(w["full_packets"], 61u);
    EXPECT_EQ(w["last_packet_bytes"], 144u);
    EXPECT_EQ(w["wire_bytes"], 256572u);  // 250,000 + 62 x 106
    EXPECT_NEAR(w["serialization_s"].get<double>(), 256572.0 * 8 / 400e9, 1e-18);
    EXPECT_EQ(w["doorbell_pcie_bytes"], 92u);
    EXPECT_EQ(w["opcodes"]["first"], 1u);
    EXPECT_EQ(w["opcodes"]["middle"], 60u);
    EXPECT_EQ(w["opcodes"]["last"], 1u);
    EXPECT_EQ(w["opcodes"]["only"], 0u);

    // Member order as INTERFACE.md lists it.
    std::vector<std::string> keys;
    for (const auto& [k, v] : w.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"nic", "bytes", "packets", "full_packets",
                                              "last_packet_bytes", "wire_bytes", "serialization_s",
                                              "doorbell_pcie_bytes", "opcodes"}));
    std::vector<std::string> opcodes;
    for (const auto& [k, v] : w["opcodes"].items()) opcodes.push_back(k);
    EXPECT_EQ(opcodes, (std::vector<std::string>{"first", "middle", "last", "only"}));
}

// The seed's worked example on the RoCE NIC: 250,000 B at MSS 4096 is 61 x 4,096 + 144, 62
// packets of MSS + 58 B: 253,596 B, 5.07 us at 400 Gbps, 1 FIRST, 60 MIDDLE, 1 LAST.
TEST(rdma_app_inspect, the_wqe_on_the_roce_nic)
{
    const scenario sc = config::resolve_text("Nic: {Type: roce}\n");
    const auto w = rdma_app_json(sc, 16, 400e9, nic_framing_of(sc.nic))["wqe"];
    EXPECT_EQ(w["nic"], "roce");
    EXPECT_EQ(w["packets"], 62u);
    EXPECT_EQ(w["full_packets"], 61u);
    EXPECT_EQ(w["last_packet_bytes"], 144u);
    EXPECT_EQ(w["wire_bytes"], 253596u);
    EXPECT_NEAR(w["serialization_s"].get<double>() * 1e6, 5.07, 0.005);
    EXPECT_EQ(w["opcodes"],
              nlohmann::ordered_json::parse(R"({"first": 1, "middle": 60, "last": 1, "only": 0})"));
    // RoceNic.MSS, not UetNic.RdmaDataMSS, cuts it.
    const scenario s1024 = config::resolve_text(
        "Nic: {Type: roce}\nRoceNic: {MSS: 1024}\nUetNic: {RdmaDataMSS: 2048}\n");
    const auto small = rdma_app_json(s1024, 16, 400e9, nic_framing_of(s1024.nic))["wqe"];
    EXPECT_EQ(small["packets"], 245u);  // ceil(250,000 / 1,024)
    EXPECT_EQ(small["wire_bytes"], 250000u + 245u * 58u);
    EXPECT_EQ(small["opcodes"]["middle"], 243u);
}

// A WQE of one packet is WRITE ONLY, on either NIC.
TEST(rdma_app_inspect, a_one_packet_wqe_is_only)
{
    for (const char* nic : {"uet", "roce"}) {
        const scenario sc = config::resolve_text(std::string("Nic: {Type: ") + nic +
                                                 "}\nRdmaApplication: {WqeSize: 4096}\n");
        const auto w = rdma_app_json(sc, 16, 400e9, nic_framing_of(sc.nic))["wqe"];
        EXPECT_EQ(w["nic"], nic);
        EXPECT_EQ(w["packets"], 1u) << nic;
        EXPECT_EQ(w["opcodes"], nlohmann::ordered_json::parse(
                                    R"({"first": 0, "middle": 0, "last": 0, "only": 1})"))
            << nic;
    }
}

TEST(rdma_app_inspect, follows_the_keys)
{
    const scenario sc = config::resolve_text(
        "RdmaApplication: {InitiatorRatio: 0.9, ResponderRatio: 0.1, WqeSize: 4096, "
        "DoorbellPayloadSize: 0}\nUetNic: {RdmaDataMSS: 2048}\n");
    const auto j = rdma_app_json(sc, 16, 100e9, nic_framing_of(sc.nic));
    EXPECT_EQ(j["placement"]["initiators"].size(), 15u);
    EXPECT_EQ(j["placement"]["responders"].size(), 1u);
    EXPECT_EQ(j["placement"]["pairs"].size(), 15u);
    EXPECT_EQ(j["wqe"]["packets"], 2u);
    EXPECT_EQ(j["wqe"]["full_packets"], 2u);
    EXPECT_EQ(j["wqe"]["last_packet_bytes"], 2048u);
    EXPECT_EQ(j["wqe"]["wire_bytes"], 4096u + 2 * 106);
    EXPECT_EQ(j["wqe"]["doorbell_pcie_bytes"], 28u);
}

TEST(rdma_app_inspect, unplaceable_ratios_with_the_application_off)
{
    const scenario sc = config::resolve_text(
        "RdmaApplication: {Enabled: false, InitiatorRatio: 0.6, ResponderRatio: 0.6}\n");
    const auto j = rdma_app_json(sc, 16, 400e9, nic_framing_of(sc.nic));
    EXPECT_EQ(j["enabled"], false);
    EXPECT_TRUE(j["placement"]["pairs"].empty());
    ASSERT_EQ(j["placement"]["errors"].size(), 1u);
}
