// PDC bookkeeping without the kernel: cumulative and selective ACKs, 64-PSN blocks, PSN wrap,
// trim NACKs and timeouts feeding the retransmission queue.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "hw/nic/uet/pdc_receiver.h"
#include "hw/nic/uet/pdc_sender.h"
#include "hw/nic/uet/psn.h"

using namespace uetsim;

namespace {

void send(pdc_sender& s, int n)
{
    for (int i = 0; i < n; ++i) {
        sent_packet& p = s.assign(0, uint64_t(i) * 4096, 4096, 4184, false);
        p.tx_count = 1;
        p.in_flight = true;
    }
}

std::vector<uint32_t> psns(const std::vector<sent_packet*>& v)
{
    std::vector<uint32_t> out;
    for (auto* p : v) out.push_back(p->psn);
    return out;
}

}  // namespace

TEST(psn, serial_arithmetic_across_the_wrap)
{
    EXPECT_TRUE(psn::before(0xFFFFFFFFu, 0u));
    EXPECT_EQ(psn::diff(2u, 0xFFFFFFFEu), 4);
    EXPECT_TRUE(psn::at_or_before(5u, 5u));
    EXPECT_FALSE(psn::before(3u, 0xFFFFFFF0u));
}

TEST(pdc_receiver, in_order_advances_the_cumulative_ack)
{
    pdc_receiver r(100);
    EXPECT_EQ(r.cack(), 99u);
    EXPECT_EQ(r.on_data(100), pdc_receiver::arrival::in_order);
    EXPECT_EQ(r.on_data(101), pdc_receiver::arrival::in_order);
    EXPECT_EQ(r.cack(), 101u);
    EXPECT_EQ(r.next_sack().bitmap, 0u);
}

TEST(pdc_receiver, gap_then_fill_counts_out_of_order_and_duplicates)
{
    pdc_receiver r(0);
    EXPECT_EQ(r.on_data(2), pdc_receiver::arrival::out_of_order);
    EXPECT_EQ(r.on_data(3), pdc_receiver::arrival::out_of_order);
    EXPECT_EQ(r.on_data(3), pdc_receiver::arrival::duplicate);
    EXPECT_EQ(r.out_of_order_held(), 2u);
    auto s = r.next_sack();
    EXPECT_EQ(s.base, 0u);
    EXPECT_EQ(s.bitmap, 0b1100u);  // PSNs 2 and 3
    EXPECT_EQ(r.on_data(0), pdc_receiver::arrival::in_order);
    EXPECT_EQ(r.cack(), 0u);
    EXPECT_EQ(r.on_data(1), pdc_receiver::arrival::in_order);
    EXPECT_EQ(r.cack(), 3u);  // 1 fills the gap: 2 and 3 were already there
    EXPECT_EQ(r.out_of_order_held(), 0u);
    EXPECT_EQ(r.on_data(1), pdc_receiver::arrival::duplicate);
    EXPECT_EQ(r.out_of_order_events(), 2u);
    EXPECT_EQ(r.duplicates(), 2u);
    EXPECT_EQ(r.max_out_of_order_held(), 2u);
}

TEST(pdc_receiver, successive_acks_walk_the_64_psn_blocks)
{
    pdc_receiver r(1000);
    r.on_data(1000 + 5);    // block 0
    r.on_data(1000 + 130);  // block 2
    auto a = r.next_sack(), b = r.next_sack(), c = r.next_sack(), d = r.next_sack();
    EXPECT_EQ(a.base, 1000u);
    EXPECT_EQ(a.bitmap, uint64_t(1) << 5);
    EXPECT_EQ(b.base, 1064u);
    EXPECT_EQ(b.bitmap, 0u);
    EXPECT_EQ(c.base, 1128u);
    EXPECT_EQ(c.bitmap, uint64_t(1) << 2);
    EXPECT_EQ(d.base, 1000u);  // and around again
}

// The transport page: only the CACK and the bitmap retire a PSN; the acknowledged PSN names the
// packet for the RTT sample. With received PSNs in two 64-PSN blocks, the ACK that 1096 draws
// reports block 0 (the walk's turn), so 1096 stays outstanding and in flight although its own
// ACK came back: the case behind the trimming incast's timeouts (docs/uet-nic.md, X10).
TEST(pdc, an_ack_whose_block_leaves_out_its_own_psn_does_not_retire_it)
{
    pdc_sender s(1000);
    send(s, 100);  // PSNs 1000..1099
    pdc_receiver r(1000);
    std::vector<sent_packet*> retired;
    for (uint32_t p : {1003u, 1095u, 1096u}) {
        r.on_data(p);
        const auto k = r.next_sack();
        s.on_ack(r.cack(), k.base, k.bitmap, retired);
    }
    // ACK of 1003: block 0 (1000..1063); of 1095: block 1 (1064..1127); of 1096: block 0 again.
    EXPECT_EQ(psns(retired), (std::vector<uint32_t>{1003, 1095}));
    ASSERT_NE(s.find(1096), nullptr);
    EXPECT_FALSE(s.find(1096)->retired);
    EXPECT_TRUE(s.find(1096)->in_flight);
    // The next ACK (block 1) lists it.
    const auto k = r.next_sack();
    EXPECT_EQ(k.base, 1064u);
    s.on_ack(r.cack(), k.base, k.bitmap, retired);
    EXPECT_EQ(psns(retired), (std::vector<uint32_t>{1003, 1095, 1096}));
}

