// The UET NIC's buffers on the two-NIC bench (400 Gb/s, 100 ns, stubbed host side): weighted
// round robin between the data class (TC0) and the control class (TC1) gives the weights' shares
// on the wire, and a receive pool too small for what the host side holds drops packets with PFC
// off (nd-stats rx_drops) and pauses the sender instead with PFC on, every byte landing once.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {
void set_links(nic_pair& n)
{
    n.a.port.set_link(pfc_link{k_pair_rate_bps, 100'000});
    n.b.port.set_link(pfc_link{k_pair_rate_bps, 100'000});
}
}  // namespace

// Both NICs send 4 MiB to each other, so A's ACKs (TC1, held for the receiver's service time)
// and its data (TC0) are both waiting while the exchange runs. With WeightedRoundRobin weights
// [3, 1] A sends three data frames for each ACK; with StrictPriority each ACK goes at once.
TEST(uet_nic_buffers, weighted_round_robin_shares_on_the_wire_match_the_weights)
{
    uet_nic_config wrr;
    wrr.egress.scheduling = queue_scheduling::weighted_round_robin;
    wrr.egress.wrr_weights = {3, 1, 0, 0, 0, 0, 0, 0};
    nic_pair n(pair_params(wrr), pair_params());
    std::vector<packet_kind> sent;  // A's frames in wire order
    n.wire.add_tap([&](const packet& p, uetsim::link::direction d, const sc_core::sc_time&) {
        if (d == uetsim::link::a_to_b) sent.push_back(p.kind);
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 4 << 20, 0, k_no_queue_pair);
    n.b.post_message(2, 0, k_ip_a, 4 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    ASSERT_EQ(n.dma_b.completed[2].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 4 << 20));
    EXPECT_TRUE(n.dma_a.written_once(1, 2, 4 << 20));

    // The middle of the exchange (frames 200 to 800), where both classes are backlogged:
    // every run of data frames between two ACKs is exactly three long.
    ASSERT_GT(sent.size(), 1000u);
    uint32_t data = 0, acks = 0, run = 0;
    std::vector<uint32_t> runs;
    for (size_t i = 200; i < 800; ++i) {
        if (sent[i] == packet_kind::uet_data) {
            ++data;
            ++run;
        } else if (sent[i] == packet_kind::uet_ack) {
            ++acks;
            runs.push_back(run);
            run = 0;
        }
    }
    ASSERT_GT(runs.size(), 100u);
    for (size_t i = 1; i < runs.size(); ++i) EXPECT_EQ(runs[i], 3u) << "run " << i;
    EXPECT_NEAR(double(data) / double(acks), 3.0, 0.05);
}

TEST(uet_nic_buffers, strict_priority_sends_each_ack_ahead_of_waiting_data)
{
    nic_pair n;
    std::vector<packet_kind> sent;
    n.wire.add_tap([&](const packet& p, uetsim::link::direction d, const sc_core::sc_time&) {
        if (d == uetsim::link::a_to_b) sent.push_back(p.kind);
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 4 << 20, 0, k_no_queue_pair);
    n.b.post_message(2, 0, k_ip_a, 4 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    uint32_t longest = 0, run = 0;
    for (size_t i = 200; i < 800 && i < sent.size(); ++i) {
        run = sent[i] == packet_kind::uet_data ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    EXPECT_LE(longest, 1u);  // an ACK is made per received packet, one per data frame time
}

namespace {
// B's receive data pool holds 40 full packets (40 x 4,184 = 167,360 B = 0.9 x 185,956 B) and
// its host side finishes each write 10 us after it is issued, so at line rate about 119 packets
// would wait in the pool.
uet_nic_config tiny_receive_pool(bool pfc)
{
    uet_nic_config u;
    u.ingress.total_buffer_bytes = 185'956;
    u.ingress.xoff_fraction = {0.5, 0.8, 0, 0, 0, 0, 0, 0};
    u.ingress.xon_fraction = {0.25, 0.4, 0, 0, 0, 0, 0, 0};
    if (pfc) u.pfc_enable_vector[0] = 1;
    return u;
}
}  // namespace

TEST(uet_nic_buffers, a_full_receive_pool_drops_with_pfc_off)
{
    nic_pair n(pair_params(), pair_params(tiny_receive_pool(false)));
    set_links(n);
    n.dma_b.write_latency_ps = 10'000'000;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 2 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
    EXPECT_EQ(n.b.port.rx_buffer().pool_bytes(0), 167'360u);
    EXPECT_GT(n.b.port_stats().rx_drops, 0u);
    EXPECT_EQ(n.b.port_stats().rx_drops, n.b.port.rx_buffer().drops(0));
    EXPECT_LE(n.b.port.rx_buffer().max_occupancy(0), 167'360u);
    EXPECT_EQ(n.b.port.pfc().counters(0).xoff_tx, 0u);  // PFC off: never a pause
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);         // recovered by retransmission
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 2 << 20));
    EXPECT_GT(n.a.counters().num_rtx, 0u);
}

TEST(uet_nic_buffers, a_full_receive_pool_pauses_the_sender_with_pfc_on)
{
    nic_pair n(pair_params(), pair_params(tiny_receive_pool(true)));
    set_links(n);
    n.dma_b.write_latency_ps = 10'000'000;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 2 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
    EXPECT_EQ(n.b.port_stats().rx_drops, 0u);
    EXPECT_GT(n.b.port.pfc().counters(0).xoff_tx, 0u);
    EXPECT_GT(n.b.port.pfc().counters(0).xon_tx, 0u);
    EXPECT_EQ(n.b.port.pfc().counters(1).xoff_tx, 0u);  // the control class is not enabled
    // Paused at Xoff (20 packets), the pool never ran out: headroom held what was in flight.
    EXPECT_GE(n.b.port.rx_buffer().max_occupancy(0), 83'680u);
    EXPECT_LT(n.b.port.rx_buffer().max_occupancy(0), 167'360u);
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 2 << 20));
    EXPECT_EQ(n.a.counters().num_rtx, 0u);
}
