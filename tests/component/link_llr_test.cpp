// Link Level Retry on one link between two NIC ports (hw/link/link.h, docs/link-layer.md),
// hand-computed to the picosecond: the replay of the first missing frame after an LLR_NACK, the
// port's stall when the replay buffer is full and its resume at the ACK, and the control ordered
// sets' and replays' bytes on the wire.
//
// Timings (400 Gb/s, 100 ns propagation, receive pipeline 4 ns): a 1,000 B frame is 20 ns on the
// wire, an 8-byte control ordered set 160 ps; arrival = start + serialization + 100 ns, and the
// client sees a frame 4 ns after it arrives. ACK spacing 0: an ACK may follow every frame.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "hw/common/random.h"
#include "tests/support/nic_port_pair.h"

using namespace uetsim;

namespace {

constexpr uint64_t ns = 1000;  // ps

nic_port_config config(uint32_t host)
{
    nic_port_config c;
    c.host = host;
    c.ip = 0x0a000001 + host;
    c.egress.total_buffer_bytes = 8000;
    c.egress.pool_allocation = {1.0, 1.0};
    c.rx_stages[0].cycles = 4;  // RxParse: 4 cycles of 1 ns
    return c;
}

struct llr_pair : uetsim::test::nic_port_pair
{
    // The replay timer is out of the way unless a test says otherwise: these show NACKs and ACKs.
    explicit llr_pair(uint64_t buffer_bytes, uint64_t timeout_ps = 10000 * ns,
                      bool timer_on_demand = false)
        : nic_port_pair(config(0), config(1), 1000)
    {
        link::llr_settings s;
        s.buffer_bytes = buffer_bytes;
        s.timeout_ps = timeout_ps;
        s.control_bytes = 8;
        s.ack_spacing_bytes = 0;
        s.timer_on_demand = timer_on_demand;
        wire.enable_llr(s);
    }
    std::vector<uint64_t> received_ps() const
    {
        std::vector<uint64_t> r;
        for (const auto& a : client_b.received) r.push_back(a.at_ps);
        return r;
    }
    // When each frame on the A-to-B wire started (first sendings and replays).
    std::vector<uint64_t> a_to_b_starts() const
    {
        std::vector<uint64_t> r;
        for (const auto& f : a_to_b) r.push_back(f.start_ps);
        return r;
    }
    std::vector<uint32_t> received_psns() const
    {
        std::vector<uint32_t> r;
        for (const auto& a : client_b.received) r.push_back(a.psn);
        return r;
    }
};

uint64_t now_ps()
{
    return sc_core::sc_time_stamp().value();
}

}  // namespace

TEST(link_llr, a_corrupted_frame_is_replayed_from_the_nack_and_the_transport_sees_no_loss)
{
    llr_pair n(100000);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (uint32_t i = 1; i <= 4; ++i) n.a.push_data(n.frame(i), now_ps());
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));  // frame 1 is on the wire
    n.wire.inject_fcs_error(link::a_to_b);                   // frame 2 arrives corrupted
    sc_core::sc_start();
    // 1: 0-20 ns, arrives 120. 2: 20-40, arrives 140 with a bad FCS: B's NACK(1) starts at 140
    // on the reverse wire, 160 ps, and reaches A at 240.16 ns. 3 and 4 (40-60, 60-80) arrive at
    // 160 and 180 and are discarded. A replays 2, 3, 4 from 240.16 ns, 20 ns each: they arrive
    // at 360.16, 380.16, 400.16 and the client sees each 4 ns later.
    EXPECT_EQ(n.received_psns(), (std::vector<uint32_t>{1, 2, 3, 4}));
    EXPECT_EQ(n.received_ps(), (std::vector<uint64_t>{124 * ns, 364160, 384160, 404160}));
    EXPECT_EQ(n.a_to_b_starts(),
              (std::vector<uint64_t>{0, 20 * ns, 40 * ns, 60 * ns, 240160, 260160, 280160}));
    const link::llr_counters c = n.wire.llr_stats(link::a_to_b);
    EXPECT_EQ(c.replays, 1u);
    EXPECT_EQ(c.timer_replays, 0u);
    EXPECT_EQ(c.replayed_frames, 3u);
    EXPECT_EQ(c.replayed_bytes, 3000u);
    EXPECT_EQ(c.next_seq, 5u);
    EXPECT_EQ(c.acked_seq, 4u);
    EXPECT_EQ(c.held_bytes, 0u);
    EXPECT_EQ(n.wire.fcs_errors(link::a_to_b), 1u);
    // The port sent each frame once; the replays are the link's.
    EXPECT_EQ(n.a.stats().tx_packets, 4u);
    EXPECT_EQ(n.a.stats().tx_bytes, 4000u);
    // On the reverse wire: ACK(1) at 120 ns, NACK(1) at 140, ACK(2), ACK(3), ACK(4) at 360.16,
    // 380.16, 400.16: five control ordered sets of 8 bytes.
    const link::llr_counters r = n.wire.llr_stats(link::b_to_a);
    EXPECT_EQ(r.control_frames, 5u);
    EXPECT_EQ(r.control_bytes, 40u);
    EXPECT_EQ(n.wire.llr_stats(link::a_to_b).control_frames, 0u);  // B sent no frames
}

