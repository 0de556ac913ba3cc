// The generic NIC port elaborated alone: two ports back to back over one link, each with a
// recording client and a stub host side. Control frames go before queued data, the egress data
// pool wakes a blocked client once half drained, received frames reach the client after the
// receive pipeline, held control frames leave in order, and connection frames go to host_dma.
//
// Timings (400 Gb/s, 100 ns propagation, receive pipeline 4 ns): a 1,000 B frame is 20 ns on
// the wire, the 78 B connection frame 1.56 ns; arrival = start + serialization + 100 ns, and
// the client sees it 4 ns later. All whole picoseconds: compared exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "tests/support/nic_port_pair.h"

using namespace uetsim;

namespace {

constexpr uint64_t ns = 1000;  // ps

nic_port_config config(uint32_t host)
{
    nic_port_config c;
    c.host = host;
    c.ip = 0x0a000001 + host;
    c.egress.total_buffer_bytes = 3000;  // a pool of that size for classes 0 and 1
    c.egress.pool_allocation = {1.0, 1.0};
    c.rx_stages[0].cycles = 4;  // RxParse: 4 cycles of 1 ns
    return c;
}

struct port_pair : uetsim::test::nic_port_pair
{
    port_pair() : nic_port_pair(config(0), config(1), 1000) {}
};

uint64_t now_ps()
{
    return sc_core::sc_time_stamp().value();
}

}  // namespace

TEST(nic_port, a_control_frame_goes_before_queued_data)
{
    port_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.push_data(n.frame(1), now_ps());
    n.a.push_data(n.frame(2), now_ps());
    n.a.push_data(n.frame(3), now_ps());
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));  // frame 1 is on the wire
    n.a.push_control(n.frame(9, 0, 500));
    sc_core::sc_start();
    // 1 from 0 to 20 ns, the control frame (10 ns) from 20 to 30, then 2 and 3.
    ASSERT_EQ(n.client_b.received.size(), 4u);
    const std::vector<uint32_t> order{n.client_b.received[0].psn, n.client_b.received[1].psn,
                                      n.client_b.received[2].psn, n.client_b.received[3].psn};
    EXPECT_EQ(order, (std::vector<uint32_t>{1, 9, 2, 3}));
    EXPECT_EQ(n.client_b.received[0].at_ps, 124 * ns);  // 20 + 100 + 4
    EXPECT_EQ(n.client_b.received[1].at_ps, 134 * ns);  // 30 + 100 + 4
    EXPECT_EQ(n.client_b.received[3].at_ps, 174 * ns);  // 70 + 100 + 4
    EXPECT_EQ(n.client_a.sent_psns, (std::vector<uint32_t>{1, 9, 2, 3}));
    EXPECT_EQ(n.a.stats().tx_packets, 4u);
    EXPECT_EQ(n.a.stats().tx_bytes, 3500u);
    EXPECT_EQ(n.b.stats().rx_packets, 4u);
}

TEST(nic_port, the_egress_pool_is_charged_when_queued_and_wakes_when_half_drained)
{
    port_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (uint32_t i = 1; i <= 3; ++i) n.a.push_data(n.frame(i), now_ps());
    EXPECT_EQ(n.a.pool_room(0), 0u);
    n.a.block_on_pool(0);
    sc_core::sc_start();
    // Released at 20 ns (2000 B left: more than half of 3000) and 40 ns (1000 B): woken once.
    EXPECT_EQ(n.client_a.pool_free_ps, (std::vector<uint64_t>{40 * ns}));
    EXPECT_EQ(n.a.pool_room(0), 3000u);
}

TEST(nic_port, held_control_frames_leave_in_order_no_earlier_than_due)
{
    port_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.hold_control(n.frame(1, 0, 500), 50'000);  // ps
    n.a.hold_control(n.frame(2, 0, 500), 10'000);  // behind 1
    sc_core::sc_start();
    ASSERT_EQ(n.client_b.received.size(), 2u);
    EXPECT_EQ(n.client_b.received[0].psn, 1u);
    EXPECT_EQ(n.client_b.received[0].at_ps, 164 * ns);  // 50 + 10 + 100 + 4
    EXPECT_EQ(n.client_b.received[1].psn, 2u);
    EXPECT_EQ(n.client_b.received[1].at_ps, 174 * ns);  // sent after 1, 60 + 10 + 100 + 4
}

TEST(nic_port, connection_frames_go_to_host_dma_not_to_the_client)
{
    port_pair n;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    cm_fields m;
    m.type = cm_type::response;
    m.connection = 5;
    n.a.send_connection_message(1, 0x0a000002, m);
    sc_core::sc_start();
    EXPECT_TRUE(n.client_b.received.empty());
    ASSERT_EQ(n.dma_b.connection_messages.size(), 1u);
    EXPECT_EQ(n.dma_b.connection_messages[0].first, 0u);  // from host 0
    EXPECT_EQ(n.dma_b.connection_messages[0].second.type, cm_type::response);
    EXPECT_EQ(n.dma_b.connection_messages[0].second.connection, 5u);
    EXPECT_EQ(n.a.stats().tx_bytes, 78u);
}
