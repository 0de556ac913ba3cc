// The PDS delivery modes on the two-NIC bench (tests/support/uet_nic_pair.h: 400 Gb/s, 100 ns
// of propagation, NIC clock 1 GHz, stub host DMA whose fetch takes no time). Times and bytes
// derived by hand from the bench's timing (tests/component/uet_ack_path_test.cpp): data frame k
// of a message ends serializing at 20 + 84.04 (k + 1) ns (4,096 B of payload + 106 B of headers =
// 4,202 B), arrives 100 ns later and spends 4 ns in the receiving NIC's pipeline; a NACK (62 B)
// takes 1.24 ns on the wire, an ACK (78 B) 1.56 ns, after a hold of 4,184 B x 8 / 400 Gb/s =
// 83.68 ns.
//
// ROD: one entropy value for the PDC (the None policy's value of its id, 0xC000 | 1 for the first
// PDC), the PDS type ROD_REQ (3), the same 16-byte request header as RUD. A frame past a gap is
// dropped at the target, which NACKs the gap once (ROD_OOO, 0x0D, naming the expected PSN); the
// sender goes back N: every frame from the gap on is sent again, in order.
//
// RUDI and UUD: see the comments of their tests below.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "tests/support/uet_nic_pair.h"
#include "tlm/delivery_mode.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

using seen = seen_frame;

struct mode_bench : frame_recorder
{
    nic_pair n;
    mode_bench() { record(n); }
};

}  // namespace

// 16 KiB in ROD: four frames of 4,202 B, each ROD_REQ on one entropy value, arriving at B at
// 120 + 84.04 (k + 1) ns as RUD's would; written in order, the message complete once.
TEST(uet_delivery_modes, rod_sends_on_one_entropy_value_with_its_request_type)
{
    mode_bench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 16384, 0, k_no_queue_pair, delivery_mode::rod);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 4u);
    for (size_t k = 0; k < data.size(); ++k) {
        EXPECT_EQ(data[k].at_ps, 120'000u + 84'040u * (k + 1)) << k;
        EXPECT_EQ(data[k].wire_bytes, 4'202u) << k;
        EXPECT_EQ(data[k].pds.type, pds_type::rod_request) << k;
        EXPECT_EQ(data[k].entropy, 0xC001u) << k;
        EXPECT_EQ(data[k].ses.offset, 4096u * k) << k;
    }
    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 16384));
    EXPECT_EQ(b.n.b.counters().nack_pkts_sent, 0u);
}

// The same message in RUD: the default spraying gives the frames different entropy values and
// the RUD_REQ type (2); this is what ROD's one value above differs from.
TEST(uet_delivery_modes, rud_sprays_with_its_request_type)
{
    mode_bench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 16384, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 4u);
    for (const seen& s : data) EXPECT_EQ(s.pds.type, pds_type::rud_request);
    EXPECT_NE(data[0].entropy, data[1].entropy);
}

// Go-back-N: 32 KiB in ROD (frames 0..7), frame 2's first copy lost on the way to B.
// Frame 3 reaches B at 120 + 84.04 x 4 = 456.16 ns, is processed at 460.16 ns and dropped past the
// gap: B's one ROD_OOO NACK (B's link idle since its ACK of frame 1 ended at 377.32 ns) names
// PSN first + 2, ends at 461.40 ns and reaches A at 561.40 ns. Frames 4..7 are dropped at B too,
// with no further NACK. A sends frames 2..7 again in order: 8 + 6 = 14 frames of 4,202 B leave A
// (58,828 B), 13 reach B, and B writes the eight payloads once each, in offset order.
TEST(uet_delivery_modes, rod_goes_back_n_from_a_gap_and_delivers_in_order)
{
    mode_bench b;
    auto first_copies = std::make_shared<int>(0);
    b.n.to_b.drop = [first_copies](const packet& p) {
        return p.kind == packet_kind::uet_data && !p.pds.retransmit && (*first_copies)++ == 2;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 32768, 0, k_no_queue_pair, delivery_mode::rod);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    const std::vector<seen> nacks = b.of(b.at_a, packet_kind::uet_nack);
    ASSERT_EQ(nacks.size(), 1u);
    EXPECT_EQ(nacks[0].at_ps, 561'400u);
    EXPECT_EQ(nacks[0].pds.nack_code, nack_rod_out_of_order);
    EXPECT_EQ(nacks[0].wire_bytes, 62u);

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 13u);
    const uint32_t first_psn = data[0].pds.psn;
    EXPECT_EQ(nacks[0].pds.psn, first_psn + 2);
    // The first copies of 0, 1, 3..7, then 2..7 again, in PSN order.
    const std::vector<uint32_t> order = {0, 1, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7};
    for (size_t i = 0; i < order.size(); ++i) {
        EXPECT_EQ(data[i].pds.psn - first_psn, order[i]) << i;
        EXPECT_EQ(data[i].pds.retransmit, i >= 7) << i;
        EXPECT_EQ(data[i].entropy, 0xC001u) << i;
    }
    EXPECT_EQ(b.n.a.counters().num_rtx, 6u);
    EXPECT_EQ(b.n.a.counters().write_pkts_sent, 14u);
    EXPECT_EQ(b.n.b.counters().nack_pkts_sent, 1u);
    EXPECT_EQ(b.n.b.counters().num_out_of_order_events_on_nic, 5u);  // frames 3..7 dropped

    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 32768));
    const auto& writes = b.n.dma_b.writes.at({0, 1});
    ASSERT_EQ(writes.size(), 8u);
    for (size_t k = 0; k < writes.size(); ++k) EXPECT_EQ(writes[k].offset, 4096u * k) << k;
}

