// Per-class egress on the NIC port (the NIC buffers pages' egress buffer and transmit
// scheduling): one egress pool and one queue per traffic class, the scheduler choosing among the
// queues, a pause holding only its class, a full pool only its class, control frames waiting for
// room in the control class's pool. Two ports back to back over one 400 Gbps link with 100 ns of
// propagation; the frames port A sends are read from a tap on the link.
//
// Times: a 1,000-byte frame is 20 ns on the wire, a 100-byte one 2 ns, a 64-byte PFC frame
// 1.28 ns; arrival = start + serialization + 100 ns, and the client sees it 4 ns later.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "hw/kernel/time.h"
#include "tests/support/nic_port_pair.h"

using namespace uetsim;

namespace {

constexpr uint64_t ns = 1000;  // ps

// Egress: TotalBufferSize 100,000 B, the given PoolAllocationVector and scheduling.
nic_port_config config(uint32_t host, const std::array<double, k_tc_count>& pools,
                       queue_scheduling sched, const std::array<uint32_t, k_tc_count>& weights)
{
    nic_port_config c;
    c.host = host;
    c.ip = 0x0a000001 + host;
    c.egress.total_buffer_bytes = 100'000;
    c.egress.pool_allocation = pools;
    c.egress.scheduling = sched;
    c.egress.wrr_weights = weights;
    c.rx_stages[0].cycles = 4;
    c.pfc.ip = c.ip;
    c.pfc.frame_bytes = wire::pfc_uet_bytes;
    return c;
}

struct port_pair : uetsim::test::nic_port_pair
{
    explicit port_pair(const std::array<double, k_tc_count>& pools,
                       queue_scheduling sched = queue_scheduling::strict_priority,
                       const std::array<uint32_t, k_tc_count>& weights = {1, 1, 1})
        : nic_port_pair(config(0, pools, sched, weights), config(1, pools, sched, weights), 1000)
    {
    }
    // The classes of A's frames on the wire, in order ("0222..."), PFC frames left out.
    std::string classes() const
    {
        std::string s;
        for (const auto& f : a_to_b)
            if (f.kind != packet_kind::pfc) s += char('0' + f.tc);
        return s;
    }
};

uint64_t now_ps()
{
    return sc_core::sc_time_stamp().value();
}

void run_until(uint64_t ps)
{
    sc_core::sc_start(picoseconds(ps) - sc_core::sc_time_stamp());
}

// B pauses class `tc` at 0 (A holds it from 101.28 ns on); the run goes on to 200 ns.
void pause_until_200_ns(port_pair& n, uint8_t tc)
{
    run_until(0);
    n.b.pfc_xoff(tc);
    run_until(200 * ns);
}

}  // namespace

