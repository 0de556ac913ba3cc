// Rtl.* in a loaded fabric, through the uetsim command: the 8-flow cross-leaf scenario with REPS
// and spine0 degraded mid-run (examples/uet-spraying.yaml, smaller messages), with the flow-hash
// RTL in every switch and the entropy load balancer and SACK tracker RTL in every NIC. `both`
// runs clean (every request checked, the scoreboard clean); `rtl` gives byte-identical records
// to `model`; per-device modes reach the manifest; and a deliberately
// wrong block (the test-only mutant flow hash, injected through the block registry) is caught:
// exit code 1, the report on stderr and in the manifest naming the component and the first
// differing request.

// Verilated headers before <systemc> (rtl/verilated_includes.h): the mutant core.
#include "Vflow_hash_mutant.h"
#include "rtl/flow_hash/flow_hash_block.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/switch/fabric_switch.h"
#include "rtl/flow_hash/flow_hash_rtl.h"
#include "sim/cli.h"
#include "testbench/elab/rtl_blocks.h"
#include "tests/support/rtl_scenario.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;
using namespace uetsim::test;
using json = nlohmann::json;

namespace {

std::string scenario_text(const std::string& extra = "")
{
    return cross_leaf_reps_scenario("rtl", "2MiB", extra);
}

json run_ok(const std::string& file, const std::string& out, std::vector<std::string> sets)
{
    std::vector<std::string> args = {"run", file, "--quiet", "--out", out};
    for (auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    return json::parse(read_text(out + "/rtl-manifest.json"));
}

const std::vector<std::string> switches = {"leaf0",  "leaf1",  "spine0", "spine1", "spine2",
                                           "spine3", "spine4", "spine5", "spine6", "spine7"};

}  // namespace

TEST(rtl_modes, all_three_blocks_in_both_on_every_device_run_clean_in_a_loaded_fabric)
{
    const std::string dir = scratch_dir("rtl-both");
    const std::string file = write_file(
        dir + "/s.yaml",
        scenario_text("Rtl: {FlowHash: both, EntropyLoadBalancer: both, SackTracker: both}\n"));
    const json m = run_ok(file, dir + "/out", {});
    EXPECT_EQ(m.at("status"), "complete");
    EXPECT_TRUE(m.at("scoreboard").at("ok").get<bool>()) << m.at("scoreboard");
    EXPECT_FALSE(m.at("rtl").contains("mismatch"));
    const json& fh = m.at("rtl").at("blocks").at("FlowHash");
    EXPECT_EQ(fh.at("modes").at("both").get<std::vector<std::string>>(), switches);
    EXPECT_FALSE(fh.at("modes").contains("model"));
    // Every data packet and ACK crossing a leaf is hashed there (8 uplinks): 8 x 2 MiB of data
    // at 4 KiB or so per packet is well over 4000 packets.
    const uint64_t hashes = fh.at("checked").get<uint64_t>();
    EXPECT_GT(hashes, 4000u);
    EXPECT_EQ(fh.at("requests").get<uint64_t>(), hashes);
    EXPECT_EQ(m.at("rtl_flow_hash_checks").get<uint64_t>(), hashes);
    EXPECT_GT(fh.at("devices").at("leaf0").at("checked").get<uint64_t>(), 2000u);
    // The NIC blocks on all 16 hosts. The load balancer answers every data packet of the 8
    // senders (next) and every ACK's entropy (feedback), plus an open per PDC group; the SACK
    // tracker every data packet at the 8 receivers and every ACK they build.
    const uint64_t packets = m.at("data_packets_sent").get<uint64_t>();
    uint64_t total = hashes;
    for (const char* block : {"EntropyLoadBalancer", "SackTracker"}) {
        const json& b = m.at("rtl").at("blocks").at(block);
        EXPECT_EQ(b.at("modes").at("both").size(), 16u) << block;
        EXPECT_EQ(b.at("requests").get<uint64_t>(), b.at("checked").get<uint64_t>()) << block;
        EXPECT_GT(b.at("checked").get<uint64_t>(), packets) << block;
        total += b.at("checked").get<uint64_t>();
    }
    EXPECT_GT(m.at("rtl")
                  .at("blocks")
                  .at("EntropyLoadBalancer")
                  .at("devices")
                  .at("host0")
                  .at("checked")
                  .get<uint64_t>(),
              0u);
    EXPECT_GT(m.at("rtl")
                  .at("blocks")
                  .at("SackTracker")
                  .at("devices")
                  .at("host8")
                  .at("checked")
                  .get<uint64_t>(),
              0u);
    EXPECT_EQ(m.at("rtl").at("checked").get<uint64_t>(), total);
}

TEST(rtl_modes, rtl_mode_gives_the_records_of_model_mode)
{
    const std::string dir = scratch_dir("rtl-same");
    const std::string file = write_file(dir + "/s.yaml", scenario_text());
    const json model = run_ok(file, dir + "/model", {});
    const json rtl =
        run_ok(file, dir + "/rtl",
               {"Rtl.FlowHash=rtl", "Rtl.EntropyLoadBalancer=rtl", "Rtl.SackTracker=rtl"});
    EXPECT_FALSE(model.contains("rtl")) << "no Rtl key: no rtl member";
    for (const char* block : {"FlowHash", "EntropyLoadBalancer", "SackTracker"}) {
        const json& b = rtl.at("rtl").at("blocks").at(block);
        EXPECT_GT(b.at("requests").get<uint64_t>(), 4000u) << block << ": the RTL answered";
        EXPECT_EQ(b.at("checked").get<uint64_t>(), 0u) << block << ": rtl mode compares nothing";
    }
    EXPECT_EQ(rtl.at("data_packets_sent"), model.at("data_packets_sent"));
    const auto a = csv_files(dir + "/model"), b = csv_files(dir + "/rtl");
    ASSERT_GE(a.size(), 5u);  // flow-perf, nd-stats, uet-monitor, ...
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [name, text] : a) {
        ASSERT_TRUE(b.count(name)) << name;
        EXPECT_TRUE(text == b.at(name)) << name << " differs between model and rtl mode";
    }
    EXPECT_TRUE(a.count("rtl-uet-monitor-0.csv"));
}

