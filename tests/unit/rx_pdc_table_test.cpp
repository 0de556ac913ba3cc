// The receive PDC table without the kernel: the first packet opens a receiving end with the
// next id of 32769..65535, a SYN with another first PSN reopens a reused sender id, a late
// non-SYN copy from the earlier PDC is rejected, and the ids wrap.
#include <gtest/gtest.h>

#include "hw/nic/uet/rx_pdc_table.h"

using namespace uetsim;

TEST(rx_pdc_table, first_packet_opens_with_the_next_receiver_id)
{
    sack_tracker sacks(65536);
    rx_pdc_table t(sacks);
    receiver_pdc* a = t.on_data(2, 1, 500, true);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->id, 32769);
    EXPECT_EQ(a->first_psn, 500u);
    EXPECT_EQ(sacks.receiver(a->sack_slot).cack(),
              499u);  // nothing received in order before the first PSN
    // The same sender id from another host is another PDC.
    receiver_pdc* b = t.on_data(3, 1, 900, true);
    EXPECT_EQ(b->id, 32770);
    // Later packets of the PDC, SYN or not, find it.
    EXPECT_EQ(t.on_data(2, 1, 500, false), a);
    EXPECT_EQ(t.on_data(2, 1, 500, true), a);
    EXPECT_EQ(t.size(), 2u);
}

TEST(rx_pdc_table, a_syn_with_a_new_first_psn_reopens_a_late_copy_is_rejected)
{
    sack_tracker sacks(65536);
    rx_pdc_table t(sacks);
    t.on_data(2, 1, 500, true);
    // A non-SYN packet with another first PSN is a late copy from an earlier PDC: rejected,
    // the open one kept.
    EXPECT_EQ(t.on_data(2, 1, 77, false), nullptr);
    EXPECT_EQ(t.on_data(2, 1, 500, false)->id, 32769);
    // The sender reused id 1 for a new PDC (first PSN 8000, SYN set): a fresh receiving end.
    receiver_pdc* r = t.on_data(2, 1, 8000, true);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->id, 32770);
    EXPECT_EQ(r->first_psn, 8000u);
    EXPECT_EQ(t.size(), 1u);
    // Now the earlier PDC's packets are the late copies.
    EXPECT_EQ(t.on_data(2, 1, 500, false), nullptr);
}

TEST(rx_pdc_table, receiver_ids_wrap_from_65535_to_32769)
{
    sack_tracker sacks(65536);
    rx_pdc_table t(sacks);
    // 65535 - 32769 + 1 = 32767 ids before the wrap.
    for (uint32_t i = 0; i < 32767; ++i) ASSERT_EQ(t.on_data(i, 1, 0, true)->id, 32769 + i);
    EXPECT_EQ(t.on_data(40000, 1, 0, true)->id, 32769);
}

// A receiving end is open while a message begun on it has bytes to arrive; the table counts
// the open ends per peer and says when the last one from a peer closes. Two 10,000 B messages
// from host 2 (4,096 + 4,096 + 1,808 B each) on two PDCs, one of 4,096 B from host 3.
TEST(rx_pdc_table, receiving_ends_are_open_until_their_messages_are_in)
{
    sack_tracker sacks(65536);
    rx_pdc_table t(sacks);
    receiver_pdc& a = *t.on_data(2, 1, 500, true);
    receiver_pdc& b = *t.on_data(2, 2, 900, true);
    receiver_pdc& c = *t.on_data(3, 1, 100, true);
    EXPECT_FALSE(t.deliver(a, 4096, 4096, 10'000));  // before its offset 0: open
    EXPECT_TRUE(a.open());
    EXPECT_EQ(t.open_from(2), 1u);
    EXPECT_FALSE(t.deliver(b, 0, 4096, 10'000));
    EXPECT_EQ(t.open_from(2), 2u);
    // Host 3's only message, in one packet: complete at once, so it never counted as open.
    EXPECT_FALSE(t.deliver(c, 0, 4096, 4096));
    EXPECT_EQ(t.open_from(3), 0u);
    EXPECT_FALSE(t.deliver(a, 0, 4096, 10'000));
    EXPECT_FALSE(t.deliver(a, 8192, 1808, 10'000));  // a is in; b still open
    EXPECT_FALSE(a.open());
    EXPECT_EQ(a.rcvd_bytes, 10'000u);
    EXPECT_EQ(t.open_from(2), 1u);
    EXPECT_FALSE(t.deliver(b, 8192, 1808, 10'000));
    EXPECT_TRUE(t.deliver(b, 4096, 4096, 10'000));  // the last open end from host 2
    EXPECT_EQ(t.open_from(2), 0u);
    // A zero-byte message opens nothing.
    receiver_pdc& d = *t.on_data(4, 1, 7, true);
    EXPECT_FALSE(t.deliver(d, 0, 0, 0));
    EXPECT_EQ(t.open_from(4), 0u);
}