// RUDI (PDS type 4): the request header is 8 bytes (prologue, rsvd, pkt_id), so a full frame is
// 4,096 + 98 = 4,194 B and takes 83.88 ns: frame k of 16 KiB ends serializing at
// 20 + 83.88 (k + 1) ns and reaches B 100 ns later, sprayed as RUD. B keeps no PDC: it places the
// packet and answers at once (no hold: the answer carries no service time) with a RUDI_RESP
// (type 5) of 8 + 12 (SES response) + 28 + 18 = 66 B, 1.32 ns on the wire: RESP k reaches A at
// 120 + 83.88 (k + 1) + 4 + 1.32 + 100 = 225.32 + 83.88 (k + 1) ns, naming frame k's packet id.
// B finds the message placed when frame 3 is processed, 124 + 83.88 x 4 = 459.52 ns; A completes
// it when RESP 3 is processed, 560.84 + 4 = 564.84 ns. No probe (no PDC at B to probe).
TEST(uet_delivery_modes, rudi_answers_each_packet_id_with_a_rudi_resp_and_keeps_no_pdc)
{
    mode_bench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 16384, 0, k_no_queue_pair, delivery_mode::rudi);
    sc_core::sc_start(sc_core::sc_time(300, sc_core::SC_NS));
    EXPECT_EQ(b.n.b.open_rx_pdcs(), 0u) << "frames 0..1 are in, and no receiving PDC";
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    const std::vector<seen> resps = b.of(b.at_a, packet_kind::uet_ack);
    ASSERT_EQ(data.size(), 4u);
    ASSERT_EQ(resps.size(), 4u);
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(data[k].at_ps, 120'000u + 83'880u * (k + 1)) << k;
        EXPECT_EQ(data[k].wire_bytes, 4'194u) << k;
        EXPECT_EQ(data[k].pds.type, pds_type::rudi_request) << k;
        EXPECT_EQ(data[k].ses.offset, 4096u * k) << k;
        EXPECT_EQ(data[k].pds.psn, data[0].pds.psn + k) << k;
        EXPECT_EQ(resps[k].at_ps, 225'320u + 83'880u * (k + 1)) << k;
        EXPECT_EQ(resps[k].wire_bytes, 66u) << k;
        EXPECT_EQ(resps[k].pds.type, pds_type::rudi_response) << k;
        EXPECT_EQ(resps[k].pds.psn, data[k].pds.psn) << k;
    }
    EXPECT_NE(data[0].entropy, data[1].entropy) << "sprayed as RUD";
    EXPECT_EQ(b.at_a.size(), 4u) << "RUDI_RESPs only: no NACK, no probe answer";
    EXPECT_EQ(b.of(b.at_b, packet_kind::uet_probe).size(), 0u);
    EXPECT_EQ(b.n.b.open_rx_pdcs(), 0u);

    ASSERT_EQ((b.n.dma_b.received[{0, 1}].size()), 1u);
    EXPECT_EQ((b.n.dma_b.received[{0, 1}][0]), 459'520u);
    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(b.n.dma_a.completed[1][0], 564'840u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 16384));
}

// RUDI's losses, each repaired per packet: frame 0's first copy is trimmed (54 B: the 8-byte
// header left), and B NACKs its packet id; frame 1's first copy is lost, and A's timer for it
// sends it again; frame 2's RUDI_RESP is lost, so A's timer sends frame 2 again too, which B
// finds placed already: answered, not written twice (a duplicate). Three retransmissions, two
// of them on a timeout; B writes each of the four payloads once and finds the message placed
// once; A completes it once.
TEST(uet_delivery_modes, rudi_repairs_trims_losses_and_lost_responses_packet_by_packet)
{
    mode_bench b;
    auto firsts = std::make_shared<int>(0);
    b.n.to_b.drop = [firsts](const packet& p) {
        return p.kind == packet_kind::uet_data && !p.pds.retransmit && (*firsts)++ == 1;
    };
    b.n.to_b.edit = [&b](packet& p) {
        if (p.kind == packet_kind::uet_data && !p.pds.retransmit && p.ses.offset == 0)
            p.trim(false);
        b.at_b.push_back(
            {sc_core::sc_time_stamp().value(), p.kind, p.wire_bytes, p.udp.src_port, p.pds, p.ses});
    };
    auto resps = std::make_shared<int>(0);
    b.n.to_a.drop = [resps](const packet& p) {
        return p.pds.type == pds_type::rudi_response && (*resps)++ == 1;  // frame 2's
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 16384, 0, k_no_queue_pair, delivery_mode::rudi);
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 6u) << "0 (trimmed), 2, 3, then 0, 1, 2 again";
    EXPECT_EQ(data[0].wire_bytes, 54u);
    const std::vector<seen> nacks = b.of(b.at_a, packet_kind::uet_nack);
    ASSERT_EQ(nacks.size(), 1u);
    EXPECT_EQ(nacks[0].pds.psn, data[0].pds.psn);
    EXPECT_EQ(nacks[0].pds.nack_code, 1u);  // TRIMMED
    EXPECT_EQ(b.n.a.counters().num_rtx, 3u);
    EXPECT_EQ(b.n.a.counters().num_rto, 2u);
    EXPECT_EQ(b.n.b.counters().num_dup_events_on_nic, 1u);
    EXPECT_EQ(b.n.b.open_rx_pdcs(), 0u);

    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 16384));
    EXPECT_EQ((b.n.dma_b.received[{0, 1}].size()), 1u);
    EXPECT_EQ(b.n.dma_a.completed[1].size(), 1u);
}