TEST(link_llr, the_port_stalls_while_the_replay_buffer_is_full_and_resumes_at_the_ack)
{
    llr_pair n(2000);  // two frames
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (uint32_t i = 1; i <= 4; ++i) n.a.push_data(n.frame(i), now_ps());
    sc_core::sc_start();
    // 1: 0-20, 2: 20-40; the buffer holds 2,000 B. Frame 3, offered at 40 ns, waits. ACK(1)
    // leaves B at 120 ns (frame 1's arrival) and reaches A at 220.16 ns: 3 starts then, 20 ns,
    // and the port's transmitter is free at 240.16 ns, when ACK(2) (from B at 140 ns) frees
    // frame 2: 4 starts at 240.16 ns. Each arrives 120 ns after it starts (20 + 100).
    EXPECT_EQ(n.a_to_b_starts(), (std::vector<uint64_t>{0, 20 * ns, 220160, 240160}));
    EXPECT_EQ(n.received_ps(), (std::vector<uint64_t>{124 * ns, 144 * ns, 344160, 364160}));
    EXPECT_EQ(n.received_psns(), (std::vector<uint32_t>{1, 2, 3, 4}));
    // Frame 3 waited for room from 40 ns to 220.16 ns.
    const link::llr_counters c = n.wire.llr_stats(link::a_to_b);
    EXPECT_EQ(c.stall_ps, 180160u);
    EXPECT_EQ(c.replays, 0u);
    // The port's own view: each frame's serialization ends 20 ns after it starts.
    EXPECT_EQ(n.client_a.sent_psns, (std::vector<uint32_t>{1, 2, 3, 4}));
    EXPECT_EQ(n.a.stats().tx_packets, 4u);
}

TEST(link_llr, the_replay_timer_recovers_a_lost_last_frame)
{
    // The only frame vanishes on the wire (a Faults loss): nothing arrives to show the gap, so no
    // NACK comes; the replay timer (10 us here) sends it again.
    llr_pair n(100000);
    random_stream rng(1, 1);
    n.wire.set_loss(1.0, &rng);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.push_data(n.frame(1), now_ps());
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));  // frame 1 started and is lost
    n.wire.set_loss(0, nullptr);
    sc_core::sc_start();
    // The timer, armed when frame 1 entered the empty buffer at 0, replays it at 10,000 ns; it
    // arrives at 10,120 ns and the client sees it at 10,124 ns.
    EXPECT_EQ(n.received_ps(), (std::vector<uint64_t>{10124 * ns}));
    EXPECT_EQ(n.wire.frames_lost(link::a_to_b), 1u);
    const link::llr_counters c = n.wire.llr_stats(link::a_to_b);
    EXPECT_EQ(c.replays, 1u);
    EXPECT_EQ(c.timer_replays, 1u);
    EXPECT_EQ(c.replayed_bytes, 1000u);
    EXPECT_EQ(c.held_bytes, 0u);  // its ACK came back
}

