// Two RoCE NICs back to back over one 400 Gb/s link (tests/support/roce_nic_pair.h), with the
// transport page's worked examples: packet sizes at MSS 4096, the ACK cadence of a 1 MiB WRITE
// at the defaults, a lost last packet recovered by the transport timer, and go-back-N after a
// lost middle packet (one NAK; the retransmissions are exactly the PSNs from the NAK's on).
//
// The solo 1 MiB WRITE's completion time, by hand (the stub fetches in no time):
//   generation starts 80 ns after the post; the 230,400 B egress pool takes 55 segments at once,
//   each 4,096 + 58 = 4,154 B = 83.08 ns on the wire, and is refilled (80 ns after it drains to
//   half) long before the 27 frames left run out, so the link stays busy: the last data frame
//   ends at 80 + 256 x 83.08 = 21,348.48 ns. It arrives 100 ns later, is acknowledged at once
//   (solicited event, no receive stages, no service-time hold): the 126 B ACK takes 2.52 ns and
//   100 ns back: completion at 21,348.48 + 100 + 2.52 + 100 = 21,551.00 ns.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include <systemc>

#include "hw/nic/roce/roce_opcodes.h"
#include "hw/nic/roce/roce_psn.h"
#include "tests/support/roce_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

constexpr uint64_t k_mib = 1 << 20;

struct traffic
{
    std::vector<packet> to_b, to_a;  // copies of every frame that reached each side
};

void record(roce_pair& n, traffic& t)
{
    n.to_b.see = [&t](packet& p) {
        t.to_b.push_back(p);
        return true;
    };
    n.to_a.see = [&t](packet& p) {
        t.to_a.push_back(p);
        return true;
    };
}

uint64_t bytes_of(const std::vector<packet>& v, packet_kind k)
{
    uint64_t b = 0;
    for (const packet& p : v)
        if (p.kind == k) b += p.wire_bytes;
    return b;
}

}  // namespace

TEST(roce_nic_pair, a_1_mib_write_completes_at_the_analytic_time_with_16_acks)
{
    roce_pair n;
    traffic t;
    record(n, t);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.work_request_posted();  // the doorbell, as the host interface reports it
    n.a.post_message(1, 1, k_roce_ip_b, k_mib, 0, 7);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_NEAR(double(n.dma_a.completed[1][0]), 21'551'000.0, 1.0);  // ps
    EXPECT_TRUE(n.dma_b.written_once(0, 1, k_mib));
    // 256 packets of 4,154 B; 16 ACKs (15 by the count, 1 by the last packet) = 2,016 B back.
    ASSERT_EQ(t.to_b.size(), 256u);
    for (const packet& p : t.to_b) {
        EXPECT_EQ(p.kind, packet_kind::roce_data);
        EXPECT_EQ(p.wire_bytes, 4154u);
        EXPECT_EQ(p.ip.dscp, 0u);  // class 0 x 8
        EXPECT_EQ(p.ip.ecn, ecn::ect0);
        EXPECT_EQ(p.udp.dst_port, 4791);
        EXPECT_EQ(p.udp.src_port, t.to_b[0].udp.src_port);  // one path per queue pair
        EXPECT_EQ(p.bth.dest_qp, 9u);  // connection 7: QP0 and QP1 are InfiniBand's own
    }
    EXPECT_GE(t.to_b[0].udp.src_port, 0xC000);
    EXPECT_EQ(t.to_b[0].bth.opcode, ib::rc_rdma_write_first);
    EXPECT_EQ(t.to_b[1].bth.opcode, ib::rc_rdma_write_middle);
    EXPECT_EQ(t.to_b[255].bth.opcode, ib::rc_rdma_write_last);
    EXPECT_TRUE(t.to_b[255].bth.solicited);
    EXPECT_FALSE(t.to_b[254].bth.solicited);
    for (size_t i = 1; i < t.to_b.size(); ++i)
        EXPECT_EQ(t.to_b[i].bth.psn, roce::psn_add(t.to_b[0].bth.psn, int64_t(i)));
    ASSERT_EQ(t.to_a.size(), 16u);
    for (const packet& p : t.to_a) {
        EXPECT_EQ(p.kind, packet_kind::roce_ack);
        EXPECT_EQ(p.wire_bytes, 126u);
        EXPECT_EQ(p.bth.opcode, ib::rc_acknowledge);
        EXPECT_EQ(p.bth.aeth_syndrome, ib::aeth_ack_no_credit);
        EXPECT_EQ(p.ip.dscp, 8u);  // control class 1 x 8
        EXPECT_EQ(p.ip.ecn, ecn::not_ect);
        EXPECT_EQ(p.udp.src_port, t.to_b[0].udp.src_port);
    }
    EXPECT_EQ(bytes_of(t.to_a, packet_kind::roce_ack), 2016u);
    // The ACKs name packets 17, 34, ..., 255 and 256.
    EXPECT_EQ(t.to_a[0].bth.psn, t.to_b[16].bth.psn);
    EXPECT_EQ(t.to_a[14].bth.psn, t.to_b[254].bth.psn);
    EXPECT_EQ(t.to_a[15].bth.psn, t.to_b[255].bth.psn);

    const roce_transport_counters& ca = n.a.counters();
    const roce_transport_counters& cb = n.b.counters();
    EXPECT_EQ(ca.rdma_write_cnt, 256u);
    EXPECT_EQ(ca.verb_pkts_sent, 256u);
    EXPECT_EQ(ca.pkts_sent, 256u);
    EXPECT_EQ(ca.acks_recvd, 16u);
    EXPECT_EQ(ca.wqe_created, 1u);
    EXPECT_EQ(ca.wqe_completed, 1u);
    EXPECT_EQ(ca.rtx, 0u);
    EXPECT_EQ(ca.calc_rtt_usec.total.count, 16u);
    EXPECT_GT(ca.calc_rtt_usec.total.min, 0.2);  // at least the two propagation delays
    EXPECT_EQ(cb.writes_recvd, 256u);
    EXPECT_EQ(cb.acks_sent, 16u);
    EXPECT_EQ(cb.non_verb_pkts_sent, 16u);
    EXPECT_EQ(cb.rx_bytes_delivered, k_mib);
    EXPECT_EQ(cb.rx_drops(), 0u);
    EXPECT_EQ(n.a.port_stats().tx_bytes, 256u * 4154);
    EXPECT_EQ(n.a.port.data_reserved(), 0u);
    EXPECT_EQ(n.a.open_queue_pairs(), 1u);  // a connection's queue pair stays open
}

