// CBFC's plain logic: the sender's credits per VC, the receiver's update schedule and credit
// sync, the credit of a frame and the line-rate buffer (docs/link-layer.md).
#include <gtest/gtest.h>

#include "hw/cbfc/cbfc_credits.h"
#include "hw/cbfc/cbfc_return.h"
#include "hw/cbfc/cbfc_settings.h"

namespace uetsim {
namespace {

TEST(CbfcSettings, AFrameTakesItsWireBytesInWholeCredits)
{
    cbfc_settings s;
    s.credit_unit_bytes = 64;
    EXPECT_EQ(s.credits_for(64), 1u);
    EXPECT_EQ(s.credits_for(65), 2u);
    EXPECT_EQ(s.credits_for(4202), 66u);  // a 4096 B UET data frame: 65.66 units
    s.credit_unit_bytes = 256;
    EXPECT_EQ(s.credits_for(4202), 17u);
}

TEST(CbfcSettings, VcMapGivesClassesAndVcCount)
{
    cbfc_settings s;
    s.vc_of_tc[0] = 0;
    s.vc_of_tc[1] = 1;
    s.vc_of_tc[5] = 1;
    EXPECT_EQ(s.classes(), 0b0010'0011);
    EXPECT_EQ(s.classes_of(1), 0b0010'0010);
    EXPECT_EQ(s.vcs(), 2);
}

TEST(CbfcSettings, LineRateBufferIsTheRoundTripInWholeCredits)
{
    // 400 Gb/s = 50 B/ns; 100 ns delay, 1 us interval, a NIC receiver (no residence):
    // 50 x 1,200 = 60,000 B, plus two 4,202 B frames and a 64 B update = 68,468 B, rounded up
    // to 64 B credits: 1,070 x 64 = 68,480 B.
    EXPECT_EQ(cbfc_line_rate_buffer_bytes(400e9, 100'000, 1'000'000, 0, 4202, 64, 64), 68'480u);
    // A switch receiver holds the frame 500 ns + its 84.04 ns out: 50 x 1,784.04 = 89,202 B,
    // + 8,468 = 97,670 -> 1,527 x 64 = 97,728 B.
    EXPECT_EQ(cbfc_line_rate_buffer_bytes(400e9, 100'000, 1'000'000, 584'040, 4202, 64, 64),
              97'728u);
    // 500 ns, interval 0, no residence: 50,000 + 8,404 + 64 = 58,468 -> 914 x 64 = 58,496.
    EXPECT_EQ(cbfc_line_rate_buffer_bytes(400e9, 500'000, 0, 0, 4202, 64, 64), 58'496u);
}

TEST(CbfcCredits, AFrameGoesOnlyWithCreditForAllOfIt)
{
    cbfc_credits c(100);
    EXPECT_TRUE(c.take(0, 66, 1000));
    EXPECT_EQ(c.available(0), 34u);
    EXPECT_EQ(c.outstanding(0), 66u);
    EXPECT_FALSE(c.take(0, 66, 2000));  // 34 left: stalls
    EXPECT_TRUE(c.stalled(0));
    EXPECT_TRUE(c.take(1, 66, 2000));  // another VC has its own credit
    EXPECT_EQ(c.stalls(0), 1u);
    // A second refusal of the same frame is the same stall.
    EXPECT_FALSE(c.take(0, 66, 2500));
    EXPECT_EQ(c.stalls(0), 1u);
    EXPECT_EQ(c.stall_ps(0, 3000), 1000u);
}

TEST(CbfcCredits, AnUpdateEndsTheStallOnlyWhenTheWaitingFrameFits)
{
    cbfc_credits c(100);
    ASSERT_TRUE(c.take(0, 66, 0));
    ASSERT_FALSE(c.take(0, 66, 1000));
    // 20 freed: 54 available, the 66-credit frame still waits.
    EXPECT_FALSE(c.update(0, 20, 1500));
    EXPECT_TRUE(c.stalled(0));
    EXPECT_EQ(c.available(0), 54u);
    // Cumulative: 40 freed in all gives 74.
    EXPECT_TRUE(c.update(0, 40, 4000));
    EXPECT_FALSE(c.stalled(0));
    EXPECT_EQ(c.stall_ps(0, 9000), 3000u);
    EXPECT_TRUE(c.take(0, 66, 4000));
    EXPECT_EQ(c.outstanding(0), 92u);
}

TEST(CbfcCredits, CountsWrapModulo65536AndStaleUpdatesGrantNothing)
{
    cbfc_credits c(30000);
    uint64_t freed = 0;
    // Spend and return 70,000 credits: the 16-bit counts wrap once.
    for (int i = 0; i < 7; ++i) {
        ASSERT_TRUE(c.take(0, 10000, 0));
        freed += 10000;
        c.update(0, uint16_t(freed), 0);
        ASSERT_EQ(c.outstanding(0), 0u);
    }
    ASSERT_TRUE(c.take(0, 20000, 0));
    c.update(0, uint16_t(freed - 5000), 0);  // an older count: would grant more than spent
    EXPECT_EQ(c.outstanding(0), 20000u);
}

TEST(CbfcCredits, IntervalRangeOfOutstandingCredits)
{
    cbfc_credits c(100);
    c.take(0, 30, 0);
    c.take(0, 30, 0);
    c.update(0, 50, 0);
    const cbfc_credits::range r = c.take_interval(0);
    EXPECT_EQ(r.min, 0u);  // the interval started with none outstanding
    EXPECT_EQ(r.max, 60u);
    const cbfc_credits::range next = c.take_interval(0);
    EXPECT_EQ(next.min, 10u);
    EXPECT_EQ(next.max, 10u);
}

TEST(CbfcReturn, AtMostOneUpdatePerInterval)
{
    cbfc_return r(1'000'000);  // 1 us
    // The first freeing goes at once.
    EXPECT_EQ(r.freed(0, 66, 5'000'000), 5'000'000u);
    EXPECT_EQ(r.freed(1, 10, 5'000'000), 0u);  // joins the pending update
    auto u = r.take_update(5'000'000);
    EXPECT_EQ(u[0], 66);
    EXPECT_EQ(u[1], 10);
    // Freed 300 ns later: waits for the interval's end.
    EXPECT_EQ(r.freed(0, 66, 5'300'000), 6'000'000u);
    EXPECT_EQ(r.freed(0, 66, 5'900'000), 0u);
    u = r.take_update(6'000'000);
    EXPECT_EQ(u[0], 198);  // cumulative
    // Freed long after: at once.
    EXPECT_EQ(r.freed(0, 1, 9'000'000), 9'000'000u);
    EXPECT_EQ(r.updates(), 2u);
}

TEST(CbfcReturn, ASyncCountsTheCreditsSpentThatNeverArrivedAsFreed)
{
    cbfc_return r(0);
    r.arrived(0, 10);
    r.arrived(0, 10);
    // The sender spent 50: 30 never arrived (lost on the link). They count as arrived now and
    // are the caller's to free; a second sync with the same count finds nothing more.
    EXPECT_EQ(r.lost_before_sync(0, 50), 30u);
    EXPECT_EQ(r.received_total(0), 50u);
    EXPECT_EQ(r.lost_before_sync(0, 50), 0u);
    // A sync older than frames that arrived since (its count behind ours) is stale: nothing.
    r.arrived(0, 10);
    EXPECT_EQ(r.lost_before_sync(0, 50), 0u);
    EXPECT_EQ(r.received_total(0), 60u);
    // Other VCs are their own.
    EXPECT_EQ(r.lost_before_sync(1, 5), 5u);
}

TEST(CbfcReturn, ASyncCountWrapsModulo65536)
{
    cbfc_return r(0);
    for (int i = 0; i < 6554; ++i) r.arrived(0, 10);  // 65,540 credits: 4 past the wrap
    EXPECT_EQ(r.lost_before_sync(0, uint16_t(65540 + 6)), 6u);
    EXPECT_EQ(r.received_total(0), 65546u);
}

TEST(CbfcReturn, AReportWithNothingNewIsDueAtTheNextSlot)
{
    cbfc_return r(1'000'000);
    EXPECT_EQ(r.report(5), 5u);  // no update yet: at once
    r.take_update(5);
    EXPECT_EQ(r.report(200'000), 1'000'005u);  // an interval after the last
    EXPECT_EQ(r.report(300'000), 0u);          // one is due already
}

}  // namespace
}  // namespace uetsim
