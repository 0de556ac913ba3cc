// A pipeline stage that consults an RTL block's engine takes the block's latency (docs/rtl.md,
// "Latency"), through the uetsim command. The 8-flow cross-leaf REPS run of rtl_modes_test with
// spine0 degraded and, in addition, leaf1-spine5 down at 30 us (retransmissions rebuilt without
// a payload fetch reach EntropyLookup one scheduler turn after the pick, earlier than a fetched
// packet) completes in rtl and in both with every other key at its default, with the records of
// model mode byte for byte: UetNic.EntropyLookupCycles and UetNic.SackUpdateCycles default to
// auto, the latencies of the built-in entropy_lb (2 cycles) and sack_tracker (4), in every mode.
// A number below the block's latency where the block runs in rtl or both is exit 2 before the
// run, naming the key, the number and the latency; in model mode it is an architect's choice.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/rtl_scenario.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim::test;
using json = nlohmann::json;

namespace {

std::string failing_link_scenario()
{
    return cross_leaf_reps_scenario("rtl", "2MiB", "",
                                    "  - {At: 30us, Link: leaf1-spine5, Action: down}\n");
}

// The run's manifest after checking that it ended with exit code 0 and a clean scoreboard.
json run_ok(const std::string& file, const std::string& out, std::vector<std::string> sets)
{
    std::vector<std::string> args = {"run", file, "--quiet", "--out", out};
    for (auto& s : sets) args.insert(args.end(), {"--set", s});
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    return json::parse(read_text(out + "/rtl-manifest.json"));
}

// `inspect --json` of `file` with `sets`: exit code 0 expected.
json inspect(const std::string& file, std::vector<std::string> sets)
{
    std::vector<std::string> args = {"inspect", file, "--json"};
    for (auto& s : sets) args.insert(args.end(), {"--set", s});
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
}

}  // namespace

TEST(rtl_latency, reps_with_a_failing_link_runs_in_rtl_and_both_with_the_records_of_model)
{
    const std::string dir = scratch_dir("rtl-latency");
    const std::string file = write_file(dir + "/s.yaml", failing_link_scenario());
    const json model = run_ok(file, dir + "/model", {});
    EXPECT_EQ(model.at("status"), "complete");
    const auto want = csv_files(dir + "/model");
    ASSERT_GE(want.size(), 5u);  // flow-perf, nd-stats, uet-monitor, ...
    // The link going down costs packets that the senders retransmit: the case that reaches
    // EntropyLookup without a payload fetch.
    const csv transport = read_csv(dir + "/model/rtl-uet-transport-stats-0.csv");
    double rtx = 0;
    for (size_t i = 0; i < transport.rows.size(); ++i) rtx += transport.num(i, "num_rtx");
    EXPECT_GT(rtx, 0) << "the failing link caused no retransmission";

    for (const char* mode : {"rtl", "both"}) {
        const std::string out = dir + "/" + mode;
        const json m = run_ok(file, out,
                              {std::string("Rtl.EntropyLoadBalancer=") + mode,
                               std::string("Rtl.SackTracker=") + mode});
        EXPECT_EQ(m.at("status"), "complete") << mode;
        EXPECT_TRUE(m.at("scoreboard").at("ok").get<bool>()) << mode;
        EXPECT_FALSE(m.at("rtl").contains("mismatch")) << mode;
        for (const char* block : {"EntropyLoadBalancer", "SackTracker"}) {
            const json& b = m.at("rtl").at("blocks").at(block);
            EXPECT_EQ(b.at("modes").at(mode).size(), 16u) << mode << " " << block;
            EXPECT_GT(b.at("requests").get<uint64_t>(), m.at("data_packets_sent").get<uint64_t>())
                << mode << " " << block << ": the RTL answered every packet";
            EXPECT_EQ(b.at("checked").get<uint64_t>(),
                      std::string(mode) == "both" ? b.at("requests").get<uint64_t>() : 0u)
                << mode << " " << block;
        }
        EXPECT_EQ(m.at("data_packets_sent"), model.at("data_packets_sent")) << mode;
        const auto got = csv_files(out);
        ASSERT_EQ(got.size(), want.size()) << mode;
        for (const auto& [name, text] : want) {
            ASSERT_TRUE(got.count(name)) << mode << " " << name;
            EXPECT_TRUE(text == got.at(name)) << name << " differs between model and " << mode;
        }
    }
}