TEST(pdc_receiver, works_across_the_psn_wrap)
{
    pdc_receiver r(0xFFFFFFFEu);
    EXPECT_EQ(r.on_data(0u), pdc_receiver::arrival::out_of_order);  // 2 beyond
    EXPECT_EQ(r.on_data(0xFFFFFFFEu), pdc_receiver::arrival::in_order);
    EXPECT_EQ(r.on_data(0xFFFFFFFFu), pdc_receiver::arrival::in_order);
    EXPECT_EQ(r.cack(), 0u);
    EXPECT_EQ(r.expected(), 1u);
    EXPECT_EQ(r.on_data(0xFFFFFFFFu), pdc_receiver::arrival::duplicate);
}

TEST(pdc_sender, cumulative_ack_retires_everything_at_or_below)
{
    pdc_sender s(10);
    send(s, 5);  // PSNs 10..14
    std::vector<sent_packet*> retired;
    s.on_ack(12, 13, 0, retired);
    EXPECT_EQ(psns(retired), (std::vector<uint32_t>{10, 11, 12}));
    s.release_retired();
    EXPECT_EQ(s.oldest_unacked(), 13u);
    retired.clear();
    s.on_ack(12, 13, 0, retired);  // the same ACK again retires nothing
    EXPECT_TRUE(retired.empty());
}

TEST(pdc_sender, selective_ack_retires_listed_psns_without_retransmitting_gaps)
{
    pdc_sender s(0);
    send(s, 8);
    std::vector<sent_packet*> retired;
    s.on_ack(0xFFFFFFFFu, 0, 0b10110100u, retired);  // nothing in order; 2, 4, 5, 7 selectively
    EXPECT_EQ(psns(retired), (std::vector<uint32_t>{2, 4, 5, 7}));
    s.release_retired();
    EXPECT_EQ(s.oldest_unacked(), 0u);  // the head is not acknowledged yet
    EXPECT_FALSE(s.has_retransmission());
    retired.clear();
    s.on_ack(3, 4, 0, retired);
    EXPECT_EQ(psns(retired), (std::vector<uint32_t>{0, 1, 3}));
    s.release_retired();
    EXPECT_EQ(s.oldest_unacked(), 6u);
}

TEST(pdc_sender, selective_bits_outside_the_window_are_ignored)
{
    // The window holds PSNs 10..19 (0..9 acknowledged and released). The block starts at PSN 4:
    // bits 0..5 lie below the window, bits 6..15 in it, bit 16 and bit 63 past its end.
    pdc_sender s(0);
    send(s, 20);
    std::vector<sent_packet*> retired;
    s.on_ack(9, 10, 0, retired);
    s.release_retired();
    ASSERT_EQ(s.oldest_unacked(), 10u);
    retired.clear();
    const uint64_t bits = 0b111111ull | (1ull << 7) | (1ull << 15) | (1ull << 16) | (1ull << 63);
    s.on_ack(9, 4, bits, retired);
    EXPECT_EQ(psns(retired), (std::vector<uint32_t>{11, 19}));
    // The same block again retires nothing new.
    retired.clear();
    s.on_ack(9, 4, bits, retired);
    EXPECT_TRUE(retired.empty());
}

TEST(pdc_sender, psn_wrap_within_the_window)
{
    pdc_sender s(0xFFFFFFFDu);
    send(s, 6);  // FFFFFFFD, FFFFFFFE, FFFFFFFF, 0, 1, 2
    std::vector<sent_packet*> retired;
    s.on_ack(0u, 1u, 0b10u, retired);  // CACK 0; SACK PSN 2
    EXPECT_EQ(psns(retired),
              (std::vector<uint32_t>{0xFFFFFFFDu, 0xFFFFFFFEu, 0xFFFFFFFFu, 0u, 2u}));
    s.release_retired();
    EXPECT_EQ(s.oldest_unacked(), 1u);
    EXPECT_EQ(s.next_psn(), 3u);
}

