// The receive PDC table without the kernel: the first packet opens a receiving end with the
// next id of 32769..65535, a SYN with another first PSN reopens a reused sender id, a late
// non-SYN copy from the earlier PDC is rejected, and the ids wrap.
#include <gtest/gtest.h>

#include "hw/nic/uet/rx_pdc_table.h"

using namespace uetsim;

TEST(rx_pdc_table, first_packet_opens_with_the_next_receiver_id)
{
    rx_pdc_table t;
    receiver_pdc* a = t.on_data(2, 1, 500, true);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->id, 32769);
    EXPECT_EQ(a->first_psn, 500u);
    EXPECT_EQ(a->st.cack(), 499u);  // nothing received in order before the first PSN
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
    rx_pdc_table t;
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
    rx_pdc_table t;
    // 65535 - 32769 + 1 = 32767 ids before the wrap.
    for (uint32_t i = 0; i < 32767; ++i) ASSERT_EQ(t.on_data(i, 1, 0, true)->id, 32769 + i);
    EXPECT_EQ(t.on_data(40000, 1, 0, true)->id, 32769);
}