TEST(roce_nic_pair, a_ce_marked_packet_draws_one_122_byte_cnp)
{
    roce_pair n;
    traffic t;
    int seen = 0;
    n.to_b.see = [&](packet& p) {
        if (p.kind == packet_kind::roce_data && ++seen == 3) p.ip.ecn = ecn::ce;  // a switch marks
        t.to_b.push_back(p);
        return true;
    };
    n.to_a.see = [&](packet& p) {
        t.to_a.push_back(p);
        return true;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_roce_ip_b, 5 * 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    ASSERT_EQ(t.to_a.size(), 2u);  // the CNP, then the one ACK (5 packets: the last one's)
    EXPECT_EQ(t.to_a[0].kind, packet_kind::roce_cnp);
    EXPECT_EQ(t.to_a[0].wire_bytes, 122u);
    EXPECT_EQ(t.to_a[0].bth.opcode, ib::cnp);
    EXPECT_EQ(t.to_a[0].bth.dest_qp, t.to_b[0].bth.dest_qp);
    EXPECT_EQ(t.to_a[0].ip.dscp, 8u);
    EXPECT_EQ(t.to_a[1].kind, packet_kind::roce_ack);
    EXPECT_EQ(n.b.counters().cnp_sent, 1u);
    EXPECT_EQ(n.a.counters().cnp_recvd, 1u);
    EXPECT_EQ(n.a.counters().rx_drops_no_qp_ctrl, 0u);
    EXPECT_EQ(n.a.open_queue_pairs(), 0u);  // a Flows queue pair closes with its message
}

TEST(roce_nic_pair, a_lost_last_packet_is_recovered_by_the_transport_timer)
{
    roce_pair n;
    traffic t;
    bool dropped = false;
    n.to_b.see = [&](packet& p) {
        if (p.kind == packet_kind::roce_data && p.bth.solicited && !dropped) {
            dropped = true;  // packet 256, the first time
            return false;
        }
        t.to_b.push_back(p);
        return true;
    };
    n.to_a.see = [&](packet& p) {
        t.to_a.push_back(p);
        return true;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_roce_ip_b, k_mib, 0, 3);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_MS));

    ASSERT_TRUE(dropped);
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    // The ACK on packet 255 (sent 80 + 255 x 83.08 + 100 + 2.52 + 100 = 21,467.92 ns) restarts
    // the timer; 64 ms later packet 256 is fetched again (80 ns), sent (83.08 ns), and its ACK
    // is back 100 + 2.52 + 100 ns later.
    const double expect_ps = (21'467.92 + 64e6 + 80 + 83.08 + 100 + 2.52 + 100) * 1e3;
    EXPECT_NEAR(double(n.dma_a.completed[1][0]), expect_ps, 1.0);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, k_mib));
    const roce_transport_counters& ca = n.a.counters();
    EXPECT_EQ(ca.rto, 1u);
    EXPECT_EQ(ca.rtx, 1u);
    EXPECT_EQ(ca.rdma_write_cnt, 257u);  // only packet 256 again
    EXPECT_EQ(ca.nacks_recvd, 0u);
    EXPECT_EQ(n.b.counters().nacks_sent, 0u);
    EXPECT_EQ(n.b.counters().seq_out_of_order, 0u);
    EXPECT_EQ(n.b.counters().acks_sent, 16u);  // 15 by the count, 1 for the resent last packet
    EXPECT_EQ(t.to_b.back().bth.psn, roce::psn_add(t.to_b[254].bth.psn, 1));
}