// UUD (PDS type 6): a 4-byte request header (prologue, rsvd), so a full frame is 4,096 + 94 =
// 4,190 B, 83.80 ns: frame k ends serializing at 20 + 83.80 (k + 1) ns and reaches B 100 ns
// later. Nothing comes back: no ACK, no timer. A completes the message when its last frame has
// left, 20 + 83.80 x 4 = 355.20 ns; B finds it placed when frame 3 is processed,
// 124 + 83.80 x 4 = 459.20 ns.
TEST(uet_delivery_modes, uud_arrives_unacknowledged_and_completes_at_send)
{
    mode_bench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 16384, 0, k_no_queue_pair, delivery_mode::uud);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 4u);
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(data[k].at_ps, 120'000u + 83'800u * (k + 1)) << k;
        EXPECT_EQ(data[k].wire_bytes, 4'190u) << k;
        EXPECT_EQ(data[k].pds.type, pds_type::uud_request) << k;
        EXPECT_EQ(data[k].ses.offset, 4096u * k) << k;
    }
    EXPECT_NE(data[0].entropy, data[1].entropy) << "sprayed";
    EXPECT_TRUE(b.at_a.empty()) << "no ACK on the wire";
    EXPECT_EQ(b.n.b.counters().ack_pkts_sent, 0u);
    EXPECT_EQ(b.n.a.counters().num_rto, 0u);
    EXPECT_EQ(b.n.b.open_rx_pdcs(), 0u);
    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(b.n.dma_a.completed[1][0], 355'200u);
    ASSERT_EQ((b.n.dma_b.received[{0, 1}].size()), 1u);
    EXPECT_EQ((b.n.dma_b.received[{0, 1}][0]), 459'200u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 16384));
}

// UUD with frame 1 lost: A still completes at 355.20 ns and sends nothing again; B writes the
// other three payloads once each and never finds the message placed.
TEST(uet_delivery_modes, uud_loss_leaves_the_message_incomplete_and_is_not_repaired)
{
    mode_bench b;
    auto firsts = std::make_shared<int>(0);
    b.n.to_b.drop = [firsts](const packet& p) {
        return p.kind == packet_kind::uet_data && (*firsts)++ == 1;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 16384, 0, k_no_queue_pair, delivery_mode::uud);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    EXPECT_EQ(b.of(b.at_b, packet_kind::uet_data).size(), 3u);
    EXPECT_EQ(b.n.a.counters().write_pkts_sent, 4u);
    EXPECT_EQ(b.n.a.counters().num_rtx, 0u);
    EXPECT_TRUE(b.at_a.empty());
    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(b.n.dma_a.completed[1][0], 355'200u);
    EXPECT_TRUE(b.n.dma_b.received.empty());
    const auto& writes = b.n.dma_b.writes.at({0, 1});
    ASSERT_EQ(writes.size(), 3u);
    EXPECT_EQ(writes[0].offset, 0u);
    EXPECT_EQ(writes[1].offset, 8192u);
    EXPECT_EQ(writes[2].offset, 12288u);
}