TEST(rtl_modes, per_device_modes_reach_the_manifest)
{
    const std::string dir = scratch_dir("rtl-dev");
    const std::string file =
        write_file(dir + "/s.yaml",
                   scenario_text("Rtl[leaf*]: {FlowHash: rtl}\nRtl[leaf1]: {FlowHash: both}\n"));
    const json m = run_ok(file, dir + "/out", {});
    const json& modes = m.at("rtl").at("blocks").at("FlowHash").at("modes");
    EXPECT_EQ(modes.at("rtl"), json::array({"leaf0"}));
    EXPECT_EQ(modes.at("both"), json::array({"leaf1"}));
    EXPECT_EQ(modes.at("model").size(), 8u);
    const json& dev = m.at("rtl").at("blocks").at("FlowHash").at("devices");
    EXPECT_EQ(dev.size(), 2u);
    EXPECT_EQ(dev.at("leaf0").at("checked").get<uint64_t>(), 0u);
    EXPECT_GT(dev.at("leaf1").at("checked").get<uint64_t>(), 0u);
}

// The mutant flow hash (UETSIM_MUTANT_FLOW_HASH_SPORT5: bit 0 inverted when src_port[2:0] is 5)
// in every switch, through the registry's FlowHash factory, each request recorded per switch.
// In both mode the run stops at the first difference.
TEST(rtl_modes, a_wrong_flow_hash_is_caught_in_both_mode)
{
    struct recording_core final : rtl_flow_hash_core
    {
        flow_hash_block<Vflow_hash_mutant> block;
        std::vector<flow_hash_request>* log;
        recording_core(const std::string& n, std::vector<flow_hash_request>* l) : block(n), log(l)
        {
        }
        uint16_t hash(const flow_hash_request& r) override
        {
            log->push_back(r);
            return block.hash(r);
        }
        rtl_pin_set& pins() override { return block.pins(); }
        void open_fst(const std::string& p) override { block.open_fst(p); }
    };
    struct instance final : rtl_block_instance
    {
        std::unique_ptr<rtl_flow_hasher> h;
        uint64_t requests() const override { return h->requests(); }
        uint64_t checked() const override { return h->checked(); }
    };
    static std::map<std::string, std::vector<flow_hash_request>> logs;
    replace_rtl_block_factory("FlowHash", [](rtl_block_site& s) {
        auto i = std::make_unique<instance>();
        i->h = std::make_unique<rtl_flow_hasher>(
            s.component, s.mode, std::make_unique<recording_core>(s.device, &logs[s.component]));
        s.sw->use_hasher(i->h.get());
        return std::unique_ptr<rtl_block_instance>(std::move(i));
    });

    const std::string dir = scratch_dir("rtl-mutant");
    const std::string file = write_file(dir + "/s.yaml", scenario_text("Rtl: {FlowHash: both}\n"));
    const std::string out = dir + "/out";
    std::vector<std::string> args = {"uetsim", "run", file, "--quiet", "--out", out};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    testing::internal::CaptureStderr();
    const int code = run_cli(int(argv.size()), argv.data());
    const std::string err = testing::internal::GetCapturedStderr();

    EXPECT_EQ(code, 1) << err;
    const json m = json::parse(read_text(out + "/rtl-manifest.json"));
    EXPECT_EQ(m.at("status"), "rtl_mismatch");
    const json& r = m.at("rtl").at("mismatch");
    const std::string component = r.at("component");
    const uint64_t index = r.at("request_index");
    ASSERT_TRUE(logs.count(component)) << component;
    const std::vector<flow_hash_request>& log = logs.at(component);
    // The first request whose src_port ends in 5 (binary 101), and none before it.
    ASSERT_GT(log.size(), index);
    for (uint64_t i = 0; i < index; ++i) ASSERT_NE(log[i].key.src_port & 7, 5) << i;
    const flow_hash_request& bad = log[index];
    EXPECT_EQ(bad.key.src_port & 7, 5);
    EXPECT_EQ(r.at("request"), describe(bad));
    const uint16_t model = flow_hash16(bad.method, bad.key, bad.salt);
    EXPECT_EQ(r.at("model"), describe_hash(model));
    EXPECT_EQ(r.at("rtl"), describe_hash(uint16_t(model ^ 1)));
    EXPECT_GT(r.at("time_ps").get<uint64_t>(), 0u);
    // sc_stop ends the run after the current delta cycle: the switches' requests of that delta
    // are still answered (and counted), the report stays the first one.
    EXPECT_GE(m.at("rtl")
                  .at("blocks")
                  .at("FlowHash")
                  .at("devices")
                  .at(component.substr(0, component.find('.')))["checked"]
                  .get<uint64_t>(),
              index + 1);
    EXPECT_FALSE(m.at("scoreboard").at("ok").get<bool>()) << "stopped before the messages ended";
    // stderr: the report at once, then why the exit code is 1.
    EXPECT_NE(err.find("uetsim: error: rtl mismatch: " + component + " at "), std::string::npos)
        << err;
    EXPECT_NE(err.find("request index: " + std::to_string(index)), std::string::npos) << err;
    EXPECT_NE(err.find(describe(bad)), std::string::npos) << err;
    EXPECT_NE(err.find("the run stopped at the first RTL mismatch"), std::string::npos) << err;
    EXPECT_TRUE(std::filesystem::exists(out + "/rtl-flow-perf-0.csv")) << "records flushed";
}

