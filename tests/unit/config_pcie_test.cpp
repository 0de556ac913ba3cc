// The PCIe transaction-layer keys (docs/host-and-pcie.md, "Transaction-layer credits"): the
// credit keys with their R-tile defaults and the word infinite, the generation words of the lane
// rate keys, MaxReadRequestSize and CreditReturnLatency, and the messages of bad input.
#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"
#include "sim/config/output.h"

namespace uetsim::config {
namespace {

using test::error_of;

const pcie_credit_limits& limits(const pcie_side_credits& s, pcie_tlp_type t)
{
    return s[t];
}

TEST(config_pcie, defaults_are_a_gen5_x16_endpoints_credits_and_infinite_completions)
{
    const scenario sc = resolve_text("");
    for (const pcie_side_credits* s : {&sc.pcie.nic_side_credits, &sc.pcie.host_side_credits}) {
        EXPECT_EQ(limits(*s, pcie_tlp_type::posted).header, 784u);
        EXPECT_EQ(limits(*s, pcie_tlp_type::posted).data, 1456u);
        EXPECT_EQ(limits(*s, pcie_tlp_type::non_posted).header, 784u);
        EXPECT_EQ(limits(*s, pcie_tlp_type::non_posted).data, 392u);
        EXPECT_EQ(limits(*s, pcie_tlp_type::completion).header, 0u);  // infinite
        EXPECT_EQ(limits(*s, pcie_tlp_type::completion).data, 0u);
    }
    EXPECT_EQ(sc.pcie.credit_return_latency_s, 0.0);
    EXPECT_EQ(sc.pcie.max_read_request, 4096u);
    // The resolved scenario prints infinite as the word.
    const std::string yaml = scenario_yaml(sc);
    EXPECT_NE(yaml.find("NicSideCompletionHeaderCredits: infinite"), std::string::npos);
    EXPECT_NE(yaml.find("HostSidePostedDataCredits: 1456"), std::string::npos);
}

TEST(config_pcie, every_credit_key_sets_its_end_and_type)
{
    const scenario sc = resolve_text(R"(
Pcie:
  NicSidePostedHeaderCredits: 1
  NicSidePostedDataCredits: 32
  NicSideNonPostedHeaderCredits: 3
  NicSideNonPostedDataCredits: 4
  NicSideCompletionHeaderCredits: 5
  NicSideCompletionDataCredits: 2032
  HostSidePostedHeaderCredits: infinite
  HostSidePostedDataCredits: infinite
  HostSideNonPostedHeaderCredits: 2032
  HostSideNonPostedDataCredits: 32752
  HostSideCompletionHeaderCredits: 7
  HostSideCompletionDataCredits: 64
  CreditReturnLatency: 250ns
  MaxReadRequestSize: 512B
)");
    const auto& n = sc.pcie.nic_side_credits;
    const auto& h = sc.pcie.host_side_credits;
    EXPECT_EQ(n[pcie_tlp_type::posted].header, 1u);
    EXPECT_EQ(n[pcie_tlp_type::posted].data, 32u);
    EXPECT_EQ(n[pcie_tlp_type::non_posted].header, 3u);
    EXPECT_EQ(n[pcie_tlp_type::non_posted].data, 4u);
    EXPECT_EQ(n[pcie_tlp_type::completion].header, 5u);
    EXPECT_EQ(n[pcie_tlp_type::completion].data, 2032u);
    EXPECT_EQ(h[pcie_tlp_type::posted].header, 0u);
    EXPECT_EQ(h[pcie_tlp_type::posted].data, 0u);
    EXPECT_EQ(h[pcie_tlp_type::non_posted].header, 2032u);
    EXPECT_EQ(h[pcie_tlp_type::non_posted].data, 32752u);
    EXPECT_EQ(h[pcie_tlp_type::completion].header, 7u);
    EXPECT_EQ(h[pcie_tlp_type::completion].data, 64u);
    EXPECT_DOUBLE_EQ(sc.pcie.credit_return_latency_s, 250e-9);
    EXPECT_EQ(sc.pcie.max_read_request, 512u);
}

// Gen1..Gen5 are the lane rates after line coding; width x generation is the direction's rate.
TEST(config_pcie, a_generation_names_its_lane_rate)
{
    const scenario sc = resolve_text(
        "Pcie:\n  NicSideLaneBps: Gen4\n  NicSideLaneCount: 8\n"
        "  HostSideLaneBps: Gen3\n");
    EXPECT_DOUBLE_EQ(sc.pcie.nic_side_lane_bps, 15.76e9);
    EXPECT_DOUBLE_EQ(sc.pcie.nic_to_host_bps(), 126.08e9);  // Gen4 x8
    EXPECT_DOUBLE_EQ(sc.pcie.host_to_nic_bps(), 126.08e9);  // Gen3 x16: the page's PCIe 3.0
    for (const auto& [word, bps] : {std::pair{"Gen1", 2e9}, {"Gen2", 4e9}, {"Gen5", 31.52e9}}) {
        const scenario g = resolve_text("", {std::string("Pcie.HostSideLaneBps=") + word});
        EXPECT_DOUBLE_EQ(g.pcie.host_side_lane_bps, bps) << word;
    }
    // The old form keeps working.
    EXPECT_DOUBLE_EQ(resolve_text("", {"Pcie.NicSideLaneBps=16Gbps"}).pcie.nic_side_lane_bps, 16e9);
}

// Bad input names the key, the value and what is allowed.
TEST(config_pcie, bad_values_name_the_key_the_value_and_the_allowed)
{
    const std::string zero = error_of("", {"Pcie.HostSidePostedHeaderCredits=0"});
    EXPECT_NE(zero.find("Pcie.HostSidePostedHeaderCredits"), std::string::npos) << zero;
    EXPECT_NE(zero.find("1..2032"), std::string::npos) << zero;
    EXPECT_NE(zero.find("infinite"), std::string::npos) << zero;
    const std::string word = error_of("", {"Pcie.NicSideCompletionDataCredits=unlimited"});
    EXPECT_NE(word.find("Pcie.NicSideCompletionDataCredits"), std::string::npos) << word;
    EXPECT_NE(word.find("unlimited"), std::string::npos) << word;
    EXPECT_NE(word.find("infinite"), std::string::npos) << word;
    const std::string gen = error_of("", {"Pcie.NicSideLaneBps=Gen6"});
    EXPECT_NE(gen.find("Pcie.NicSideLaneBps"), std::string::npos) << gen;
    EXPECT_NE(gen.find("Gen6"), std::string::npos) << gen;
    EXPECT_NE(gen.find("Gen1, Gen2, Gen3, Gen4, Gen5"), std::string::npos) << gen;
    const std::string mrrs = error_of("", {"Pcie.MaxReadRequestSize=8KiB"});
    EXPECT_NE(mrrs.find("Pcie.MaxReadRequestSize"), std::string::npos) << mrrs;
    EXPECT_NE(mrrs.find("64..4096"), std::string::npos) << mrrs;
    // A finite data limit below one MaxPayloadSize transfer: the rule's message.
    EXPECT_NE(error_of("", {"Pcie.HostSidePostedDataCredits=31"})
                  .find("Pcie.HostSidePostedDataCredits is 31 but one transfer of "
                        "Pcie.MaxPayloadSize (512 B) takes 32 data credits of 16 B; allowed: "
                        "infinite, or 32 to 32752"),
              std::string::npos);
    // 16 credits hold one 256 B transfer, not one of 512 B.
    EXPECT_NE(error_of("", {"Pcie.NicSideCompletionDataCredits=16"}).find("is 16 but"),
              std::string::npos);
    EXPECT_EQ(error_of("", {"Pcie.NicSideCompletionDataCredits=16", "Pcie.MaxPayloadSize=256"}),
              "no error");
}

}  // namespace
}  // namespace uetsim::config
