// PFC on the NIC port, two ports back to back over one 400 Gbps link with 100 ns of propagation:
// a pause from port A holds port B's paused class after B's frame on the wire while B's other
// class keeps flowing; A's XON or the end of the pause time restarts it; A's pause API re-sends
// every half pause time (83,984,800 / 2 = 41,992,400 ps) and, with a refresh check saying the
// pool is below Xoff, sends XON instead; PFC frames are 64 B (UET) or 84 B (RoCE) on the wire and
// never reach the transport.
//
// Times: a 4,000-byte frame is 80 ns on the wire, a 64-byte PFC frame 1.28 ns; arrival = start +
// serialization + 100 ns; the receive pipeline adds 4 ns before the client sees a frame.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "hw/kernel/time.h"
#include "tests/support/nic_port_pair.h"

using namespace uetsim;

namespace {

constexpr uint64_t ns = 1000;  // ps

nic_port_config config(uint32_t host, uint32_t pfc_bytes)
{
    nic_port_config c;
    c.host = host;
    c.ip = 0x0a000001 + host;
    c.egress.total_buffer_bytes = 100'000;  // a pool of that size for classes 0 and 1
    c.egress.pool_allocation = {1.0, 1.0};
    c.rx_stages[0].cycles = 4;
    c.pfc.ip = c.ip;
    c.pfc.frame_bytes = pfc_bytes;
    return c;
}

struct port_pair : uetsim::test::nic_port_pair
{
    explicit port_pair(uint32_t pfc_bytes = wire::pfc_uet_bytes)
        : nic_port_pair(config(0, pfc_bytes), config(1, pfc_bytes), 4000)
    {
    }
};

void run_until(uint64_t ps)
{
    sc_core::sc_start(picoseconds(ps) - sc_core::sc_time_stamp());
}

}  // namespace

// A pauses TC0 at 0: the frame arrives at B at 101.28 ns, while B's second data frame (80 to
// 160 ns) is on the wire; it finishes, B's control frame (TC1) still goes at 160 ns, the third
// data frame waits. A's XON at 1,000 ns arrives at 1,101.28 ns and the data frame starts then.
TEST(nic_port_pfc, a_pause_holds_the_class_after_the_current_frame_other_classes_flow)
{
    port_pair n;
    run_until(0);
    n.a.pfc_xoff(0);
    for (uint32_t i = 1; i <= 3; ++i)
        n.b.push_data(n.frame(i, 0), sc_core::sc_time_stamp().value());
    run_until(120 * ns);
    n.b.push_control(n.frame(9, 1, 500));
    run_until(1000 * ns);
    EXPECT_TRUE(n.b.arbiter().paused() & 1u);
    n.a.pfc_xon(0);
    run_until(5000 * ns);
    ASSERT_EQ(n.client_a.received.size(), 4u);
    EXPECT_EQ(n.client_a.received[0].at_ps, 184 * ns);  // 0 + 80 + 100 + 4
    EXPECT_EQ(n.client_a.received[1].at_ps, 264 * ns);  // 80 + 80 + 100 + 4
    EXPECT_EQ(n.client_a.received[2].psn, 9u);          // control at 160 ns: 10 ns + 104
    EXPECT_EQ(n.client_a.received[2].at_ps, 274 * ns);
    EXPECT_EQ(n.client_a.received[3].psn, 3u);
    EXPECT_EQ(n.client_a.received[3].at_ps, 1'101'280 + 80 * ns + 104 * ns);
    EXPECT_EQ(n.pfc_starts(), (std::vector<uint64_t>{0, 1000 * ns}));
    EXPECT_EQ(n.a_to_b[0].bytes, 64u);
    EXPECT_EQ(n.a_to_b[0].quanta0, 65535u);
    EXPECT_EQ(n.a_to_b[1].quanta0, 0u);
    EXPECT_TRUE(n.client_b.received.empty());    // PFC never reaches the transport
    EXPECT_TRUE(n.client_a.sent_kinds.empty());  // nor its on_sent
    EXPECT_EQ(n.a.stats().tx_bytes, 128u);       // two PFC frames, counted as frames
    EXPECT_EQ(n.b.pfc().pauses().xoff_rx(0), 1u);
    EXPECT_EQ(n.b.pfc().pauses().xon_rx(0), 1u);
    EXPECT_EQ(n.b.pfc().pauses().paused_ps(0, 5000 * ns), 1000 * ns);
    // The third data frame waited in the data ring through the whole pause (XOFF due to egress
    // occupancy); TC1's control frame was never held.
    EXPECT_EQ(n.b.pfc().egress_blocking().total_ps(0, 5000 * ns), 1000 * ns);
    EXPECT_EQ(n.b.pfc().egress_blocking().total_ps(1, 5000 * ns), 0u);
}

