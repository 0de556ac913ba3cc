// UetNic.InitialBaseRTT: auto in the loader: the word in YAML and --set, resolved by the rules to
// the fabric's unloaded round trip, per device through UetNic[glob], and what is refused. On the
// 1 us leaf-spine it is 11.340731 us: tests/unit/fabric_rtt_test.cpp derives 11.332731 us by hand
// with uet_nic_config's stage latencies (RxParse 4 cycles at each end), and a scenario's
// UetNic.SackUpdateCycles: auto adds the SACK tracker's 4 cycles at each end, 2 x 4 ns at 1 GHz:
// 11,332,731 + 8,000 = 11,340,731 ps.
#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"
#include "sim/config/scenario_keys.h"
#include "testbench/elab/instance_config.h"

namespace uetsim::config {
namespace {

const std::string fabric_1us =
    "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8}\n"
    "Link: {NicDelay: 1us, SwitchDelay: 1us}\n";

using test::error_of;

TEST(config_initial_base_rtt, yaml_auto_resolves_to_the_fabric_round_trip)
{
    const scenario sc = resolve_text(fabric_1us + "UetNic: {InitialBaseRTT: auto}\n");
    EXPECT_DOUBLE_EQ(sc.nic.nscc.initial_base_rtt_s, 11.340731e-6);
    EXPECT_FALSE(sc.nic.initial_base_rtt_auto);  // resolved: the scenario shows the value used
}

TEST(config_initial_base_rtt, set_auto_follows_the_topology_given_after_it)
{
    // The rule runs once every key is read, so a later --set of the links still counts.
    const scenario sc = resolve_text("UetNic: {InitialBaseRTT: auto}\n",
                                     {"Link.NicDelay=1us", "Link.SwitchDelay=1us"});
    EXPECT_DOUBLE_EQ(sc.nic.nscc.initial_base_rtt_s, 11.340731e-6);
    const scenario plain = resolve_text(fabric_1us, {"UetNic.InitialBaseRTT=auto"});
    EXPECT_DOUBLE_EQ(plain.nic.nscc.initial_base_rtt_s, 11.340731e-6);
    // A time after auto replaces it.
    const scenario later =
        resolve_text(fabric_1us, {"UetNic.InitialBaseRTT=auto", "UetNic.InitialBaseRTT=7us"});
    EXPECT_DOUBLE_EQ(later.nic.nscc.initial_base_rtt_s, 7e-6);
    EXPECT_FALSE(later.nic.initial_base_rtt_auto);
}

TEST(config_initial_base_rtt, per_device_auto_only_for_matching_hosts)
{
    const scenario sc = resolve_text(fabric_1us + "UetNic[host3]: {InitialBaseRTT: auto}\n");
    EXPECT_DOUBLE_EQ(nic_for(sc, "host3").nscc.initial_base_rtt_s, 11.340731e-6);
    EXPECT_FALSE(nic_for(sc, "host3").initial_base_rtt_auto);
    EXPECT_DOUBLE_EQ(nic_for(sc, "host0").nscc.initial_base_rtt_s, 6e-6);
}

TEST(config_initial_base_rtt, refused_without_a_path_or_with_another_word)
{
    const std::string one =
        error_of("Topology: {Kind: single-switch, Hosts: 1}\nUetNic: {InitialBaseRTT: auto}\n");
    EXPECT_NE(one.find("UetNic.InitialBaseRTT: auto needs a path between two hosts"),
              std::string::npos)
        << one;
    const std::string word = error_of("UetNic: {InitialBaseRTT: Auto}\n");
    EXPECT_NE(word.find("UetNic.InitialBaseRTT"), std::string::npos) << word;
    EXPECT_NE(word.find("or the word auto"), std::string::npos) << word;
}

TEST(config_initial_base_rtt, key_reference_lists_auto)
{
    const auto& k = schema().keys.key("UetNic.InitialBaseRTT");
    EXPECT_NE(k.info.allowed.find("or auto"), std::string::npos) << k.info.allowed;
    EXPECT_EQ(k.info.default_value, "6us");
}

}  // namespace
}  // namespace uetsim::config
