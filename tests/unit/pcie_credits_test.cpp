// The PCIe credit accounting of one receiver and TLP type (hw/pcie/pcie_credits.h), alone:
// credits taken when a TLP starts, returned at a given time, a TLP held until its header and
// data credits are both free, 0 advertised as infinite, and the 16-byte data credit.
#include <gtest/gtest.h>

#include "hw/pcie/pcie_config.h"
#include "hw/pcie/pcie_credits.h"

using namespace uetsim;

// A data credit is 16 bytes (four DW): 512 B take 32, 4,096 B 256, 17 B 2; a zero-length
// write still carries one DW, one credit.
TEST(pcie_credits, data_credits_are_16_byte_units)
{
    EXPECT_EQ(pcie_data_credits(512), 32u);
    EXPECT_EQ(pcie_data_credits(4096), 256u);
    EXPECT_EQ(pcie_data_credits(17), 2u);
    EXPECT_EQ(pcie_data_credits(16), 1u);
    EXPECT_EQ(pcie_data_credits(0), 1u);
}

// Two headers: two TLPs start at once, the third waits for the first's return at 1,000 ps,
// the fourth for the second's at 1,500 ps.
TEST(pcie_credits, a_tlp_waits_for_a_header_credit)
{
    pcie_credit_pool p({2, 1000});
    EXPECT_EQ(p.acquire(0, 1, 32), 0u);
    p.release(1000, 1, 32);
    EXPECT_EQ(p.acquire(10, 1, 32), 10u);
    p.release(1500, 1, 32);
    EXPECT_EQ(p.free_header(), 0u);
    EXPECT_EQ(p.acquire(20, 1, 32), 1000u);
    p.release(3000, 1, 32);
    EXPECT_EQ(p.acquire(1200, 1, 32), 1500u);
    EXPECT_EQ(p.free_header(), 0u);
    EXPECT_EQ(p.free_data(), 1000u - 64);
}

// 64 data credits (two 512 B TLPs) and plenty of headers: the data credits bind. A TLP whose
// credits are back before it is ready does not wait.
TEST(pcie_credits, a_tlp_waits_for_its_data_credits)
{
    pcie_credit_pool p({100, 64});
    EXPECT_EQ(p.acquire(0, 1, 32), 0u);
    p.release(700, 1, 32);
    EXPECT_EQ(p.acquire(0, 1, 32), 0u);
    p.release(800, 1, 32);
    // 40 credits: one return is not enough, two are.
    EXPECT_EQ(p.acquire(100, 1, 40), 800u);
    p.release(2000, 1, 40);
    EXPECT_EQ(p.free_data(), 24u);
    EXPECT_EQ(p.acquire(2500, 1, 64), 2500u);
    EXPECT_EQ(p.free_data(), 0u);
}

// Both kinds must be free: headers back early do not help a TLP short of data credits.
TEST(pcie_credits, header_and_data_credits_both_bind)
{
    pcie_credit_pool p({1, 256});
    EXPECT_EQ(p.acquire(0, 1, 16), 0u);
    p.release(100, 1, 16);
    EXPECT_EQ(p.acquire(0, 1, 240), 100u);  // waits for the header, not the data
    p.release(400, 1, 240);
    EXPECT_EQ(p.acquire(150, 1, 256), 400u);
}

// 0 advertises infinite (the specification's InitFC encoding): nothing ever waits, and the
// header and data halves are infinite independently.
TEST(pcie_credits, zero_is_infinite)
{
    pcie_credit_pool inf({0, 0});
    EXPECT_TRUE(inf.infinite());
    for (uint64_t t = 0; t < 10000; t += 10) {
        EXPECT_EQ(inf.acquire(t, 1, 256), t);
        inf.release(t + 1000000, 1, 256);
    }
    pcie_credit_pool headers_only({1, 0});
    EXPECT_FALSE(headers_only.infinite());
    EXPECT_TRUE(headers_only.data_infinite());
    EXPECT_EQ(headers_only.acquire(0, 1, 100000), 0u);
    headers_only.release(50, 1, 100000);
    EXPECT_EQ(headers_only.acquire(0, 1, 100000), 50u);
}

// fits(): a TLP needing more than the advertised limit could never go.
TEST(pcie_credits, fits_compares_with_the_advertised_limits)
{
    const pcie_credit_pool p({2, 31});
    EXPECT_TRUE(p.fits(1, 31));
    EXPECT_FALSE(p.fits(1, 32));
    EXPECT_FALSE(p.fits(3, 1));
    EXPECT_TRUE(pcie_credit_pool({0, 0}).fits(1000, 1000000));
}

// The defaults: an Intel R-tile PCIe 5.0 x16 endpoint's advertisement, at both ends.
TEST(pcie_credits, defaults_are_a_gen5_x16_endpoints)
{
    const pcie_config c;
    for (const pcie_side_credits& s : {c.nic_side_credits, c.host_side_credits}) {
        EXPECT_EQ(s[pcie_tlp_type::posted].header, 784u);
        EXPECT_EQ(s[pcie_tlp_type::posted].data, 1456u);  // 23,296 B
        EXPECT_EQ(s[pcie_tlp_type::non_posted].header, 784u);
        EXPECT_EQ(s[pcie_tlp_type::non_posted].data, 392u);
        EXPECT_EQ(s[pcie_tlp_type::completion].header, 0u);  // infinite
        EXPECT_EQ(s[pcie_tlp_type::completion].data, 0u);
    }
    EXPECT_EQ(c.credit_return_latency_s, 0.0);
    EXPECT_EQ(c.max_read_request, 4096u);
    EXPECT_FALSE(c.error());
}

// A finite posted or completion data limit below one MaxPayloadSize transfer (512 B = 32
// credits) is refused, naming the key, the value and what is allowed.
TEST(pcie_credits, data_credits_below_one_transfer_are_refused)
{
    pcie_config c;
    c.host_side_credits[pcie_tlp_type::posted].data = 31;
    ASSERT_TRUE(c.error());
    EXPECT_EQ(*c.error(),
              "Pcie.HostSidePostedDataCredits is 31 but one transfer of Pcie.MaxPayloadSize "
              "(512 B) takes 32 data credits of 16 B; allowed: infinite, or 32 to 32752");
    c.host_side_credits[pcie_tlp_type::posted].data = 32;
    EXPECT_FALSE(c.error());
    c.nic_side_credits[pcie_tlp_type::completion].data = 8;
    c.max_payload = 128;
    EXPECT_FALSE(c.error());  // 128 B = 8 credits
    c.max_payload = 256;
    ASSERT_TRUE(c.error());
    EXPECT_NE(c.error()->find("Pcie.NicSideCompletionDataCredits is 8"), std::string::npos);
    // Non-posted data credits are not checked: read requests carry no data.
    pcie_config n;
    n.nic_side_credits[pcie_tlp_type::non_posted].data = 1;
    EXPECT_FALSE(n.error());
}