TEST(roce_nic_pair, a_gap_draws_one_nak_and_go_back_n_resends_from_its_psn)
{
    roce_pair n;
    // A slow host read: many fetches are pending when the NAK arrives, and are discarded.
    n.dma_a.fetch_latency_ps = 3'000'000;
    std::vector<uint32_t> arrivals;  // data PSNs reaching B, as indices in the message
    std::vector<packet> naks;
    uint32_t first = 0;
    bool dropped = false;
    n.to_b.see = [&](packet& p) {
        if (p.kind != packet_kind::roce_data) return true;
        if (arrivals.empty() && !dropped) first = p.bth.psn;
        const uint32_t i = uint32_t(roce::psn_diff(p.bth.psn, first));
        if (i == 100 && !dropped) {
            dropped = true;
            return false;
        }
        arrivals.push_back(i);
        return true;
    };
    n.to_a.see = [&](packet& p) {
        if (roce::is_nak(p.bth.aeth_syndrome)) naks.push_back(p);
        return true;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_roce_ip_b, k_mib, 0, 3);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));

    ASSERT_TRUE(dropped);
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, k_mib));
    ASSERT_EQ(naks.size(), 1u);  // exactly one NAK, naming PSN 100
    EXPECT_EQ(uint32_t(roce::psn_diff(naks[0].bth.psn, first)), 100u);
    // Arrivals: 0..99, then 101..x (discarded behind the gap), then exactly 100..255 once.
    size_t k = 0;
    for (uint32_t i = 0; i < 100; ++i, ++k) ASSERT_EQ(arrivals[k], i);
    uint32_t x = 100;
    while (k < arrivals.size() && arrivals[k] == x + 1) ++x, ++k;
    EXPECT_GT(x, 100u);
    for (uint32_t i = 100; i < 256; ++i, ++k) {
        ASSERT_LT(k, arrivals.size());
        EXPECT_EQ(arrivals[k], i);
    }
    EXPECT_EQ(k, arrivals.size());
    const roce_transport_counters& ca = n.a.counters();
    const roce_transport_counters& cb = n.b.counters();
    EXPECT_EQ(ca.nacks_recvd, 1u);
    EXPECT_EQ(ca.rtx, 1u);
    EXPECT_EQ(ca.rto, 0u);
    // Numbered: 0..x the first time (100 lost on the wire), then 100..255 again.
    EXPECT_EQ(ca.rdma_write_cnt, uint64_t(x) + 1 + 156);
    EXPECT_GT(ca.tx_payload_discards, 0u);
    // Every segment fetched was either numbered or discarded.
    EXPECT_EQ(n.dma_a.fetched_bytes, (ca.rdma_write_cnt + ca.tx_payload_discards) * 4096);
    EXPECT_EQ(n.a.port.data_reserved(), 0u);
    EXPECT_EQ(cb.nacks_sent, 1u);
    EXPECT_EQ(cb.seq_out_of_order, 1u);
    EXPECT_EQ(cb.rx_drops_after_nak, uint64_t(x - 100));
    EXPECT_EQ(cb.duplicate, 0u);
}

TEST(roce_nic_pair, queue_pair_messages_go_one_at_a_time_and_both_ways)
{
    roce_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_roce_ip_b, 100000, 0, 9);
    n.a.post_message(2, 1, k_roce_ip_b, 0, 0, 9);  // waits for message 1
    n.b.post_message(3, 0, k_roce_ip_a, 4097, 0, 9);
    n.a.post_message(4, 1, k_roce_ip_b, 1, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    ASSERT_EQ(n.dma_a.completed[2].size(), 1u);
    EXPECT_GT(n.dma_a.completed[2][0], n.dma_a.completed[1][0]);
    EXPECT_EQ(n.dma_b.completed[3].size(), 1u);
    EXPECT_EQ(n.dma_a.completed[4].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 100000));
    EXPECT_TRUE(n.dma_b.written_once(0, 2, 0));
    EXPECT_TRUE(n.dma_b.written_once(0, 4, 1));
    EXPECT_TRUE(n.dma_a.written_once(1, 3, 4097));
    EXPECT_EQ(n.a.counters().wqe_completed, 3u);
    EXPECT_EQ(n.a.open_queue_pairs(), 1u);  // queue pair 9; the Flows one closed
}

