// share_settings (hw/common/shared_settings.h): equal settings are kept once, different ones
// apart, and none outlives its last holder.
#include <gtest/gtest.h>

#include <memory>

#include "hw/common/shared_settings.h"
#include "hw/nic/uet/uet_nic_config.h"

using namespace uetsim;

namespace {

// No padding: equal values have equal bytes however they were copied.
struct timing
{
    double rate_bps = 400e9;
    uint64_t mtu = 4096;
    uint64_t ecn = 1;
};
static_assert(sizeof(timing) == 24);

}  // namespace

const timing k_base{};

TEST(share_settings, equal_values_share_one_copy)
{
    const timing a = k_base;
    timing b = k_base;
    b.mtu = 4096;
    const auto pa = share_settings(a);
    const auto pb = share_settings(b);
    EXPECT_EQ(pa.get(), pb.get());
    EXPECT_EQ(pa->mtu, 4096u);
    EXPECT_EQ(pa.use_count(), 2);
}

TEST(share_settings, different_values_are_kept_apart)
{
    const timing a = k_base;
    timing b = k_base;
    b.rate_bps = 800e9;
    const auto pa = share_settings(a);
    const auto pb = share_settings(b);
    EXPECT_NE(pa.get(), pb.get());
    EXPECT_EQ(pa->rate_bps, 400e9);
    EXPECT_EQ(pb->rate_bps, 800e9);
    // A copy of `b` finds b's, not a's.
    const timing c = b;
    EXPECT_EQ(share_settings(c).get(), pb.get());
}

TEST(share_settings, the_registry_holds_no_value_alive)
{
    std::weak_ptr<const timing> seen;
    {
        timing t = k_base;
        t.mtu = 9000;
        const auto p = share_settings(t);
        seen = p;
        EXPECT_FALSE(seen.expired());
    }
    EXPECT_TRUE(seen.expired());
    timing again = k_base;
    again.mtu = 9000;
    EXPECT_EQ(share_settings(again)->mtu, 9000u);
}

// A UET NIC's settings as the fabric makes them: value-initialised, copied per device, a field
// set per device. uet_nic_config copies its settings whole, padding included, so copies compare
// equal byte for byte however the compiler copies a struct.
TEST(share_settings, copies_of_a_nic_configuration_share)
{
    const uet_nic_config base{};
    uet_nic_config h0 = base;
    uet_nic_config h1 = base;
    h0.rdma_data_mss = h1.rdma_data_mss = 8192;
    h1.job_table = {7, 9};  // not part of what a NIC keeps
    EXPECT_EQ(share_settings<uet_nic_settings>(h0).get(),
              share_settings<uet_nic_settings>(h1).get());
    h1.trimming_enabled = !h0.trimming_enabled;
    EXPECT_NE(share_settings<uet_nic_settings>(h0).get(),
              share_settings<uet_nic_settings>(h1).get());
}
