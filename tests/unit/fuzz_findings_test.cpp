// What the fuzz targets (tests/fuzz, docs/fuzzing-and-sanitizers.md) found in the input readers,
// each kept as the input that found it: bad input is a config_error naming the key (the
// command's exit code 2), never another exception or a crash.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"

namespace uetsim::config {
namespace {

// The config_error message of resolving `yaml` with overrides ("no error" when it resolves).
using test::error_of;

// std::stoul threw std::out_of_range (an internal error, exit code 1) for a row number above
// 2^64 - 1.
TEST(fuzz_findings, a_row_number_too_large_for_64_bits_is_no_row)
{
    const std::string flows = "Flows: [{Src: 0, Dst: 1, Bytes: 1KiB}]\n";
    EXPECT_EQ(error_of(flows, {"Flows[99999999999999999999999].Bytes=1MB"}),
              "--set Flows[99999999999999999999999].Bytes: there is no "
              "Flows[99999999999999999999999]; the scenario has 1 Flows (0..0)");
    EXPECT_EQ(error_of(flows, {"Flows[18446744073709551615].Bytes=1MB"}),
              "--set Flows[18446744073709551615].Bytes: there is no "
              "Flows[18446744073709551615]; the scenario has 1 Flows (0..0)");
}

// Three checks used std::regex, whose matcher recurses once per character: a 300,000-character
// Simulation.Name, Capture.Links entry or --set path overflowed the stack (uetsim validate died
// with SIGSEGV). Each is now refused by its rule, or accepted, like a short one.
TEST(fuzz_findings, a_long_value_is_checked_without_overflowing_the_stack)
{
    const std::string long_name(300000, 'a');
    EXPECT_EQ(resolve_text("Simulation: {Name: " + long_name + "}\n").simulation.name, long_name);
    EXPECT_EQ(error_of("", {"Simulation.Name=" + long_name + "/"}).substr(0, 17),
              "Simulation.Name: ");
    EXPECT_NE(error_of("Capture: {Links: [" + long_name + "]}\n")
                  .find("is not a link name (two device names joined by '-'"),
              std::string::npos);
    EXPECT_TRUE(error_of("", {"Switch[" + long_name + "].EcmpHashMethod=crc32"}) ==
                "Switch[" + long_name + "].EcmpHashMethod: '" + long_name +
                    "' matches no switch of this topology; its switches are leaf0..leaf1, "
                    "spine0..spine7");
    EXPECT_EQ(error_of("", {"Simulation.EpochUtc=" + std::string(300000, '1')}).substr(0, 20),
              "Simulation.EpochUtc:");
}

// The link-name and --set path checks, rewritten without std::regex, accept and refuse what the
// expressions did: [a-z]+[0-9]+-[a-z]+[0-9]+(\.[0-9]+)? and Section[index].Key.
TEST(fuzz_findings, link_names_and_indexed_paths_keep_their_grammar)
{
    for (const char* good : {"host3-leaf0", "leaf0-spine2", "leaf0-spine2.1", "a1-b2.10"})
        EXPECT_EQ(
            error_of(std::string("Capture: {Links: [") + good + "]}\n").find("is not a link name"),
            std::string::npos)
            << good;
    for (const char* bad : {"host-leaf0", "host3leaf0", "host3-leaf", "Host3-leaf0", "host3-leaf0.",
                            "host3-leaf0.x", "host3-leaf0-spine1", "3-leaf0"})
        EXPECT_NE(
            error_of(std::string("Capture: {Links: [") + bad + "]}\n").find("is not a link name"),
            std::string::npos)
            << bad;
    // The index runs to the last "]." that only key characters follow.
    EXPECT_EQ(error_of("", {"Switch[lea]f*].EcmpHashMethod=crc32"}),
              "Switch[lea]f*].EcmpHashMethod: 'lea]f*' matches no switch of this topology; its "
              "switches are leaf0..leaf1, spine0..spine7");
    EXPECT_EQ(error_of("", {"Flows[].Bytes=1MB"}),
              "--set Flows[].Bytes: a row of Flows is chosen by its number, e.g. Flows[3]");
    EXPECT_EQ(resolve_text("", {"Switch[leaf*].EcmpHashMethod=hash"}).overrides.size(), 1u);
}

// Suggesting the closest key compared a long name with every key by edit distance: a minute
// for 300,000 characters under AddressSanitizer, seconds without. Keys whose length is too far
// off to be suggested are now skipped, so a long name is compared with none.
TEST(fuzz_findings, an_unknown_key_of_any_length_gets_its_suggestion_at_once)
{
    EXPECT_EQ(error_of("", {"Switch.EcmpHashMetod=crc32"}),
              "unknown key 'Switch.EcmpHashMetod'; did you mean 'Switch.EcmpHashMethod'?");
    const std::string key = "Switch." + std::string(1000000, 'a');
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(error_of("", {key + "=1"}).substr(0, 14), "unknown key 'S");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace uetsim::config
