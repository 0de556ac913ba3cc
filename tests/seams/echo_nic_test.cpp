// The NIC seam measured: a third NIC type (tests/seams/toy_nic, a NIC that echoes) joins from the
// test tree with a registry row, its keys file and its CMake line, and runs Flows end to end
// through uetsim's fabric, host side, scoreboard and records; its keys are checked as uetsim's
// own are.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sim/config/loader.h"
#include "sim/config/scenario_keys.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/run/simulation.h"
#include "tests/seams/toy_nic/echo_nic_entry.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;
using ::testing::HasSubstr;

namespace {

// Before anything reads the schema (gtest lists and runs the tests after static initialization).
const bool echo_added = (test::add_echo_nic(), true);

scenario echo_scenario(const std::string& extra)
{
    return config::resolve_text(
        "Simulation: {Name: echo, StopTime: 10 ms}\n"
        "Topology: {Kind: single-switch, Hosts: 4}\n"
        "Nic: {Type: echo}\n"
        "RdmaApplication: {Enabled: false}\n" +
        extra);
}

void add(scenario& sc, uint32_t src, uint32_t dst, uint64_t bytes)
{
    flow_spec f;
    f.src = src;
    f.dst = dst;
    f.bytes = bytes;
    sc.flows.messages.push_back(f);
}

}  // namespace

TEST(echo_nic, is_a_nic_type_with_a_section_of_its_own)
{
    ASSERT_TRUE(echo_added);
    const auto* type = config::schema().keys.find("Nic.Type");
    ASSERT_NE(type, nullptr);
    EXPECT_EQ(type->info.allowed, "uet, raw, roce, echo");
    EXPECT_EQ(config::schema().section_keys("EchoNic").size(), 3u);
    const scenario sc = echo_scenario("EchoNic: {MSS: 1000, Turnaround: 2 us}\n");
    EXPECT_EQ(sc.nic.type, test::echo_nic_kind);
    EXPECT_EQ(sc.nic.section<test::echo_nic_config>().mss, 1000u);
    EXPECT_DOUBLE_EQ(sc.nic.section<test::echo_nic_config>().turnaround_s, 2e-6);
    EXPECT_EQ(nic_data_mss(sc.nic), 1000u);  // Flows cut messages at the echo NIC's MSS
}

TEST(echo_nic, its_keys_are_checked_like_uetsims_own)
{
    try {
        echo_scenario("EchoNic: {MSS: 0}\n");
        FAIL() << "EchoNic.MSS 0 was accepted";
    } catch (const config::config_error& e) {
        EXPECT_THAT(e.what(), HasSubstr("EchoNic.MSS"));
        EXPECT_THAT(e.what(), HasSubstr("9000"));
    }
    EXPECT_THROW(echo_scenario("EchoNic: {Bogus: 1}\n"), config::config_error);
    EXPECT_THROW(config::resolve_text("Nic: {Type: echoes}\n"), config::config_error);
}

// Three messages (10, 1 and 1,049 packets of at most 1,000 B) all complete, every byte written
// once (the scoreboard), with a 5 us turnaround in every completion time.
TEST(echo_nic, runs_flows_end_to_end)
{
    scenario sc = echo_scenario("EchoNic: {MSS: 1000, Turnaround: 5 us}\n");
    add(sc, 0, 1, 10'000);
    add(sc, 2, 3, 1'000);
    add(sc, 3, 0, 1u << 20);
    const std::string dir = test::scratch_dir("echo_nic");
    run_options o;
    o.out_dir = dir;
    const run_summary s = run_simulation(sc, o);
    EXPECT_TRUE(s.scoreboard_ok) << s.scoreboard_message;
    EXPECT_EQ(s.flows_completed, 3u);
    EXPECT_EQ(s.data_packets_sent, 10u + 1u + 1049u);
    const test::csv perf = test::read_csv(dir + "/echo-flow-perf-0.csv");
    ASSERT_EQ(perf.rows.size(), 3u);
    for (size_t r = 0; r < 3; ++r) {
        EXPECT_GT(perf.num(r, "fct_usec"), 5.0) << r;
        EXPECT_LT(perf.num(r, "fct_usec"), 5.0 + 60.0) << r;
    }
    // One packet: its fetch, 1,106 B at 400 Gbps twice, the switch, the turnaround, the echo.
    EXPECT_LT(perf.num(1, "fct_usec"), 5.0 + 3.0);
    // The records that are other types' own do not apply.
    EXPECT_FALSE(std::filesystem::exists(dir + "/echo-uet-transport-stats-0.csv"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/echo-roce-transport-stats-0.csv"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/echo-nd-stats-0.csv"));
}