// auto (the default) is the block's latency in NIC cycles in every mode, as the resolved scenario
// shows it; a device's own Rtl and UetNic keys resolve the same way.
TEST(rtl_latency, auto_is_the_blocks_latency_in_every_mode)
{
    const std::string dir = scratch_dir("rtl-latency-auto");
    const std::string file = write_file(dir + "/s.yaml", failing_link_scenario());
    for (const char* mode : {"model", "rtl", "both"}) {
        const json s = inspect(file, {std::string("Rtl.EntropyLoadBalancer=") + mode,
                                      std::string("Rtl.SackTracker=") + mode})
                           .at("scenario")
                           .at("UetNic");
        EXPECT_EQ(s.at("EntropyLookupCycles"), 2) << mode;  // entropy_lb.sv: LATENCY = 2
        EXPECT_EQ(s.at("SackUpdateCycles"), 4) << mode;     // sack_tracker.sv: LATENCY = 4
    }
    // Written auto, the same; a number above the latency stays as given.
    const json s = inspect(file, {"UetNic.EntropyLookupCycles=auto", "UetNic.SackUpdateCycles=9",
                                  "Rtl.SackTracker=both"})
                       .at("scenario")
                       .at("UetNic");
    EXPECT_EQ(s.at("EntropyLookupCycles"), 2);
    EXPECT_EQ(s.at("SackUpdateCycles"), 9);
    // Per device, as the NICs run (nic-pipeline-stats' latency_ns at 1 GHz): host3's own auto is
    // the latency under the section's 5, host4's own 7 stays, the others take the section's.
    const std::string out = dir + "/per-device";
    const command_result r = run_uetsim(
        {"run", file, "--quiet", "--out", out, "--set",
         "Records.Enabled=[nic-pipeline-stats, flow-perf]", "--set", "UetNic.EntropyLookupCycles=5",
         "--set", "UetNic[host3].EntropyLookupCycles=auto", "--set",
         "UetNic[host4].SackUpdateCycles=7", "--set", "Rtl[host5].SackTracker=rtl"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const csv p = read_csv(out + "/rtl-nic-pipeline-stats-0.csv");
    std::map<std::string, double> latency_ns;  // "host3 EntropyLookup"
    for (size_t i = 0; i < p.rows.size(); ++i)
        latency_ns[p.str(i, "component_name") + " " + p.str(i, "stage")] = p.num(i, "latency_ns");
    EXPECT_EQ(latency_ns.at("host3 EntropyLookup"), 2);
    EXPECT_EQ(latency_ns.at("host4 EntropyLookup"), 5);
    EXPECT_EQ(latency_ns.at("host5 EntropyLookup"), 5);
    EXPECT_EQ(latency_ns.at("host3 SackUpdate"), 4);
    EXPECT_EQ(latency_ns.at("host4 SackUpdate"), 7);
    EXPECT_EQ(latency_ns.at("host5 SackUpdate"), 4);
    // The key reference says auto.
    const command_result keys = run_uetsim({"keys", "--markdown"});
    EXPECT_NE(
        keys.out.find("| `UetNic.EntropyLookupCycles` | integer | `auto` | auto, or 0..100000 |"),
        std::string::npos);
    EXPECT_NE(
        keys.out.find("| `UetNic.SackUpdateCycles` | integer | `auto` | auto, or 0..100000 |"),
        std::string::npos);
}

// Below the block's latency where it runs in rtl or both: exit 2 before the run, naming the key
// (per device when a device's key gave it), the number, the block's latency, its mode and hosts.
// In model mode the same number runs: an architect exploring a faster engine.
TEST(rtl_latency, a_stage_below_the_blocks_latency_is_exit_2_naming_both_numbers)
{
    const std::string dir = scratch_dir("rtl-latency-bad");
    const std::string file = write_file(dir + "/s.yaml", failing_link_scenario());
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"Rtl.EntropyLoadBalancer=rtl", "UetNic.EntropyLookupCycles=1"},
         "uetsim: error: UetNic.EntropyLookupCycles: 1 is below the latency of the RTL entropy "
         "load balancer (2 cycles, Rtl.EntropyLoadBalancer: rtl on host0..host15); allowed: auto "
         "or 2..100000"},
        {{"Rtl.SackTracker=both", "UetNic.SackUpdateCycles=0"},
         "uetsim: error: UetNic.SackUpdateCycles: 0 is below the latency of the RTL SACK tracker "
         "(4 cycles, Rtl.SackTracker: both on host0..host15); allowed: auto or 4..100000"},
        // Per device: only host3 and host4 run the block, and only host3 is too fast.
        {{"Rtl[host[34]].SackTracker=rtl", "UetNic[host3].SackUpdateCycles=3",
          "UetNic[host4].SackUpdateCycles=4"},
         "UetNic[host3].SackUpdateCycles: 3 is below the latency of the RTL SACK tracker (4 "
         "cycles, Rtl[host[34]].SackTracker: rtl on host3); allowed: auto or 4..100000"},
        // The section's number on the hosts whose own Rtl key runs the block.
        {{"UetNic.EntropyLookupCycles=0", "Rtl[host1*].EntropyLoadBalancer=both"},
         "UetNic.EntropyLookupCycles: 0 is below the latency of the RTL entropy load balancer (2 "
         "cycles, Rtl[host1*].EntropyLoadBalancer: both on host1, host10..host15); allowed: auto "
         "or 2..100000"},
    };
    for (const auto& [sets, message] : cases)
        expect_refused(file, dir + "/o", sets, message, "rtl-manifest.json");
    // Model mode, and rtl on the other hosts only: the number is the stage's.
    const json s =
        inspect(file, {"UetNic.EntropyLookupCycles=1", "UetNic[host3].SackUpdateCycles=0",
                       "Rtl[host[0-2]].SackTracker=rtl"})
            .at("scenario")
            .at("UetNic");
    EXPECT_EQ(s.at("EntropyLookupCycles"), 1);
    EXPECT_EQ(s.at("SackUpdateCycles"), 4);  // the section's auto; host3's 0 is its own
}
