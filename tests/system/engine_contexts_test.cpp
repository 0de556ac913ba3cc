// The NIC engines' context slots through the real command (docs/uet-nic.md, "Engines and
// context slots"). Host 0 sends a 64 KiB message to each of hosts 1..4 at once (4 PDC groups:
// 4 entropy load balancer slots) and hosts 1..4 each send one to host 0 (4 receiving PDCs: 4
// SACK tracker slots). With 4 slots the run completes and nic-pipeline-stats reports 4 in use;
// with 3 the run stops with one message naming the key, the NIC, the value and that it must be
// raised; 0 is outside the key's range (exit 2).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const char* k_scenario =
    "Simulation: {Name: ec, NDStatsReportInterval: 50us}\n"
    "Records: {Enabled: [flow-perf, nic-pipeline-stats]}\n"
    "Topology: {Kind: single-switch, Hosts: 5}\n"
    "Flows:\n"
    "  - {Src: 0, Dst: 1, Bytes: 65536}\n"
    "  - {Src: 0, Dst: 2, Bytes: 65536}\n"
    "  - {Src: 0, Dst: 3, Bytes: 65536}\n"
    "  - {Src: 0, Dst: 4, Bytes: 65536}\n"
    "  - {Src: 1, Dst: 0, Bytes: 65536}\n"
    "  - {Src: 2, Dst: 0, Bytes: 65536}\n"
    "  - {Src: 3, Dst: 0, Bytes: 65536}\n"
    "  - {Src: 4, Dst: 0, Bytes: 65536}\n";

command_result run(const std::string& tag, const std::vector<std::string>& sets,
                   std::string* dir_out = nullptr)
{
    const std::string dir = scratch_dir(tag);
    const std::string file = write_file(dir + "/ec.yaml", k_scenario);
    std::vector<std::string> args{"run", file, "--quiet", "--out", dir};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    if (dir_out) *dir_out = dir;
    return run_uetsim(args);
}

}  // namespace

TEST(engine_contexts, exactly_enough_slots_run_and_the_record_shows_them_in_use)
{
    std::string dir;
    const command_result r =
        run("ec-ok", {"UetNic.EntropyContexts=4", "UetNic.SackContexts=4"}, &dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    EXPECT_EQ(read_csv(dir + "/ec-flow-perf-0.csv").rows.size(), 8u);
    const csv st = read_csv(dir + "/ec-nic-pipeline-stats-0.csv");
    bool seen = false;
    for (size_t i = 0; i < st.rows.size(); ++i)
        if (st.str(i, "component_name") == "host0" && st.str(i, "stage") == "Scheduler") {
            seen = true;
            // The last row's maxima: 4 groups at once, 4 receiving PDCs at once.
            if (i + 5 < st.rows.size()) continue;
            EXPECT_EQ(st.num(i, "entropy_contexts_max"), 4);
            EXPECT_EQ(st.num(i, "open_rx_pdcs_max"), 4);
        }
    EXPECT_TRUE(seen);
}

TEST(engine_contexts, too_few_entropy_contexts_stop_the_run_naming_the_key)
{
    const command_result r = run("ec-lb", {"UetNic.EntropyContexts=3"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    for (const char* part : {"host0", "UetNic.EntropyContexts 3 is too small", "PDC group",
                             "raise UetNic.EntropyContexts"})
        EXPECT_NE(r.err.find(part), std::string::npos) << part << " in: " << r.err;
}

TEST(engine_contexts, too_few_sack_contexts_stop_the_run_naming_the_key)
{
    const command_result r = run("ec-sack", {"UetNic.SackContexts=3"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    for (const char* part : {"host0", "UetNic.SackContexts 3 is too small", "receiving PDC",
                             "raise UetNic.SackContexts"})
        EXPECT_NE(r.err.find(part), std::string::npos) << part << " in: " << r.err;
    EXPECT_EQ(r.err.find("EntropyContexts"), std::string::npos) << r.err;
}

TEST(engine_contexts, zero_slots_are_bad_input)
{
    for (const char* key : {"UetNic.EntropyContexts", "UetNic.SackContexts"}) {
        const command_result r = run("ec-zero", {std::string(key) + "=0"});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(key), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("65536"), std::string::npos) << r.err;
    }
}
