// Value ranges are declared once, next to the fields in hw's config headers: the scenario schema
// and hw's own validators (nscc_config_errors, entropy_config_error) must agree at both edges.
#include <gtest/gtest.h>

#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/nscc_config.h"
#include "sim/config/loader.h"

namespace uetsim::config {
namespace {

std::string error_of(const std::vector<std::string>& sets)
{
    try {
        resolve_text("", sets);
    } catch (const config_error& e) {
        return e.what();
    }
    return "no error";
}

std::vector<std::string> nscc_errors(void (*set)(nscc_config&))
{
    nscc_config c;
    set(c);
    return nscc_config_errors(c);
}

TEST(config_ranges, schema_and_nscc_validator_agree)
{
    // The page's ranges: QuickAdaptGate 0..31, Gamma 0.001..1, MaxCongestionWindow 1..4096.
    EXPECT_EQ(error_of({"UetNic.QuickAdaptGate=32"}),
              "UetNic.QuickAdaptGate: 32 is out of range 0..31");
    EXPECT_EQ(nscc_errors([](nscc_config& c) { c.quick_adapt_gate = 32; }),
              std::vector<std::string>{"QuickAdaptGate: 32 is out of range 0..31"});
    EXPECT_EQ(error_of({"UetNic.QuickAdaptGate=31"}), "no error");
    EXPECT_TRUE(nscc_errors([](nscc_config& c) { c.quick_adapt_gate = 31; }).empty());

    EXPECT_EQ(error_of({"UetNic.Gamma=0.0009"}), "UetNic.Gamma: 0.0009 is out of range 0.001..1");
    EXPECT_EQ(nscc_errors([](nscc_config& c) { c.gamma = 0.0009; }),
              std::vector<std::string>{"Gamma: 0.0009 is out of range 0.001..1"});

    EXPECT_EQ(error_of({"UetNic.MaxCongestionWindow=0"}),
              "UetNic.MaxCongestionWindow: 0 is out of range 1..4096");
    EXPECT_EQ(nscc_errors([](nscc_config& c) { c.max_congestion_window = 4097; }),
              std::vector<std::string>{"MaxCongestionWindow: 4097 is out of range 1..4096"});
}

TEST(config_ranges, schema_and_entropy_validator_agree)
{
    EXPECT_EQ(error_of({"UetNic.EntropyMaskBits=9"}),
              "UetNic.EntropyMaskBits: 9 is out of range 0..8");
    entropy_config c;
    c.entropy_mask_bits = 9;
    EXPECT_EQ(entropy_config_error(c), "EntropyMaskBits 9 is outside 0 to 8");
    c.entropy_mask_bits = 8;
    EXPECT_EQ(entropy_config_error(c), std::nullopt);
    c.type = packet_spraying_type::reps;
    c.entropy_value_set_size = 0;
    EXPECT_EQ(entropy_config_error(c), "EntropyValueSetSize 0 is outside 1 to 65536");
    EXPECT_EQ(error_of({"UetNic.EntropyValueSetSize=0"}),
              "UetNic.EntropyValueSetSize: 0 is out of range 1..65536");
}

TEST(config_ranges, the_schema_shows_the_header_ranges)
{
    const auto& keys = schema().keys;
    EXPECT_EQ(keys.find("UetNic.REPSBufferSizeMaskBits")->info.allowed, "0..16");
    EXPECT_EQ(entropy_config::reps_buffer_size_mask_bits_range.hi, 16);
    EXPECT_EQ(keys.find("Pcie.HostSideLaneCount")->info.allowed, "1..16");
    EXPECT_EQ(pcie_config::lanes_range.lo, 1);
    EXPECT_EQ(keys.find("Switch.LoadBalancingStatsReportInterval")->info.allowed, "10us..10s");
    EXPECT_EQ(keys.find("UetNic.MaxExponentialRTOBackoffCount")->info.allowed, "0..15");
}

}  // namespace
}  // namespace uetsim::config
