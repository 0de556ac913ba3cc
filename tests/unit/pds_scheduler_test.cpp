// The PDS transmit scheduler without the kernel: the PDC turn within a group, a retransmission
// before new data, the last packet's payload, window gating (the group leaves the ring) and
// egress pool gating (the group stays at the head), and the ring order of enqueued groups.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hw/nic/uet/pds_scheduler.h"

using namespace uetsim;

namespace {

constexpr uint32_t mss = 4096;
constexpr uint32_t wire_overhead = 106;
constexpr uint32_t nominal_overhead = 88;

struct bench
{
    pdc_table table{true};
    uet_message_table messages;
    pds_scheduler sched{table, messages, mss, wire_overhead, nominal_overhead};
    nscc_config cc;

    // A PDC to `dst` carrying a new message of `bytes` in class `tc`; returns it.
    sender_pdc& message_to(uint32_t dst, uint64_t bytes, uint8_t tc = 0)
    {
        uet_message m;
        m.bytes = bytes;
        m.traffic_class = tc;
        sched.data_class_used(tc);
        m.packets = uint32_t((bytes + mss - 1) / mss);
        const uint64_t slot = messages.add(m);
        sender_pdc& p = table.open(table.allocate_id(), dst, 0, 100, slot);
        bool created = false;
        p.group = table.group_for(dst, created);
        if (created) table.group(p.group).cc = std::make_unique<nscc>(cc);
        table.join_group(p);
        sched.enqueue(p.group, false);
        return p;
    }
    // What the NIC does with a send decision (new data only).
    void issue(const pds_decision& d)
    {
        uet_message& m = messages[d.pdc->message];
        if (!d.retransmission) {
            d.pdc->st.assign(d.pdc->message, m.next_offset, d.payload, d.payload + 88,
                             m.packets_issued + 1 == m.packets);
            m.next_offset += d.payload;
            ++m.packets_issued;
        } else {
            d.pdc->st.take_retransmission();
        }
        sched.sent(d.group);
    }
};

// Egress pools of `bytes` each for classes 0, 1 and 2 (data reserved in them: `used`, class 0).
nic_egress_pools pools(uint32_t bytes, uint32_t used = 0)
{
    nic_buffer_settings s;
    s.total_buffer_bytes = bytes;
    s.pool_allocation = {1.0, 1.0, 1.0};
    nic_egress_pools p(s);
    p.reserve(0, used);
    return p;
}

const nic_egress_pools room = pools(1'000'000);

}  // namespace

