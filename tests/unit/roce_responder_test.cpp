// A RoCE queue pair's receiving side without the kernel: in-order, duplicate and gap arrivals,
// one NAK per gap, and the three acknowledgement coalescing rules with the transport page's
// numbers (AckThreshold 16: an ACK on every 17th packet; the last packet acknowledged at once;
// the AckDelay timer).
#include <gtest/gtest.h>

#include "hw/nic/roce/roce_responder.h"

using namespace uetsim;

namespace {

roce_ack_policy defaults()
{
    return roce_ack_policy{};  // coalescing on, threshold 16, delay 1 ms
}

}  // namespace

TEST(roce_responder, a_1_mib_write_draws_16_acks_at_the_defaults)
{
    roce_responder r(0, defaults());
    int acks = 0;
    std::vector<int> acked_on;
    for (int i = 1; i <= 256; ++i) {
        const auto v = r.on_data(uint32_t(i - 1), i == 256, uint64_t(i) * 83'080);
        EXPECT_EQ(v.what, roce_responder::arrival::in_order);
        EXPECT_FALSE(v.nak);
        if (v.ack) {
            ++acks;
            acked_on.push_back(i);
        }
    }
    EXPECT_EQ(acks, 16);  // 15 by the count + 1 by the last packet
    ASSERT_EQ(acked_on.size(), 16u);
    EXPECT_EQ(acked_on[0], 17);
    EXPECT_EQ(acked_on[1], 34);
    EXPECT_EQ(acked_on[14], 255);
    EXPECT_EQ(acked_on[15], 256);
    EXPECT_EQ(r.ack_psn(), 255u);
    EXPECT_EQ(r.held(), 0u);
    EXPECT_EQ(r.msn(), 1u);  // one message received in full
}

TEST(roce_responder, the_timer_starts_on_a_held_packet_and_is_not_extended)
{
    roce_responder r(0, defaults());
    auto v = r.on_data(0, false, 1000);
    EXPECT_FALSE(v.ack);
    EXPECT_TRUE(v.timer_armed);
    EXPECT_EQ(r.ack_deadline_ps(), 1000u + 1'000'000'000);
    v = r.on_data(1, false, 5000);  // later packets do not extend it
    EXPECT_FALSE(v.timer_armed);
    EXPECT_EQ(r.ack_deadline_ps(), 1000u + 1'000'000'000);
    EXPECT_EQ(r.held(), 2u);
    EXPECT_TRUE(r.on_ack_timer());  // expires with packets held: ACK
    EXPECT_EQ(r.held(), 0u);
    EXPECT_FALSE(r.ack_timer_running());
    EXPECT_EQ(r.ack_psn(), 1u);
}

TEST(roce_responder, an_ack_by_count_or_flag_restarts_the_timer)
{
    roce_ack_policy p = defaults();
    p.threshold = 2;
    roce_responder r(0, p);
    r.on_data(0, false, 0);
    r.on_data(1, false, 10);
    const auto v = r.on_data(2, false, 20);  // third packet: by the count
    EXPECT_TRUE(v.ack);
    EXPECT_TRUE(v.timer_armed);
    EXPECT_EQ(r.ack_deadline_ps(), 20u + p.delay_ps);
    EXPECT_FALSE(r.on_ack_timer());            // expires with nothing held: no ACK
    const auto last = r.on_data(3, true, 30);  // solicited event: at once
    EXPECT_TRUE(last.ack);
    EXPECT_EQ(r.ack_deadline_ps(), 30u + p.delay_ps);
}

TEST(roce_responder, a_gap_draws_exactly_one_nak_and_cancels_the_held_ack)
{
    roce_responder r(10, defaults());
    r.on_data(10, false, 0);
    r.on_data(11, false, 0);
    EXPECT_EQ(r.held(), 2u);
    auto v = r.on_data(13, false, 0);  // 12 lost
    EXPECT_EQ(v.what, roce_responder::arrival::gap);
    EXPECT_TRUE(v.nak);
    EXPECT_FALSE(v.ack);
    EXPECT_EQ(r.expected_psn(), 12u);
    EXPECT_EQ(r.held(), 0u);
    EXPECT_FALSE(r.ack_timer_running());
    for (uint32_t psn = 14; psn < 20; ++psn) {
        v = r.on_data(psn, psn == 19, 0);
        EXPECT_EQ(v.what, roce_responder::arrival::after_nak);
        EXPECT_FALSE(v.nak);
        EXPECT_FALSE(v.ack);
    }
    v = r.on_data(12, false, 0);  // the retransmission fills the gap
    EXPECT_EQ(v.what, roce_responder::arrival::in_order);
    EXPECT_FALSE(r.nak_outstanding());
    v = r.on_data(14, false, 0);  // a new gap: a new NAK
    EXPECT_TRUE(v.nak);
}

TEST(roce_responder, a_duplicate_is_acknowledged_by_the_rules_not_delivered)
{
    roce_responder r(0, defaults());
    r.on_data(0, true, 0);
    const auto v = r.on_data(0, true, 100);  // the last packet again (its ACK was lost)
    EXPECT_EQ(v.what, roce_responder::arrival::duplicate);
    EXPECT_TRUE(v.ack);
    EXPECT_EQ(r.ack_psn(), 0u);
    EXPECT_EQ(r.expected_psn(), 1u);
}

TEST(roce_responder, without_coalescing_every_packet_is_acknowledged)
{
    roce_ack_policy p = defaults();
    p.coalescing = false;
    roce_responder r(0xFFFFFF, p);
    auto v = r.on_data(0xFFFFFF, false, 0);
    EXPECT_TRUE(v.ack);
    EXPECT_FALSE(v.timer_armed);
    v = r.on_data(0, false, 0);  // across the wrap
    EXPECT_EQ(v.what, roce_responder::arrival::in_order);
    EXPECT_TRUE(v.ack);
    v = r.on_data(0xFFFFFF, false, 0);
    EXPECT_EQ(v.what, roce_responder::arrival::duplicate);
    EXPECT_TRUE(v.ack);
}