// Bad values exit 2 before simulating, naming the key, the value and what is allowed; a block
// an RTL block too small for the device's configuration is refused; the old key reads as
// Rtl.FlowHash: both, with a warning.
TEST(rtl_modes, bad_values_exit_2_and_the_old_key_is_an_alias)
{
    const std::string dir = scratch_dir("rtl-bad");
    const std::string file = write_file(dir + "/s.yaml", scenario_text());
    // Each case: its --set values and a piece of the message. The NIC blocks' limits are the
    // sizes of their RAMs, checked against the device's own configuration when it is built.
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"Rtl.FlowHash=RTL"}, "Rtl.FlowHash: 'RTL' is not one of model, rtl, both"},
        {{"Rtl.SackTracker=both", "UetNic.SackContexts=5000"},
         "UetNic.SackContexts: 5000 is above the SACK tracker RTL's CONTEXTS (4096"},
        {{"Rtl[host3].EntropyLoadBalancer=rtl", "UetNic.EntropyContexts=4097"},
         "UetNic.EntropyContexts 4097 is beyond the RTL entropy load balancer's 4096 context "
         "slots"},
        {{"Rtl.EntropyLoadBalancer=both", "UetNic.REPSBufferSizeMaskBits=9"},
         "host0.entropy_lb: UetNic.REPSBufferSizeMaskBits 9 is beyond the RTL entropy load "
         "balancer's cache of 2^8 entries"},
        {{"Rtl[host3].FlowHash=rtl"},
         "Rtl[host3].FlowHash: 'host3' matches no switch of this topology (Rtl.FlowHash is a "
         "block of the switches)"},
    };
    for (const auto& [sets, message] : cases)
        expect_refused(file, dir + "/o", sets, message, "rtl-manifest.json");
    const command_result r =
        run_uetsim({"inspect", file, "--json", "--set", "Switch.RtlFlowHashLockstep=true"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("uetsim: warning: Switch.RtlFlowHashLockstep is deprecated: use "
                         "Rtl.FlowHash: both"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(json::parse(r.out).at("scenario").at("Rtl").at("FlowHash"), "both");
    EXPECT_FALSE(json::parse(r.out).at("scenario").at("Switch").contains("RtlFlowHashLockstep"))
        << "the resolved scenario shows the replacement, not the deprecated key";
    const command_result w =
        run_uetsim({"inspect", file, "--json", "--set", "Switch.RtlFlowHashLockstep=true", "--set",
                    "Rtl.FlowHash=rtl"});
    EXPECT_EQ(json::parse(w.out).at("scenario").at("Rtl").at("FlowHash"), "rtl")
        << "an explicit Rtl.FlowHash wins";
}