// A PFC frame with 100 quanta (128 ns at 400 Gbps, + 100 ns delay = 228 ns), sent as a control
// frame so that nobody refreshes it: B's TC0 resumes 228 ns after it arrives at 101.28 ns.
TEST(nic_port_pfc, a_pause_ends_after_its_pause_time)
{
    port_pair n;
    run_until(0);
    packet* f = n.pool.acquire();
    f->kind = packet_kind::pfc;
    f->wire_bytes = wire::pfc_uet_bytes;
    f->pfc.class_enable = 1;
    f->pfc.quanta[0] = 100;
    n.a.push_control(f);
    run_until(110 * ns);
    n.b.push_data(n.frame(1, 0), sc_core::sc_time_stamp().value());
    run_until(5000 * ns);
    ASSERT_EQ(n.client_a.received.size(), 1u);
    EXPECT_EQ(n.client_a.received[0].at_ps, 101'280 + 228 * ns + 80 * ns + 104 * ns);
    // Paused 228 ns, of which the frame queued at 110 ns waited 219.28 ns.
    EXPECT_EQ(n.b.pfc().pauses().paused_ps(0, 5000 * ns), 228 * ns);
    EXPECT_EQ(n.b.pfc().egress_blocking().total_ps(0, 5000 * ns), 101'280 + 228 * ns - 110 * ns);
}

// A's pause for TC1 is re-sent every half pause time; XON stops it.
TEST(nic_port_pfc, refresh_every_half_pause_time_until_xon)
{
    port_pair n;
    run_until(0);
    n.a.pfc_xoff(1);
    n.a.pfc_xoff(1);  // already outstanding: no frame
    run_until(100'000'000);
    n.a.pfc_xon(1);
    run_until(300'000'000);
    EXPECT_EQ(n.pfc_starts(), (std::vector<uint64_t>{0, 41'992'400, 83'984'800, 100'000'000}));
    EXPECT_EQ(n.a_to_b[0].class_enable, 0b10u);
    EXPECT_EQ(n.a_to_b[0].quanta1, 65535u);
    EXPECT_EQ(n.a_to_b[3].quanta1, 0u);
    EXPECT_EQ(n.a.pfc().counters(1).xoff_tx, 3u);
    EXPECT_EQ(n.a.pfc().counters(1).xon_tx, 1u);
    // B stayed paused without a break from 101.28 ns to the XON's arrival.
    EXPECT_EQ(n.b.pfc().pauses().longest_ps(1, 300'000'000), 100'000'000u);
}

// With a refresh check (the NIC pages: at each refresh, XON once the pool is below Xoff) the
// first refresh that finds the pool drained sends XON instead of the pause.
TEST(nic_port_pfc, refresh_check_below_xoff_sends_xon)
{
    port_pair n;
    int checks = 0;
    n.a.pfc_refresh_check([&](int tc) {
        EXPECT_EQ(tc, 0);
        return ++checks < 2;  // still congested at the first refresh, drained at the second
    });
    run_until(0);
    n.a.pfc_xoff(0);
    run_until(200'000'000);
    EXPECT_EQ(n.pfc_starts(), (std::vector<uint64_t>{0, 41'992'400, 83'984'800}));
    EXPECT_EQ(n.a_to_b[2].quanta0, 0u);
    EXPECT_EQ(n.a.pfc().held(), 0u);
}

// RoCE links: the RoCE NIC transport page's 84-byte PFC frame, 1.68 ns at 400 Gbps.
TEST(nic_port_pfc, roce_pfc_frames_are_84_bytes_on_the_wire)
{
    port_pair n(wire::pfc_roce_bytes);
    run_until(0);
    n.a.pfc_xoff(0);
    n.a.push_control(n.frame(7, 1, 1000));
    run_until(1000 * ns);
    ASSERT_EQ(n.a_to_b.size(), 2u);
    EXPECT_EQ(n.a_to_b[0].bytes, 84u);
    EXPECT_EQ(n.a_to_b[1].start_ps, 1'680u);  // the control frame waits for the PFC frame
    EXPECT_EQ(n.a.stats().tx_bytes, 84u + 1000u);
    EXPECT_EQ(n.b.stats().rx_bytes, 84u + 1000u);
}

// A port keeps PFC state from its first PFC frame on. Before that it reads as never paused, an
// XON has nothing to release, and the record intervals taken meanwhile leave the first pause's
// interval maximum as it is: A pauses TC0 at 2,000 ns (B paused from 2,101.28 ns) and resumes it
// at 3,000 ns (B from 3,101.28 ns).
TEST(nic_port_pfc, a_port_reads_as_never_paused_until_its_first_pfc_frame)
{
    port_pair n;
    run_until(1000 * ns);
    EXPECT_EQ(n.b.pfc().take_pause_interval_max_ps(0, 1000 * ns), 0u);  // an interval ends
    EXPECT_EQ(n.b.pfc().take_egress_interval_max_ps(0, 1000 * ns), 0u);
    EXPECT_EQ(n.b.pfc().pauses().paused_ps(0, 1000 * ns), 0u);
    EXPECT_EQ(n.b.pfc().counters(0).xoff_tx, 0u);
    EXPECT_EQ(n.a.pfc().held(), 0u);
    n.a.pfc_xon(0);  // nothing held: no frame
    run_until(2000 * ns);
    EXPECT_TRUE(n.pfc_starts().empty());
    n.a.pfc_xoff(0);
    run_until(2500 * ns);
    EXPECT_EQ(n.a.pfc().held(), 1u);
    // The interval from 1,000 ns holds the pause so far: 2,101.28 to 2,500 ns.
    EXPECT_EQ(n.b.pfc().take_pause_interval_max_ps(0, 2500 * ns), 2500 * ns - 2'101'280);
    run_until(3000 * ns);
    n.a.pfc_xon(0);
    run_until(4000 * ns);
    // The next interval, from 2,500 ns, holds the rest: to the resume at 3,101.28 ns.
    EXPECT_EQ(n.b.pfc().take_pause_interval_max_ps(0, 4000 * ns), 3'101'280 - 2500 * ns);
    EXPECT_EQ(n.b.pfc().pauses().paused_ps(0, 4000 * ns), 1000 * ns);
    EXPECT_EQ(n.a.pfc().counters(0).xoff_tx, 1u);
    EXPECT_EQ(n.a.pfc().counters(0).xon_tx, 1u);
    EXPECT_EQ(n.pfc_starts(), (std::vector<uint64_t>{2000 * ns, 3000 * ns}));
}