// Against a reference that walks every SACK bit (the retired flag skipping the repeats): random
// windows of up to 600 PSNs across the PSN wrap, ACKs with stale, current and future bases, the
// head released as it is retired. Every ACK retires the same packets in the same order.
TEST(pdc_sender, repeated_sack_bits_retire_what_a_walk_of_every_bit_would)
{
    const uint32_t first = 0xFFFFFF00u;
    pdc_sender s(first);
    std::vector<bool> retired;  // the reference, by PSN - first
    uint32_t next = first, base = first;
    uint64_t x = 88172645463325252ull;
    auto rnd = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    std::vector<sent_packet*> got;
    for (int step = 0; step < 5'000; ++step) {
        const uint32_t window = next - base;
        if (window < 600 && rnd() % 2) {
            const int n = int(rnd() % 70);
            send(s, n);
            next += uint32_t(n);
            retired.resize(next - first, false);
            continue;
        }
        if (window == 0) continue;
        // CACK somewhere before or in the window; SACK base from before the window to past it.
        const uint32_t cack = base - 1 + uint32_t(rnd() % (std::min<uint32_t>(window, 8) + 1));
        const uint32_t sack_base = base - 70 + uint32_t(rnd() % (window + 140));
        const uint64_t bitmap = rnd() & rnd();
        std::vector<uint32_t> expected;
        for (uint32_t q = base; psn::at_or_before(q, cack); ++q)
            if (!retired[q - first]) {
                retired[q - first] = true;
                expected.push_back(q);
            }
        for (int b = 0; b < 64; ++b) {
            const uint32_t q = sack_base + uint32_t(b);
            if (!((bitmap >> b) & 1u) || psn::before(q, base)) continue;
            if (!psn::before(q, next)) break;
            if (!retired[q - first]) {
                retired[q - first] = true;
                expected.push_back(q);
            }
        }
        got.clear();
        s.on_ack(cack, sack_base, bitmap, got);
        ASSERT_EQ(psns(got), expected) << step;
        s.release_retired();
        while (base != next && retired[base - first]) ++base;
        ASSERT_EQ(s.oldest_unacked(), base) << step;
    }
}

TEST(pdc_sender, trim_nack_queues_a_retransmission_once)
{
    pdc_sender s(0);
    send(s, 4);
    sent_packet* p = s.on_loss(2);
    ASSERT_NE(p, nullptr);
    EXPECT_FALSE(p->in_flight);
    EXPECT_EQ(s.on_loss(2), nullptr);  // no longer in flight: a second NACK does nothing
    EXPECT_TRUE(s.has_retransmission());
    sent_packet* r = s.take_retransmission();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->psn, 2u);
    EXPECT_FALSE(s.has_retransmission());
}

TEST(pdc_sender, loss_of_an_acknowledged_packet_is_ignored)
{
    pdc_sender s(0);
    send(s, 3);
    std::vector<sent_packet*> retired;
    s.on_ack(0xFFFFFFFFu, 0, 0b10u, retired);  // PSN 1 selectively acknowledged
    EXPECT_EQ(s.on_loss(1), nullptr);
    EXPECT_EQ(s.on_loss(7), nullptr);  // never sent
}

TEST(pdc_sender, retransmission_acknowledged_while_queued_is_dropped_from_the_queue)
{
    pdc_sender s(0);
    send(s, 3);
    s.on_loss(0);
    s.on_loss(1);
    std::vector<sent_packet*> retired;
    s.on_ack(0, 1, 0, retired);  // PSN 0 arrived after all (a late original)
    sent_packet* r = s.take_retransmission();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->psn, 1u);
    EXPECT_EQ(s.take_retransmission(), nullptr);
}

#include "hw/nic/uet/retransmit_timeout.h"

TEST(retransmit_timeout, doubles_per_retransmission_up_to_the_backoff_cap)
{
    uet_nic_config c;  // 150 us, at most 5 doublings
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 1), 150e-6);
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 2), 300e-6);
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 3), 600e-6);
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 6), 4.8e-3);  // 150 us x 2^5: the cap
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 7), 4.8e-3);
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 200), 4.8e-3);
    c.max_exponential_rto_backoff_count = 0;
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 4), 150e-6);
    c.max_exponential_rto_backoff_count = 15;
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 16), 150e-6 * 32768);
    c.initial_retransmit_timeout_s = 10e-6;
    EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, 3), 40e-6);
}

TEST(retransmit_timeout, fixed_timeout_never_doubles)
{
    uet_nic_config c;
    c.fixed_rexmit_time_enable = true;
    c.fixed_rexmit_timeout_s = 75e-6;
    for (uint32_t n : {1u, 2u, 9u}) EXPECT_DOUBLE_EQ(retransmit_timeout_s(c, n), 75e-6);
}

// The congestion-control page: an ACK (or a trim NACK) gives an RTT sample when it answers a
// packet sent once or re-sent once, timed from the end of that transmission's serialization.
TEST(sent_packet, gives_an_rtt_sample_when_sent_once_or_resent_once)
{
    sent_packet p;
    EXPECT_FALSE(p.gives_rtt_sample());  // never sent
    p.tx_count = 1;
    EXPECT_FALSE(p.gives_rtt_sample());  // still serializing: no end time yet
    p.sent_end_ps = 104'040;
    EXPECT_TRUE(p.gives_rtt_sample());
    p.tx_count = 2;
    EXPECT_TRUE(p.gives_rtt_sample());  // the first retransmission
    p.tx_count = 3;
    EXPECT_FALSE(p.gives_rtt_sample());
    p.tx_count = 1;
    p.retired = true;
    EXPECT_FALSE(p.gives_rtt_sample());  // already acknowledged
}