namespace {

// Marks every data packet CE on its way to B (a congested switch) and records arrival times.
void mark_all(roce_pair& n, std::vector<uint64_t>& arrivals)
{
    n.to_b.see = [&arrivals](packet& p) {
        if (p.kind == packet_kind::roce_data) {
            p.ip.ecn = ecn::ce;
            arrivals.push_back(sc_core::sc_time_stamp().value());
        }
        return true;
    };
}

}  // namespace

TEST(roce_nic_pair, cnps_slow_the_queue_pair_to_its_allowed_rate_on_the_wire)
{
    roce_pair n;
    std::vector<uint64_t> arrivals;
    mark_all(n, arrivals);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_roce_ip_b, k_mib, 0, 5);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, k_mib));
    EXPECT_EQ(n.b.counters().cnp_sent, 256u);
    EXPECT_EQ(n.a.counters().cnp_recvd, 256u);
    const dcqcn_rate* r = n.a.rate(5 + k_roce_first_data_qp);
    ASSERT_NE(r, nullptr);
    EXPECT_GE(r->episodes(), 1u);
    // At line rate frames arrive 83.08 ns apart; a slowed queue pair's frames take longer on
    // the wire: the last ones are spaced at the allowed rate, and the message takes longer.
    ASSERT_EQ(arrivals.size(), 256u);
    const uint64_t last_gap = arrivals[255] - arrivals[254];
    EXPECT_GT(last_gap, 83'080u + 1000);
    EXPECT_GT(double(n.dma_a.completed[1][0]), 1.3 * 21'551'000.0);
    // Frames still start back to back: the spacing is the serialization at the allowed rate.
    const double rate_bps = 4154 * 8 / (double(last_gap) * 1e-12);
    EXPECT_GE(rate_bps, r->floor_bps() * 0.999);
    EXPECT_LT(rate_bps, 400e9);
}

TEST(roce_nic_pair, with_ecn_disabled_data_is_not_ect_and_cnps_are_ignored)
{
    roce_nic_config cfg;
    cfg.ecn.enable_ecn = false;
    roce_pair n(cfg, cfg);
    std::vector<uint64_t> arrivals;
    std::vector<uint8_t> ecn_sent;
    n.to_b.see = [&](packet& p) {
        if (p.kind == packet_kind::roce_data) {
            ecn_sent.push_back(p.ip.ecn);
            p.ip.ecn = ecn::ce;  // marked anyway: the receiver sends CNPs whatever its EnableECN
        }
        return true;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_roce_ip_b, k_mib, 0, 5);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    for (uint8_t e : ecn_sent) EXPECT_EQ(e, ecn::not_ect);
    EXPECT_EQ(n.b.counters().cnp_sent, 256u);
    EXPECT_EQ(n.a.counters().cnp_recvd, 256u);
    EXPECT_EQ(n.a.rate(5 + k_roce_first_data_qp)->episodes(), 0u);
    // Line rate throughout: the analytic time, plus the last packet's CNP (122 B = 2.44 ns),
    // which goes ahead of its ACK.
    EXPECT_NEAR(double(n.dma_a.completed[1][0]), 21'551'000.0 + 2'440.0, 1.0);
}

// A Flows queue pair's receiving end is kept for two transport timeouts (2 x 64 ms) after its
// message is in, then released by the next message that closes: memory follows the messages in
// flight, not every message of the run.
TEST(roce_nic_pair, a_flows_receiving_end_is_released_two_transport_timeouts_after_its_message)
{
    roce_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (uint64_t m = 1; m <= 10; ++m)
        n.a.post_message(m, 1, k_roce_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_MS));
    ASSERT_EQ(n.dma_a.completed[1].size() + n.dma_a.completed[10].size(), 2u);
    EXPECT_EQ(n.b.open_responders(), 10u);  // all in within 2 us, kept until 128 ms

    // At 100 ms: released at 228 ms; the first ten are not due yet.
    n.a.post_message(11, 1, k_roce_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(30, sc_core::SC_MS));
    EXPECT_EQ(n.b.open_responders(), 11u);

    // At 130 ms the first ten are past 128 ms: this close releases them, not the 100 ms one.
    n.a.post_message(12, 1, k_roce_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    EXPECT_EQ(n.b.open_responders(), 2u);
    for (uint64_t m = 1; m <= 12; ++m) EXPECT_TRUE(n.dma_b.written_once(0, m, 4096)) << m;
    EXPECT_EQ(n.a.open_queue_pairs(), 0u);
}
