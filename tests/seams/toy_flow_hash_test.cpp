// The RTL block seam measured: a toy flow hash from the test tree (toy_rtl/xor_flow_hash.sv, the
// FlowHash pin contract with an XOR hash) built by `uetsim rtl-build` (the ctest fixture
// rtl_libraries, tests/support/build_rtl_libraries.cmake) and loaded by an unchanged uetsim with
// Rtl.FlowHashLibrary; no file of uetsim is touched. The library's block is really the one used:
// in rtl mode the run completes clean with its requests counted per switch; in both mode the
// first hash differs from the model's, and the report's RTL answer is the XOR hash of the
// report's own request fields.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/switch/flow_hash.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;
using namespace uetsim::test;
using json = nlohmann::json;

namespace {

const std::string library = std::string(UETSIM_RTL_LIBRARY_DIR) + "/xor_flow_hash.so";

std::string scenario_text(const std::string& rtl)
{
    std::string y =
        "Simulation: {Name: toy, StopTime: 20ms}\n"
        "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 4}\n" +
        rtl + "Flows:\n";
    for (int i = 0; i < 8; ++i)
        y += "  - {Src: " + std::to_string(i) + ", Dst: " + std::to_string(8 + i) +
             ", Bytes: 256KiB}\n";
    return y;
}

// xor_flow_hash.sv's hash, written again from its source.
uint16_t xor_hash(unsigned method, const flow_key& k, uint32_t salt)
{
    return uint16_t((k.src_ip >> 16) ^ k.src_ip ^ (k.dst_ip >> 16) ^ k.dst_ip ^ k.src_port ^
                    k.dst_port ^ k.protocol ^ (salt >> 16) ^ salt ^ method);
}

}  // namespace

TEST(toy_flow_hash, the_library_answers_every_hash_in_rtl_mode)
{
    // The library named relative to the scenario file's folder, as Chakra.Traces is.
    const std::string dir = scratch_dir("toy-flow-hash-rtl");
    const std::string relative = std::filesystem::relative(library, dir).string();
    const std::string file =
        write_file(dir + "/s.yaml",
                   scenario_text("Rtl: {FlowHash: rtl, FlowHashLibrary: " + relative + "}\n"));
    const command_result r = run_uetsim({"run", file, "--quiet", "--out", dir + "/out"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const json m = json::parse(read_text(dir + "/out/toy-manifest.json"));
    EXPECT_EQ(m.at("status"), "complete");
    EXPECT_EQ(m.at("scenario").at("Rtl").at("FlowHashLibrary"), relative) << "as given";
    const json& fh = m.at("rtl").at("blocks").at("FlowHash");
    ASSERT_EQ(fh.at("devices").size(), 6u);  // 2 leaves, 4 spines
    for (const auto& [sw, d] : fh.at("devices").items()) {
        EXPECT_EQ(std::filesystem::weakly_canonical(d.at("library").get<std::string>()),
                  std::filesystem::weakly_canonical(library))
            << sw;
        EXPECT_EQ(d.at("checked"), 0u) << sw;
    }
    // Every packet crossing a leaf towards a spine is hashed there: 8 x 256 KiB of data and
    // its ACKs cross both leaves.
    EXPECT_GT(fh.at("devices").at("leaf0").at("requests").get<uint64_t>(),
              m.at("data_packets_sent").get<uint64_t>() / 2);
    EXPECT_GT(fh.at("requests").get<uint64_t>(), m.at("data_packets_sent").get<uint64_t>());
}

TEST(toy_flow_hash, both_mode_stops_at_the_first_hash_with_the_report)
{
    const std::string dir = scratch_dir("toy-flow-hash-both");
    const std::string file =
        write_file(dir + "/s.yaml",
                   scenario_text("Rtl: {FlowHash: both, FlowHashLibrary: " + library + "}\n"));
    const command_result r = run_uetsim({"run", file, "--quiet", "--out", dir + "/out"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json m = json::parse(read_text(dir + "/out/toy-manifest.json"));
    EXPECT_EQ(m.at("status"), "rtl_mismatch");
    const json& x = m.at("rtl").at("mismatch");
    EXPECT_EQ(x.at("request_index"), 0u) << "the first hash of the switch already differs";
    EXPECT_NE(r.err.find("uetsim: error: rtl mismatch: " + x.at("component").get<std::string>()),
              std::string::npos)
        << r.err;
    // The report's request, read back, gives the model's hash and the toy's.
    unsigned method = 0, protocol = 0, src_port = 0, dst_port = 0;
    uint32_t src_ip = 0, dst_ip = 0, salt = 0;
    char name[32] = {};
    ASSERT_EQ(std::sscanf(x.at("request").get<std::string>().c_str(),
                          "method=%u (%31[^)]) protocol=%u src_ip=0x%x dst_ip=0x%x src_port=%u "
                          "dst_port=%u salt=0x%x",
                          &method, name, &protocol, &src_ip, &dst_ip, &src_port, &dst_port, &salt),
              8)
        << x.at("request");
    flow_key k;
    k.protocol = uint8_t(protocol);
    k.src_ip = src_ip;
    k.dst_ip = dst_ip;
    k.src_port = uint16_t(src_port);
    k.dst_port = uint16_t(dst_port);
    char want_model[8], want_rtl[8];
    std::snprintf(want_model, sizeof want_model, "0x%04x",
                  unsigned(flow_hash16(ecmp_hash_method(method), k, salt)));
    std::snprintf(want_rtl, sizeof want_rtl, "0x%04x", unsigned(xor_hash(method, k, salt)));
    EXPECT_EQ(x.at("model"), want_model);
    EXPECT_EQ(x.at("rtl"), want_rtl);
}
