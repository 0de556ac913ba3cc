// A RoCE queue pair's sending side without the kernel: segmentation and opcodes, numbering,
// cumulative retirement, go-back-N on a NAK and on a timer expiry, ghost ACKs and 24-bit wrap,
// with hand-computed cases from the transport page.
#include <gtest/gtest.h>

#include <vector>

#include "hw/nic/roce/roce_opcodes.h"
#include "hw/nic/roce/roce_psn.h"
#include "hw/nic/roce/roce_requester.h"

using namespace uetsim;

namespace {

// Generates and numbers `n` segments.
std::vector<roce_segment> send(roce_requester& r, int n)
{
    std::vector<roce_segment> out;
    for (int i = 0; i < n; ++i) {
        out.push_back(r.next_segment());
        r.number();
    }
    return out;
}

}  // namespace

TEST(roce_psn, wraps_at_24_bits)
{
    EXPECT_EQ(roce::psn_add(0xFFFFFF, 1), 0u);
    EXPECT_EQ(roce::psn_add(0, -1), 0xFFFFFFu);
    EXPECT_EQ(roce::psn_diff(2, 0xFFFFFE), 4);
    EXPECT_EQ(roce::psn_diff(0xFFFFFE, 2), -4);
    EXPECT_EQ(roce::psn_diff(0x800000, 0), -0x800000);  // half the space: "earlier"
}

TEST(roce_opcodes, first_middle_last_only)
{
    using namespace roce;
    EXPECT_EQ(data_opcode(verb::rdma_write, position_of(0, 1)), 0x0A);
    EXPECT_EQ(data_opcode(verb::rdma_write, position_of(0, 3)), 0x06);
    EXPECT_EQ(data_opcode(verb::rdma_write, position_of(1, 3)), 0x07);
    EXPECT_EQ(data_opcode(verb::rdma_write, position_of(2, 3)), 0x08);
    EXPECT_EQ(data_opcode(verb::send, position_of(0, 1)), 0x04);
    EXPECT_EQ(data_opcode(verb::send, position_of(0, 2)), 0x00);
    EXPECT_EQ(data_opcode(verb::send, position_of(1, 2)), 0x02);
    EXPECT_TRUE(ends_message(0x08));
    EXPECT_TRUE(ends_message(0x04));
    EXPECT_FALSE(ends_message(0x07));
    EXPECT_TRUE(is_nak(aeth_nak_psn_sequence_error));
    EXPECT_FALSE(is_nak(ib::aeth_ack_no_credit));
}

TEST(roce_requester, one_mib_write_is_256_segments_of_4096)
{
    roce_requester r(100, 4096);
    r.start_message(1 << 20, roce::verb::rdma_write);
    EXPECT_EQ(r.packets(), 256u);
    const auto s = send(r, 256);
    EXPECT_EQ(s[0].opcode, ib::rc_rdma_write_first);
    EXPECT_EQ(s[1].opcode, ib::rc_rdma_write_middle);
    EXPECT_EQ(s[255].opcode, ib::rc_rdma_write_last);
    EXPECT_TRUE(s[255].last);
    EXPECT_FALSE(s[254].last);
    EXPECT_EQ(s[255].offset, 255u * 4096);
    EXPECT_EQ(s[255].payload, 4096u);
    EXPECT_EQ(s[0].psn, 100u);
    EXPECT_EQ(s[255].psn, 355u);
    EXPECT_FALSE(r.has_segment());
    EXPECT_EQ(r.outstanding(), 256u);
}

TEST(roce_requester, sizes_the_last_segment_and_sends_an_empty_message_as_one_packet)
{
    roce_requester r(0, 4096);
    r.start_message(10000, roce::verb::send);
    const auto s = send(r, 3);
    EXPECT_EQ(s[2].payload, 10000u - 8192);
    EXPECT_EQ(s[2].opcode, ib::rc_send_last);
    EXPECT_TRUE(r.on_ack(2).message_done);
    r.start_message(0, roce::verb::rdma_write);
    EXPECT_EQ(r.packets(), 1u);
    const roce_segment e = r.next_segment();
    EXPECT_EQ(e.payload, 0u);
    EXPECT_EQ(e.opcode, ib::rc_rdma_write_only);
    EXPECT_EQ(e.psn, 3u);  // PSNs continue from the previous message
}

