// Two UET NICs back to back over one link, with stubbed host DMA (no PCIe, no fabric, no
// switch): messages complete at the sender's host side and every byte lands once at the
// receiver's, alone, concurrently in both directions, and through random frame loss.
//
// The solo message's completion time, derived by hand (400 Gb/s, 100 ns propagation, NIC clock
// 1 GHz, the stub's fetch takes no time and reports no write backlog):
//   1 MiB = 256 packets of 4,096 B; a data frame is 4,096 + 106 = 4,202 B = 84.04 ns on the wire.
//   First frame on the wire: doorbell -> scheduler 15 cycles + entropy 1 + header build 4 = 20 ns.
//   The scheduler issues a packet every 2 ns, far faster than the wire drains them, so the link
//   stays busy from then on; the one base-RTT probe (62 B = 1.24 ns, control before data) that
//   follows the first ACK goes between two data frames and delays the last one by 1.24 ns.
//   Last data frame ends at 20 + 256 x 84.04 + 1.24 = 21,535.48 ns.
//   It arrives 100 ns later, the receive pipeline takes 4 cycles (4 ns), and its ACK is held for
//   the receiver's service time: (backlog 0 + 4,184 B IP datagram) x 8 / 400 Gb/s = 83.68 ns.
//   The ACK (78 B = 1.56 ns) crosses back in 100 ns and takes 4 ns more to process: the sender
//   completes the message at 21,535.48 + 100 + 4 + 83.68 + 1.56 + 100 + 4 = 21,828.72 ns.
// Each serialization and the hold are rounded to the picosecond by the model; every term above
// is a whole number of picoseconds, so the figure is exact: tolerance 1 ps.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "hw/common/random.h"
#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

TEST(uet_nic_pair, a_solo_1_mib_message_completes_at_the_analytic_time)
{
    nic_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_NEAR(double(n.dma_a.completed[1][0]), 21'828'720.0, 1.0);  // ps
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));
    EXPECT_EQ((n.dma_b.writes[{0, 1}].size()), 256u);
    EXPECT_EQ(n.dma_a.fetched_bytes, uint64_t(1) << 20);
    EXPECT_EQ(n.a.counters().write_pkts_sent, 256u);
    EXPECT_EQ(n.a.counters().num_rtx, 0u);
    EXPECT_EQ(n.b.counters().ack_pkts_sent, 256u + 1);  // one per packet, one probe answer
    EXPECT_EQ(n.a.port_stats().tx_packets, 256u + 1);   // the data and the probe
}

TEST(uet_nic_pair, concurrent_messages_both_ways_each_complete_once_written_once)
{
    nic_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const std::vector<uint64_t> a_to_b{1 << 20, 65536, 100000, 1, 0};
    const std::vector<uint64_t> b_to_a{204800, 4096, 4097};
    for (size_t i = 0; i < a_to_b.size(); ++i)
        n.a.post_message(100 + i, 1, k_ip_b, a_to_b[i], 0, k_no_queue_pair);
    for (size_t i = 0; i < b_to_a.size(); ++i)
        n.b.post_message(200 + i, 0, k_ip_a, b_to_a[i], 0, k_no_queue_pair);
    cm_fields cm;
    cm.type = cm_type::request;
    cm.connection = 42;
    n.a.send_connection_message(1, k_ip_b, cm);
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));

    for (size_t i = 0; i < a_to_b.size(); ++i) {
        EXPECT_EQ(n.dma_a.completed[100 + i].size(), 1u) << "message " << 100 + i;
        EXPECT_TRUE(n.dma_b.written_once(0, 100 + i, a_to_b[i])) << "message " << 100 + i;
    }
    for (size_t i = 0; i < b_to_a.size(); ++i) {
        EXPECT_EQ(n.dma_b.completed[200 + i].size(), 1u) << "message " << 200 + i;
        EXPECT_TRUE(n.dma_a.written_once(1, 200 + i, b_to_a[i])) << "message " << 200 + i;
    }
    EXPECT_EQ(n.dma_a.completed.size(), a_to_b.size());  // nothing completed twice or extra
    EXPECT_EQ(n.dma_b.completed.size(), b_to_a.size());
    ASSERT_EQ(n.dma_b.connection_messages.size(), 1u);
    EXPECT_EQ(n.dma_b.connection_messages[0].first, 0u);
    EXPECT_EQ(n.dma_b.connection_messages[0].second.connection, 42u);
}

TEST(uet_nic_pair, lost_frames_are_retransmitted_and_written_once)
{
    nic_pair n;
    random_stream rng(7, "loss");
    n.wire.set_loss(0.02, &rng);  // both directions: data, ACKs and probes
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    n.a.post_message(2, 1, k_ip_b, 300000, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(50, sc_core::SC_MS));

    EXPECT_GT(n.wire.frames_lost(uetsim::link::a_to_b), 0u);
    EXPECT_GT(n.a.counters().num_rtx, 0u);
    EXPECT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(n.dma_a.completed[2].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));
    EXPECT_TRUE(n.dma_b.written_once(0, 2, 300000));
}

// Memory follows what is in flight, not completed work (#15): 200 messages one after another on
// a queue pair, and 200 Flows messages in batches of 10, leave the sender's message table with
// the slots of the most in flight at once, and its PDC table with the ids of the most open.
TEST(uet_nic_pair, completed_messages_release_their_state)
{
    nic_pair n;
    constexpr uint64_t k_chain = 200;
    uint64_t posted = 1;
    n.dma_a.on_complete = [&](uint64_t) {
        if (posted < k_chain) n.a.post_message(posted++, 1, k_ip_b, 8192, 0, 7);
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(0, 1, k_ip_b, 8192, 0, 7);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    ASSERT_EQ(n.dma_a.completed.size(), k_chain);
    EXPECT_EQ(n.a.messages().live(), 1u);  // the queue pair's last, until its next
    EXPECT_LE(n.a.messages().slots(), 2u);
    EXPECT_EQ(n.a.pdcs().id_slots(), 2u);  // one PDC (id 1), kept open

    n.dma_a.on_complete = nullptr;
    for (uint64_t batch = 0; batch < 20; ++batch) {
        for (uint64_t i = 0; i < 10; ++i)
            n.a.post_message(1000 + batch * 10 + i, 1, k_ip_b, 8192, 0, k_no_queue_pair);
        sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    }
    EXPECT_EQ(n.dma_a.completed.size(), k_chain + 200);
    EXPECT_EQ(n.a.messages().live(), 1u);    // the Flows messages' slots are free again
    EXPECT_LE(n.a.messages().slots(), 11u);  // 10 in flight at most, and the queue pair's
    EXPECT_LE(n.a.pdcs().id_slots(), 12u);   // ids 1..11 at most, reused batch after batch
}