TEST(pds_scheduler, pdcs_of_a_group_take_turns_and_the_last_packet_is_short)
{
    bench b;
    sender_pdc& a = b.message_to(5, 10'000);  // 4096 + 4096 + 1808
    sender_pdc& c = b.message_to(5, 4'096);   // same destination: same group
    ASSERT_EQ(a.group, c.group);
    EXPECT_EQ(b.sched.ready(), 1u);  // the group is queued once
    std::vector<uint16_t> pdcs;
    std::vector<uint32_t> payloads;
    for (int i = 0; i < 4; ++i) {
        const pds_decision d = b.sched.decide(room);
        ASSERT_EQ(d.what, pds_decision::kind::send);
        pdcs.push_back(d.pdc->id);
        payloads.push_back(d.payload);
        b.issue(d);
    }
    EXPECT_EQ(pdcs, (std::vector<uint16_t>{a.id, c.id, a.id, a.id}));
    EXPECT_EQ(payloads, (std::vector<uint32_t>{4096, 4096, 4096, 1808}));
    EXPECT_EQ(b.sched.decide(room).what, pds_decision::kind::idle);
    EXPECT_TRUE(b.sched.empty());
}

TEST(pds_scheduler, a_retransmission_goes_before_new_data)
{
    bench b;
    sender_pdc& a = b.message_to(5, 3 * 4096);
    b.issue(b.sched.decide(room));  // PSN 100
    b.issue(b.sched.decide(room));  // PSN 101
    a.st.find(101)->in_flight = true;
    a.st.on_loss(101);  // trimmed: queued for retransmission
    b.sched.enqueue(a.group, true);
    const pds_decision d = b.sched.decide(room);
    ASSERT_EQ(d.what, pds_decision::kind::send);
    ASSERT_NE(d.retransmission, nullptr);
    EXPECT_EQ(d.retransmission->psn, 101u);
    EXPECT_EQ(d.payload, 4096u);
}

TEST(pds_scheduler, the_egress_pool_blocks_with_the_group_at_the_head)
{
    bench b;
    b.message_to(5, 1000);
    // A 1000 B payload is 1106 B on the wire: 1105 B of room is too little.
    pds_decision d = b.sched.decide(pools(1105));
    EXPECT_EQ(d.what, pds_decision::kind::blocked_on_pool);
    EXPECT_EQ(b.sched.ready(), 1u);
    d = b.sched.decide(pools(1106));
    EXPECT_EQ(d.what, pds_decision::kind::send);
    EXPECT_EQ(d.payload, 1000u);
    EXPECT_EQ(b.sched.ready(), 0u);
}

// With several data classes, a group whose packet its class's pool cannot hold waits apart for
// that pool and the next group goes: class 0's pool has 1,105 B left (1,106 B needed), class
// 2's all 2,000 B. Once class 0's pool drains, its group is back at the head of the ring.
TEST(pds_scheduler, with_several_classes_a_full_pool_holds_only_its_class)
{
    bench b;
    sender_pdc& a = b.message_to(5, 1000, 0);
    sender_pdc& c = b.message_to(6, 1000, 2);
    b.message_to(7, 1000, 2);
    pds_decision d = b.sched.decide(pools(2000, 895));
    ASSERT_EQ(d.what, pds_decision::kind::send);
    EXPECT_EQ(d.pdc, &c);
    EXPECT_EQ(d.traffic_class, 2);
    EXPECT_EQ(b.sched.take_new_pool_waits(), 0b1u);  // the NIC blocks on class 0's pool
    EXPECT_EQ(b.sched.take_new_pool_waits(), 0u);
    b.issue(d);
    // Class 0 still waits (even with room now) until its pool is said to have drained.
    d = b.sched.decide(room);
    ASSERT_EQ(d.what, pds_decision::kind::send);
    EXPECT_EQ(d.pdc->dst, 7u);
    b.issue(d);
    EXPECT_EQ(b.sched.decide(room).what, pds_decision::kind::idle);
    b.sched.pool_freed(0);
    d = b.sched.decide(room);
    EXPECT_EQ(d.pdc, &a);
    EXPECT_EQ(d.traffic_class, 0);
}

TEST(pds_scheduler, a_full_window_takes_the_group_out_of_the_ring)
{
    bench b;
    sender_pdc& a = b.message_to(5, 8192);
    sender_pdc& c = b.message_to(6, 8192);
    pdc_group& ga = b.table.group(a.group);
    // In flight = the whole window: not even one more packet's 4184 nominal bytes fit.
    ga.inflight = uint64_t(ga.cc->cwnd_bytes());
    const pds_decision d = b.sched.decide(room);
    ASSERT_EQ(d.what, pds_decision::kind::send);
    EXPECT_EQ(d.pdc, &c);  // a's group was skipped
    EXPECT_FALSE(ga.queued);
    // a's group comes back when enqueued (an ACK freed window).
    ga.inflight = 0;
    b.sched.enqueue(a.group, true);
    EXPECT_EQ(b.sched.decide(room).pdc, &a);
}

TEST(pds_scheduler, groups_enqueued_at_the_head_go_first)
{
    bench b;
    sender_pdc& g1 = b.message_to(1, 4096);
    sender_pdc& g2 = b.message_to(2, 4096);
    // g3 is enqueued at the head (as after a NACK), others at the tail.
    uet_message m;
    m.bytes = 4096;
    m.packets = 1;
    const uint64_t slot = b.messages.add(m);
    sender_pdc& g3 = b.table.open(b.table.allocate_id(), 3, 0, 100, slot);
    bool created = false;
    g3.group = b.table.group_for(3, created);
    b.table.group(g3.group).cc = std::make_unique<nscc>(b.cc);
    b.table.join_group(g3);
    b.sched.enqueue(g3.group, true);
    b.sched.enqueue(g1.group, true);  // already queued: stays where it is
    std::vector<sender_pdc*> order;
    for (int i = 0; i < 3; ++i) {
        const pds_decision d = b.sched.decide(room);
        order.push_back(d.pdc);
        b.issue(d);
    }
    EXPECT_EQ(order, (std::vector<sender_pdc*>{&g3, &g1, &g2}));
}

// Congestion-control page: a new segment is fetched only while the bytes fetched and not yet
// acknowledged are at most the window (450,000 B at the defaults), besides the wire test; a
// retransmission needs no fetch, so only the wire test applies to it.
TEST(pds_scheduler, new_data_waits_while_fetched_and_unacknowledged_bytes_exceed_the_window)
{
    bench b;
    sender_pdc& a = b.message_to(5, 3 * 4096);
    pdc_group& g = b.table.group(a.group);
    ASSERT_DOUBLE_EQ(g.cc->cwnd_bytes(), 450'000.0);
    b.issue(b.sched.decide(room));  // PSN 100
    // Nothing in flight (the wire test passes), but 450,001 B fetched and not acknowledged.
    g.inflight = 0;
    g.fetched_unacked = 450'001;
    EXPECT_EQ(b.sched.decide(room).what, pds_decision::kind::idle);
    EXPECT_FALSE(g.queued);
    // A lost packet's retransmission still goes.
    a.st.find(100)->in_flight = true;
    a.st.on_loss(100);
    b.sched.enqueue(a.group, true);
    pds_decision d = b.sched.decide(room);
    ASSERT_EQ(d.what, pds_decision::kind::send);
    ASSERT_NE(d.retransmission, nullptr);
    b.issue(d);
    // At exactly the window the fetch is allowed again.
    g.fetched_unacked = 450'000;
    b.sched.enqueue(a.group, true);
    d = b.sched.decide(room);
    ASSERT_EQ(d.what, pds_decision::kind::send);
    EXPECT_EQ(d.retransmission, nullptr);
    EXPECT_EQ(d.payload, 4096u);
}

// A pass that finds no group able to send only takes every group out of the ring: would_idle()
// says so beforehand without changing anything, and idle_pass() leaves the ring as that pass
// does, so that the groups come back in the order an ACK (head) or a message (tail) brings them.
TEST(pds_scheduler, would_idle_predicts_a_pass_that_sends_nothing_and_idle_pass_is_that_pass)
{
    bench b;
    sender_pdc& a = b.message_to(5, 8192);
    sender_pdc& c = b.message_to(6, 8192);
    pdc_group& ga = b.table.group(a.group);
    pdc_group& gc = b.table.group(c.group);
    ga.inflight = uint64_t(ga.cc->cwnd_bytes());
    EXPECT_FALSE(b.sched.would_idle());  // c may send
    gc.inflight = uint64_t(gc.cc->cwnd_bytes());
    EXPECT_TRUE(b.sched.would_idle());
    EXPECT_EQ(b.sched.ready(), 2u);  // asking changed nothing
    EXPECT_TRUE(ga.queued && gc.queued);

    b.sched.idle_pass();
    EXPECT_TRUE(b.sched.empty());
    EXPECT_FALSE(ga.queued || gc.queued);
    // As after a deciding pass: c's ACK brings it back at the head, a's after it, first.
    gc.inflight = ga.inflight = 0;
    b.sched.enqueue(c.group, true);
    b.sched.enqueue(a.group, true);
    EXPECT_EQ(b.sched.decide(room).pdc, &a);
}

TEST(pds_scheduler, would_idle_leaves_the_turn_within_a_group_to_decide)
{
    bench b;
    sender_pdc& a = b.message_to(5, 4096);
    sender_pdc& c = b.message_to(5, 4096);  // same group: a's turn first
    pdc_group& g = b.table.group(a.group);
    const uint64_t cwnd = uint64_t(g.cc->cwnd_bytes());
    g.inflight = cwnd;
    EXPECT_TRUE(b.sched.would_idle());
    g.inflight = 0;
    EXPECT_FALSE(b.sched.would_idle());  // would pick a, but only decide() takes the turn
    EXPECT_EQ(b.sched.decide(room).pdc, &a);
    (void)c;
}

// A group without RCCC credit is something decide() notes (the NIC asks for credit), so such
// a pass is not held back as idle.
TEST(pds_scheduler, a_group_without_credit_is_not_an_idle_pass)
{
    bench b;
    sender_pdc& a = b.message_to(5, 8192);
    pdc_group& g = b.table.group(a.group);
    rccc_credit none(0, 64);
    g.credit = &none;
    ASSERT_FALSE(g.credit->allows());
    EXPECT_FALSE(b.sched.would_idle());
    g.credit = nullptr;
    g.inflight = uint64_t(g.cc->cwnd_bytes());
    EXPECT_TRUE(b.sched.would_idle());
}
