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

struct seen
{
    uint64_t at_ps;
    packet_kind kind;
    uint32_t wire_bytes;
    uint16_t entropy;
    pds_fields pds;
    ses_fields ses;
};

struct mode_bench
{
    nic_pair n;
    std::vector<seen> at_a, at_b;
    mode_bench()
    {
        n.to_a.edit = [this](packet& p) {
            at_a.push_back({sc_core::sc_time_stamp().value(), p.kind, p.wire_bytes, p.udp.src_port,
                            p.pds, p.ses});
        };
        n.to_b.edit = [this](packet& p) {
            at_b.push_back({sc_core::sc_time_stamp().value(), p.kind, p.wire_bytes, p.udp.src_port,
                            p.pds, p.ses});
        };
    }
    std::vector<seen> of(const std::vector<seen>& v, packet_kind k) const
    {
        std::vector<seen> out;
        for (const seen& s : v)
            if (s.kind == k) out.push_back(s);
        return out;
    }
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
