// The sender PDC table without the kernel: id allocation (1..32767, the most recently freed id
// first), PDC groups per destination (enabled or not), the queue-pair map and the liveness of
// an ACK's DPDCID.
#include <gtest/gtest.h>

#include "hw/nic/uet/pdc_table.h"

using namespace uetsim;

namespace {

sender_pdc& open_to(pdc_table& t, uint32_t dst, uint32_t first_psn = 1000)
{
    const uint16_t id = t.allocate_id();
    sender_pdc& p = t.open(id, dst, 0x0a000000 + dst, first_psn, 0);
    bool created = false;
    p.group = t.group_for(dst, created);
    t.join_group(p);
    return p;
}

}  // namespace

TEST(pdc_table, ids_count_up_from_one_and_reuse_the_last_freed_first)
{
    pdc_table t(true);
    sender_pdc& a = open_to(t, 5);
    sender_pdc& b = open_to(t, 5);
    sender_pdc& c = open_to(t, 6);
    EXPECT_EQ(a.id, 1);
    EXPECT_EQ(b.id, 2);
    EXPECT_EQ(c.id, 3);
    t.close(a);
    t.close(c);
    EXPECT_EQ(t.allocate_id(), 3);  // freed last
    EXPECT_EQ(t.allocate_id(), 1);
    EXPECT_EQ(t.allocate_id(), 4);  // free list empty: the next never used
}

TEST(pdc_table, holds_slots_for_the_ids_used_not_for_all_32767)
{
    pdc_table t(true);
    EXPECT_EQ(t.id_slots(), 0u);  // nothing per possible PDC at start-up
    sender_pdc& a = open_to(t, 5);
    open_to(t, 6);
    EXPECT_EQ(t.id_slots(), 3u);  // ids 1 and 2 (slot 0 is never an id)
    t.close(a);
    for (int i = 0; i < 100; ++i) t.close(open_to(t, 7));  // one id, freed and reused
    EXPECT_EQ(t.id_slots(), 3u);
    EXPECT_EQ(t.find(3), nullptr);
    EXPECT_EQ(t.find(40000), nullptr);
}

TEST(pdc_table, all_32767_ids_open_leaves_none)
{
    pdc_table t(false);
    for (uint32_t i = 1; i <= 32767; ++i) ASSERT_EQ(t.allocate_id(), i);
    EXPECT_EQ(t.allocate_id(), 0);
}

TEST(pdc_table, open_resets_the_pdc_for_its_new_use)
{
    pdc_table t(true);
    sender_pdc& p = open_to(t, 7, 555);
    p.remote_id = 40000;
    p.ar_count = 9;
    t.close(p);
    const uint16_t id = t.allocate_id();
    sender_pdc& q = t.open(id, 8, 0x0a000008, 777, 3);
    EXPECT_EQ(&q, &p);  // the same storage, reused
    EXPECT_EQ(q.remote_id, 0);
    EXPECT_EQ(q.ar_count, 0u);
    EXPECT_EQ(q.dst, 8u);
    EXPECT_EQ(q.first_psn, 777u);
    EXPECT_EQ(q.st.next_psn(), 777u);
    EXPECT_EQ(q.message, 3u);
    EXPECT_TRUE(q.open);
}

TEST(pdc_table, groups_enabled_one_group_per_destination_dies_with_its_last_pdc)
{
    pdc_table t(true);
    sender_pdc& a = open_to(t, 5);
    sender_pdc& b = open_to(t, 5);
    sender_pdc& c = open_to(t, 6);
    EXPECT_EQ(a.group, b.group);
    EXPECT_NE(a.group, c.group);
    EXPECT_EQ(t.group(a.group).pdcs, (std::vector<uint16_t>{1, 2}));
    EXPECT_FALSE(t.close(a));  // b keeps the group
    EXPECT_TRUE(t.group(b.group).alive);
    EXPECT_EQ(t.group(b.group).pdcs, (std::vector<uint16_t>{2}));
    EXPECT_TRUE(t.close(b));
    EXPECT_FALSE(t.group(b.group).alive);
    // The destination's next PDC starts a fresh group, in the freed slot.
    bool created = false;
    EXPECT_EQ(t.group_for(5, created), a.group);
    EXPECT_TRUE(created);
    // Destination 6 still has its live group.
    EXPECT_EQ(t.group_for(6, created), c.group);
    EXPECT_FALSE(created);
}

TEST(pdc_table, groups_disabled_every_pdc_has_its_own)
{
    pdc_table t(false);
    sender_pdc& a = open_to(t, 5);
    sender_pdc& b = open_to(t, 5);
    EXPECT_NE(a.group, b.group);
}

TEST(pdc_table, an_ack_names_a_live_pdc_only_with_its_host_and_first_psn)
{
    pdc_table t(true);
    sender_pdc& p = open_to(t, 5, 1234);
    EXPECT_EQ(t.live(p.id, 5, 1234), &p);
    EXPECT_EQ(t.live(p.id, 6, 1234), nullptr);   // another host
    EXPECT_EQ(t.live(p.id, 5, 1235), nullptr);   // the earlier PDC with this id
    EXPECT_EQ(t.live(40000, 5, 1234), nullptr);  // a receiver-range id: out of the table
    EXPECT_EQ(t.find(40000), nullptr);
    EXPECT_EQ(t.find(9), nullptr);  // never used
    t.close(p);
    EXPECT_EQ(t.live(p.id, 5, 1234), nullptr);  // closed
}

TEST(pdc_table, a_queue_pair_keeps_its_pdc)
{
    pdc_table t(true);
    EXPECT_EQ(t.of_queue_pair(3), nullptr);
    sender_pdc& p = open_to(t, 5);
    t.bind_queue_pair(3, p);
    EXPECT_TRUE(p.kept_open);
    EXPECT_EQ(t.of_queue_pair(3), &p);
    EXPECT_EQ(t.of_queue_pair(4), nullptr);
}

// Transport page: a group lives while any PDC to or from its peer is open. A PDC from the peer
// keeps the group when the last sender PDC closes; the group dies when that PDC closes too.
TEST(pdc_table, a_pdc_from_the_peer_keeps_the_group_after_the_last_sender_pdc)
{
    pdc_table t(true);
    sender_pdc& a = open_to(t, 5);
    const uint32_t g = a.group;
    EXPECT_FALSE(t.close(a, true));  // the peer is sending to this NIC
    EXPECT_TRUE(t.group(g).alive);
    bool created = true;
    EXPECT_EQ(t.group_for(5, created), g);  // the next PDC to the peer keeps its state
    EXPECT_FALSE(created);
    t.peer_idle(6);  // another peer: no effect
    EXPECT_TRUE(t.group(g).alive);
    t.peer_idle(5);
    EXPECT_FALSE(t.group(g).alive);
    EXPECT_EQ(t.group_for(5, created), g);
    EXPECT_TRUE(created);  // a fresh group in the freed slot
}

TEST(pdc_table, the_peer_going_idle_leaves_a_group_with_sender_pdcs)
{
    pdc_table t(true);
    sender_pdc& a = open_to(t, 5);
    t.peer_idle(5);
    EXPECT_TRUE(t.group(a.group).alive);
    // Without groups the receiving ends keep nothing.
    pdc_table u(false);
    sender_pdc& b = open_to(u, 5);
    EXPECT_TRUE(u.close(b, true));
}