// `timer_on_demand`: the timer is left out until the link goes down, and then armed at the due
// time the sender kept: the same times either way.
void expect_frames_lost_with_the_link_replayed_by_the_timer(bool timer_on_demand)
{
    // Frames 1-3 from A at 0, 20 ns each; the link goes down at 130 ns and up at 200 ns. Frame 1
    // arrived at 120 ns; 2 and 3, due at 140 and 160, are lost, and so is B's ACK(1) (sent at
    // 120, due at A at 220.16). The replay timer (500 ns, armed when frame 1 entered the empty
    // buffer at 0) sends all three again from 500 ns: frame 1, delivered already, as a duplicate
    // (its length only), then 2 and 3 at 520 and 540 ns, arriving at 640 and 660 ns; the client
    // sees each 4 ns later.
    llr_pair n(100000, 500 * ns, timer_on_demand);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (uint32_t i = 1; i <= 3; ++i) n.a.push_data(n.frame(i), now_ps());
    sc_core::sc_start(sc_core::sc_time(130, sc_core::SC_NS));
    n.wire.set_up(false);
    sc_core::sc_start(sc_core::sc_time(70, sc_core::SC_NS));
    n.wire.set_up(true);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(n.received_ps(), (std::vector<uint64_t>{124 * ns, 644 * ns, 664 * ns}));
    EXPECT_EQ(n.received_psns(), (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(n.wire.frames_lost(link::a_to_b), 2u);
    EXPECT_EQ(n.a_to_b_starts(),
              (std::vector<uint64_t>{0, 20 * ns, 40 * ns, 500 * ns, 520 * ns, 540 * ns}));
    const link::llr_counters c = n.wire.llr_stats(link::a_to_b);
    EXPECT_EQ(c.timer_replays, 1u);
    EXPECT_EQ(c.replayed_frames, 3u);
    EXPECT_EQ(c.replayed_bytes, 3000u);
    EXPECT_EQ(c.acked_seq, 3u);
    EXPECT_EQ(c.held_bytes, 0u);
    // ACK(1), lost; then ACK(1) again for the duplicate, ACK(2) and ACK(3).
    EXPECT_EQ(n.wire.llr_stats(link::b_to_a).control_frames, 4u);
    EXPECT_EQ(n.b.stats().rx_packets, 3u);
}

TEST(link_llr, frames_lost_with_the_link_are_kept_and_replayed_by_the_timer_once_it_is_back)
{
    expect_frames_lost_with_the_link_replayed_by_the_timer(false);
}

TEST(link_llr, a_timer_left_out_until_needed_is_armed_by_the_link_going_down_at_its_due_time)
{
    expect_frames_lost_with_the_link_replayed_by_the_timer(true);
}

// Frames 1 and 2 from A at 0 and 20 ns; a Faults loss from 10 to 25 ns takes frame 2, the last,
// so no NACK comes. Frame 1 arrives at 120 ns and its ACK reaches A at 220.16 ns, which moves
// the timer (500 ns) from 500 ns to 720.16 ns; frame 2 goes again then, arrives at 840.16 ns and
// the client sees it at 844.16 ns. Left out until the loss, the timer is armed at 500 ns, the due
// time the sender knew, and wakes there to find it moved: the same times either way.
void expect_a_lost_last_frame_replayed_after_the_ack_moved_the_timer(bool timer_on_demand)
{
    llr_pair n(100000, 500 * ns, timer_on_demand);
    random_stream rng(1, 1);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (uint32_t i = 1; i <= 2; ++i) n.a.push_data(n.frame(i), now_ps());
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_NS));
    n.wire.set_loss(1.0, &rng);
    sc_core::sc_start(sc_core::sc_time(15, sc_core::SC_NS));
    n.wire.set_loss(0, nullptr);
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
    EXPECT_EQ(n.received_ps(), (std::vector<uint64_t>{124 * ns, 844160}));
    EXPECT_EQ(n.received_psns(), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(n.wire.frames_lost(link::a_to_b), 1u);
    EXPECT_EQ(n.a_to_b_starts(), (std::vector<uint64_t>{0, 20 * ns, 720160}));
    const link::llr_counters c = n.wire.llr_stats(link::a_to_b);
    EXPECT_EQ(c.timer_replays, 1u);
    EXPECT_EQ(c.replayed_frames, 1u);
    EXPECT_EQ(c.acked_seq, 2u);
    EXPECT_EQ(c.held_bytes, 0u);
}

TEST(link_llr, a_lost_last_frame_is_replayed_once_the_acks_before_it_stop_moving_the_timer)
{
    expect_a_lost_last_frame_replayed_after_the_ack_moved_the_timer(false);
}

TEST(link_llr, a_timer_left_out_until_a_loss_goes_on_from_the_due_time_the_sender_knew)
{
    expect_a_lost_last_frame_replayed_after_the_ack_moved_the_timer(true);
}