// WeightedRoundRobin with weights [1, 1, 3]: with classes 0 and 2 both waiting (class 1 has
// nothing and gives up its turns), class 2 sends 3 frames for each of class 0. The first frame
// (class 0) goes alone; the turns then start at the highest class: 2 2 2 0, thirteen times,
// then class 2's last frame, then class 0's remaining 27. Over the 52 frames sent while both
// waited: 39 x 1,000 B of class 2 and 13 x 1,000 B of class 0, the weights' 3 : 1.
TEST(nic_port_classes, two_data_classes_share_the_wire_by_the_wrr_weights)
{
    port_pair n({0.5, 0.1, 0.4}, queue_scheduling::weighted_round_robin, {1, 1, 3});
    run_until(0);
    n.a.push_data(n.frame(0, 0), now_ps());  // on the wire at once
    for (uint32_t i = 1; i <= 40; ++i) n.a.push_data(n.frame(i, 0), now_ps());
    for (uint32_t i = 1; i <= 40; ++i) n.a.push_data(n.frame(100 + i, 2), now_ps());
    run_until(1 * ns);  // the frames reached their queues (the fetch line hands them on at 0)
    EXPECT_EQ(n.a.data_queue_depth(0), 40u);
    EXPECT_EQ(n.a.data_queue_depth(2), 40u);
    // Each class's pool holds its own frames: 41 x 1,000 of 50,000 B, 40 x 1,000 of 40,000 B.
    EXPECT_EQ(n.a.pool_room(0), 9'000u);
    EXPECT_EQ(n.a.pool_room(2), 0u);
    run_until(10'000 * ns);
    ASSERT_EQ(n.a_to_b.size(), 81u);
    std::string expected = "0";
    for (int t = 0; t < 13; ++t) expected += "2220";
    expected += "2" + std::string(27, '0');
    EXPECT_EQ(n.classes(), expected);
    uint64_t bytes[3] = {};
    for (size_t i = 1; i <= 52; ++i) bytes[n.a_to_b[i].tc] += n.a_to_b[i].bytes;
    EXPECT_EQ(bytes[2], 39'000u);
    EXPECT_EQ(bytes[0], 13'000u);
    EXPECT_EQ(n.a_to_b[80].start_ps, 80 * 20 * ns);  // back to back: the wire never idled
    EXPECT_EQ(n.a.pool_room(0), 50'000u);
    EXPECT_EQ(n.a.pool_room(2), 40'000u);
}

// B pauses class 0 at 0 (A paused from 101.28 ns). At 200 ns A queues three class-0 frames,
// then three class-2 frames behind them: class 2 passes the paused class (200, 220, 240 ns on
// the wire; B sees them at 324, 344, 364 ns). B's XON at 1,000 ns reaches A at 1,101.28 ns and
// class 0 follows from then.
TEST(nic_port_classes, a_paused_class_does_not_block_another_class)
{
    port_pair n({0.5, 0.1, 0.4});
    pause_until_200_ns(n, 0);
    for (uint32_t i = 1; i <= 3; ++i) n.a.push_data(n.frame(i, 0), now_ps());
    for (uint32_t i = 1; i <= 3; ++i) n.a.push_data(n.frame(100 + i, 2), now_ps());
    run_until(1000 * ns);
    ASSERT_EQ(n.client_b.received.size(), 3u);
    EXPECT_EQ(n.client_b.received[0].psn, 101u);
    EXPECT_EQ(n.client_b.received[0].at_ps, 324 * ns);
    EXPECT_EQ(n.client_b.received[2].psn, 103u);
    EXPECT_EQ(n.client_b.received[2].at_ps, 364 * ns);
    EXPECT_EQ(n.a.data_queue_depth(0), 3u);
    n.b.pfc_xon(0);
    run_until(5000 * ns);
    ASSERT_EQ(n.client_b.received.size(), 6u);
    EXPECT_EQ(n.client_b.received[3].psn, 1u);
    EXPECT_EQ(n.client_b.received[3].at_ps, 1'101'280 + 124 * ns);
    EXPECT_EQ(n.client_b.received[5].psn, 3u);
    EXPECT_EQ(n.client_b.received[5].at_ps, 1'101'280 + 164 * ns);
    // Only class 0 waited through the pause: from 200 ns to 1,101.28 ns.
    EXPECT_EQ(n.a.pfc().egress_blocking().total_ps(0, 5000 * ns), 1'101'280 - 200 * ns);
    EXPECT_EQ(n.a.pfc().egress_blocking().total_ps(2, 5000 * ns), 0u);
}

// Pools of 3,000 B (class 0), 10,000 B (class 1) and 5,000 B (class 2). Class 0 is paused and
// its pool full (three 1,000 B frames, the client blocked on it); class 2's five frames still
// reserve their own pool and go, and their release wakes nobody. After the XON (at A from
// 1,101.28 ns) class 0's pool drains: 2,000 B left after the first frame (more than half of
// 3,000), 1,000 B after the second, at 1,141.28 ns: the client is woken then, once.
TEST(nic_port_classes, a_full_pool_holds_only_its_class)
{
    port_pair n({0.03, 0.1, 0.05});
    pause_until_200_ns(n, 0);
    for (uint32_t i = 1; i <= 3; ++i) n.a.push_data(n.frame(i, 0), now_ps());
    EXPECT_EQ(n.a.pool_room(0), 0u);
    n.a.block_on_pool(0);
    EXPECT_EQ(n.a.pool_room(2), 5'000u);
    for (uint32_t i = 1; i <= 5; ++i) n.a.push_data(n.frame(100 + i, 2), now_ps());
    EXPECT_EQ(n.a.pool_room(2), 0u);
    run_until(1000 * ns);
    ASSERT_EQ(n.client_b.received.size(), 5u);
    EXPECT_EQ(n.client_b.received[4].psn, 105u);
    EXPECT_EQ(n.client_b.received[4].at_ps, 404 * ns);  // 200 + 5 x 20 + 104
    EXPECT_EQ(n.a.pool_room(2), 5'000u);
    EXPECT_EQ(n.a.pool_room(0), 0u);
    EXPECT_TRUE(n.client_a.pool_free_ps.empty());
    n.b.pfc_xon(0);
    run_until(5000 * ns);
    ASSERT_EQ(n.client_b.received.size(), 8u);
    EXPECT_EQ(n.client_a.pool_free_ps, (std::vector<uint64_t>{1'141'280}));
    EXPECT_EQ(n.a.pool_room(0), 3'000u);
}

// A control pool (class 1) of 200 B: with class 1 paused, two 100-byte control frames reserve
// it and two more wait for room; class 0's data is not held by it. After the XON (at A from
// 1,101.28 ns) the four go in order, back to back: each waiting frame is admitted when the one
// ahead of it ends (1,103.28 and 1,105.28 ns), before the wire is free again.
TEST(nic_port_classes, control_frames_wait_for_room_in_the_control_pool)
{
    port_pair n({0.5, 0.002});
    ASSERT_EQ(n.a.egress_pools().pool_bytes(1), 200u);
    pause_until_200_ns(n, 1);
    for (uint32_t i = 1; i <= 4; ++i) n.a.push_control(n.frame(i, 1, 100));
    EXPECT_EQ(n.a.egress_pools().reserved(1), 200u);  // two frames; two wait outside the pool
    EXPECT_EQ(n.a.control_queue_depth(), 4u);
    n.a.push_data(n.frame(10, 0), now_ps());
    run_until(1000 * ns);
    ASSERT_EQ(n.client_b.received.size(), 1u);  // the data frame only: 200 + 20 + 104
    EXPECT_EQ(n.client_b.received[0].at_ps, 324 * ns);
    EXPECT_EQ(n.a.egress_pools().reserved(1), 200u);
    n.b.pfc_xon(1);
    run_until(5000 * ns);
    ASSERT_EQ(n.client_b.received.size(), 5u);
    for (uint32_t i = 1; i <= 4; ++i) {
        EXPECT_EQ(n.client_b.received[i].psn, i);
        EXPECT_EQ(n.client_b.received[i].at_ps, 1'101'280 + (2 * i + 104) * ns);
    }
    EXPECT_EQ(n.a.egress_pools().reserved(1), 0u);
    EXPECT_EQ(n.a.control_queue_depth(), 0u);
}