TEST(roce_requester, the_timer_starts_when_a_psn_enters_an_empty_window)
{
    roce_requester r(0, 1000);
    r.start_message(5000, roce::verb::rdma_write);
    r.next_segment();
    r.next_segment();
    EXPECT_TRUE(r.number());   // first PSN: window was empty
    EXPECT_FALSE(r.number());  // second: not
    EXPECT_EQ(r.on_ack(1).retired, 2u);
    EXPECT_TRUE(r.window_empty());
    r.next_segment();
    EXPECT_TRUE(r.number());  // empty again
}

TEST(roce_requester, acks_retire_cumulatively_and_ghosts_are_detected)
{
    roce_requester r(0, 1000);
    r.start_message(10000, roce::verb::rdma_write);
    send(r, 4);  // PSNs 0..3 outstanding
    const auto a = r.on_ack(1);
    EXPECT_FALSE(a.ghost);
    EXPECT_EQ(a.retired, 2u);
    EXPECT_EQ(r.oldest_outstanding_psn(), 2u);
    EXPECT_EQ(r.on_ack(0).retired, 0u);  // older: a duplicate ACK, not a ghost
    EXPECT_FALSE(r.on_ack(0).ghost);
    EXPECT_TRUE(r.on_ack(4).ghost);  // PSN 4 is not numbered yet
    EXPECT_EQ(r.outstanding(), 2u);
}

TEST(roce_requester, a_nak_retires_below_and_rewinds_to_the_named_psn)
{
    roce_requester r(0, 1000);
    r.start_message(10000, roce::verb::rdma_write);
    send(r, 6);  // PSNs 0..5 numbered
    r.next_segment();
    r.next_segment();  // 6 and 7 being fetched
    EXPECT_EQ(r.fetching(), 2u);
    const uint32_t epoch = r.epoch();
    const auto n = r.on_nak(3);
    EXPECT_FALSE(n.ghost);
    EXPECT_FALSE(n.stale);
    EXPECT_EQ(n.retired, 3u);  // 0, 1, 2
    EXPECT_EQ(n.discarded.segments, 2u);
    EXPECT_EQ(n.discarded.payload_bytes, 2000u);
    EXPECT_NE(r.epoch(), epoch);
    EXPECT_TRUE(r.window_empty());
    EXPECT_EQ(r.oldest_outstanding_psn(), 3u);
    // Go-back-N: the next segments are exactly PSN 3 on, same PSNs and offsets.
    const roce_segment s = r.next_segment();
    EXPECT_EQ(s.psn, 3u);
    EXPECT_EQ(s.offset, 3000u);
    EXPECT_TRUE(r.number());
    EXPECT_TRUE(r.on_nak(1).stale);  // below the window
    EXPECT_TRUE(r.on_nak(5).ghost);  // not numbered since the rewind
}

TEST(roce_requester, a_timeout_rewinds_to_the_oldest_outstanding_psn)
{
    roce_requester r(0, 4096);
    r.start_message(1 << 20, roce::verb::rdma_write);
    send(r, 256);
    EXPECT_EQ(r.on_ack(254).retired, 255u);  // the ACK on packet 255
    const auto d = r.on_timeout();
    EXPECT_EQ(d.segments, 0u);
    EXPECT_TRUE(r.has_segment());
    const roce_segment s = r.next_segment();
    EXPECT_EQ(s.psn, 255u);  // packet 256
    EXPECT_TRUE(s.last);
    EXPECT_FALSE(r.has_segment());
    r.number();
    EXPECT_TRUE(r.on_ack(255).message_done);
    EXPECT_FALSE(r.busy());
}

TEST(roce_requester, psns_wrap_across_2_to_the_24)
{
    roce_requester r(0xFFFFFE, 100);
    r.start_message(400, roce::verb::rdma_write);
    const auto s = send(r, 4);
    EXPECT_EQ(s[1].psn, 0xFFFFFFu);
    EXPECT_EQ(s[2].psn, 0u);
    EXPECT_EQ(s[3].psn, 1u);
    EXPECT_EQ(r.on_ack(0).retired, 3u);
    EXPECT_TRUE(r.on_ack(2).ghost);
    EXPECT_TRUE(r.on_ack(1).message_done);
}

TEST(roce_requester, keeps_each_outstanding_psns_send_time)
{
    roce_requester r(10, 100);
    r.start_message(300, roce::verb::rdma_write);
    send(r, 3);
    r.sent(11, 5000);
    EXPECT_EQ(r.sent_at(11), 5000u);
    EXPECT_EQ(r.sent_at(10), 0u);  // numbered, not serialized yet
    r.on_ack(10);
    EXPECT_EQ(r.sent_at(10), 0u);  // retired
    EXPECT_EQ(r.sent_at(11), 5000u);
}
