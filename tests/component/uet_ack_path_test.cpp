// The ACK path of the UET NIC against the transport and congestion-control pages' rules, on the
// two-NIC bench (tests/support/uet_nic_pair.h: 400 Gb/s, 100 ns of propagation, NIC clock 1 GHz,
// stub host DMA whose fetch takes no time). Outcomes are read from the uet-monitor rows both
// NICs write and from the frames on the link.
//
// Timing every test starts from (tests/component/uet_nic_pair_test.cpp derives it): the first
// data frame starts on the wire at 20 ns and a full one (4,202 B) takes 84.04 ns, so data frame
// k ends serializing at 20 + 84.04 (k + 1) ns; a frame arrives 100 ns after its end and spends
// 4 ns in the receiving NIC's pipeline; AckBuild takes no cycles; a NACK or probe (62 B) takes
// 1.24 ns on the wire, an ACK (78 B) 1.56 ns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <systemc>

#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

using row = uet_monitor_row;

// Trims the `n`-th first-transmission data frame that reaches B (0-based), as a last-hop
// switch would.
void trim_nth_data_frame(nic_pair& n, int nth)
{
    auto seen = std::make_shared<int>(0);
    n.to_b.edit = [seen, nth](packet& p) {
        if (p.kind != packet_kind::uet_data || p.pds.retransmit) return;
        if ((*seen)++ == nth) p.trim(false);
    };
}

}  // namespace

// Congestion-control page, trim NACK step 1: the NACK's RTT sample is offered to the base RTT
// under the ACK's rule. Data frame 0 is trimmed: it ended serializing at 104.04 ns, reaches B at
// 204.04 ns, is processed at 208.04 ns, and its NACK (1.24 ns, B's link idle) arrives back at A
// at 309.28 ns and is processed at 313.28 ns: an RTT of 209.24 ns, more than 1 us below
// InitialBaseRTT (6 us), so the base becomes 1.20924 us and the max window
// round(1.5 x 400 Gb/s x 1.20924 us / 8) = 90,693 B. The window (450,000 B) comes down to it,
// and the trim then takes one nominal packet (4,184 B): 86,509 B on the next frame A sends.
// Without the sample the window would read 450,000 - 4,184 = 445,816 B.
TEST(uet_ack_path, a_trim_nacks_rtt_sample_lowers_the_base_rtt)
{
    nic_pair n;
    recording_monitor mon;
    n.a.set_monitor(&mon);
    trim_nth_data_frame(n, 0);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));
    size_t nack = mon.rows.size();
    for (size_t i = 0; i < mon.rows.size(); ++i)
        if (mon.rows[i].packet_type == row::type::nack && mon.rows[i].direction == row::dir::rx) {
            nack = i;
            break;
        }
    ASSERT_LT(nack, mon.rows.size());
    EXPECT_EQ(mon.rows[nack].sim_time_ps, 313'280u);
    const row* next = nullptr;
    for (size_t i = nack + 1; i < mon.rows.size() && !next; ++i)
        if (mon.rows[i].direction != row::dir::rx && mon.rows[i].has_sender_state)
            next = &mon.rows[i];
    ASSERT_NE(next, nullptr);
    EXPECT_DOUBLE_EQ(next->congestion_window, 86'509.0);
}

// Records page, uet-monitor: a NACK the NIC sends is logged when the NIC processes it, once.
// The trimmed frame 0 is processed at B at 204.04 + 4 = 208.04 ns.
TEST(uet_ack_path, a_nack_sent_is_logged_once_when_made)
{
    nic_pair n;
    recording_monitor mon;
    n.b.set_monitor(&mon);
    trim_nth_data_frame(n, 0);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 65536, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    std::vector<uint64_t> nacks;
    for (const row& r : mon.rows)
        if (r.packet_type == row::type::nack) {
            EXPECT_EQ(r.direction, row::dir::tx);
            nacks.push_back(r.sim_time_ps);
        }
    EXPECT_EQ(n.b.counters().nack_pkts_sent, 1u);
    ASSERT_EQ(nacks.size(), 1u);
    EXPECT_EQ(nacks[0], 208'040u);
}

// Records page, uet-monitor: a data packet, ACK or probe the NIC sends is logged when it has
// finished going out on the wire, so one still serializing is not logged. A 16 KiB message is
// four full data frames, ending at 104.04, 188.08, 272.12 and 356.16 ns. Frame 0 reaches B at
// 204.04 ns and is processed at 208.04 ns; its ACK is held 4,184 B x 8 / 400 Gb/s = 83.68 ns
// and ends serializing at 208.04 + 83.68 + 1.56 = 293.28 ns. It arrives at A at 393.28 ns and is
// processed at 397.28 ns, which sends the base-RTT probe: A's link is idle by then, so the probe
// ends at 397.28 + 1.24 = 398.52 ns.
TEST(uet_ack_path, sent_packets_are_logged_when_they_have_finished_on_the_wire)
{
    nic_pair n;
    recording_monitor mon;
    n.a.set_monitor(&mon);
    n.b.set_monitor(&mon);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 16384, 0, k_no_queue_pair);

    // At 150 ns frame 1 is half way out: only frame 0 has a row.
    sc_core::sc_start(sc_core::sc_time(150, sc_core::SC_NS));
    ASSERT_EQ(mon.rows.size(), 1u);
    EXPECT_EQ(mon.rows[0].packet_type, row::type::rud_request);
    EXPECT_EQ(mon.rows[0].sim_time_ps, 104'040u);

    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    std::vector<uint64_t> data, probe, ack0;
    for (const row& r : mon.rows) {
        if (r.direction == row::dir::rx) continue;
        if (r.fep_id == k_node_a && r.packet_type == row::type::rud_request)
            data.push_back(r.sim_time_ps);
        if (r.fep_id == k_node_a && r.packet_type == row::type::ctrl)
            probe.push_back(r.sim_time_ps);
        if (r.fep_id == k_node_b && r.packet_type == row::type::ack_cc && ack0.empty())
            ack0.push_back(r.sim_time_ps);
    }
    EXPECT_EQ(data, (std::vector<uint64_t>{104'040, 188'080, 272'120, 356'160}));
    EXPECT_EQ(ack0, (std::vector<uint64_t>{293'280}));
    EXPECT_EQ(probe, (std::vector<uint64_t>{398'520}));
}

// Transport page: ACKs leave in the order they were made after the receiver's service time,
// while NACKs and the answers to base-RTT probes are not held, nor queued behind held ACKs.
// B's receive data pool holds 500,000 B besides the packets (13.9 % of its 3.6 MB pool: penalty
// 0; X20: the ACK hold reads the receive pool), so every
// ACK is held (500,000 + 4,184) B x 8 / 400 Gb/s = 10,083.68 ns. Eight data frames go, frame 3
// trimmed: it ends at 356.16 ns, is processed at B at 460.16 ns, and its NACK (B's link idle:
// no ACK has left) reaches A at 561.40 ns, processed at 565.40 ns.
// ACK 0 (frame 0 processed at 208.04 ns) leaves B at 10,291.72 ns and is processed at A at
// 10,291.72 + 1.56 + 100 + 4 = 10,397.28 ns, which sends the probe (A's link idle: every frame,
// the retransmission of frame 3 too, ended by 776.40 ns). The probe ends at 10,398.52 ns and is
// processed at B at 10,502.52 ns, with ACKs 4..7 and the retransmission's still held (ACK 2 left
// at 10,459.80 ns and ended at 10,461.36 ns); its answer (an ACK's 78 B) goes at once and is
// processed at A at 10,502.52 + 1.56 + 100 + 4 = 10,608.08 ns.
TEST(uet_ack_path, nacks_and_probe_answers_are_not_held_behind_held_acks)
{
    nic_pair n;
    n.b.port.rx_preload(0, 500'000);
    recording_monitor mon;
    n.a.set_monitor(&mon);
    trim_nth_data_frame(n, 3);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 8 * 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 8 * 4096));
    std::vector<uint64_t> nack, probe_answer, data_acks;
    for (const row& r : mon.rows) {
        if (r.direction != row::dir::rx) continue;
        if (r.packet_type == row::type::nack) nack.push_back(r.sim_time_ps);
        if (r.packet_type == row::type::ack_cc)
            (r.has_ack ? data_acks : probe_answer).push_back(r.sim_time_ps);
    }
    EXPECT_EQ(nack, (std::vector<uint64_t>{565'400}));
    EXPECT_EQ(probe_answer, (std::vector<uint64_t>{10'608'080}));
    ASSERT_EQ(data_acks.size(), 8u);  // seven first transmissions and the retransmission
    EXPECT_EQ(data_acks[0], 10'397'280u);
    EXPECT_TRUE(std::is_sorted(data_acks.begin(), data_acks.end()));
}

namespace {

struct penalty_episode
{
    double before = 0;  // A's window after the last ACK before the penalty began
    double lowest = 0;  // its lowest window during the penalty
    double after = 0;   // its window after the first ACK with penalty 0 again
    int penalized = 0;  // ACKs with a penalty above 0
    bool flags_seen = false, flag = false;  // the restore flag on B's ACKs (all equal)
};

// A 1 MiB message from A to B. From 3 us to 6 us B's receive data pool holds 2,000,000 B more
// (55.6 % of its 3.6 MB pool: penalty floor(127 x (55.6 - 25) / 50) = 77), then none again.
penalty_episode run_penalty_episode(bool receiver_restores)
{
    nscc_config cc_b;
    cc_b.restore_cwnd_enable = receiver_restores;
    nic_pair n(pair_params(), pair_params(uet_nic_config{}, cc_b));
    recording_monitor mon;
    n.a.set_monitor(&mon);
    penalty_episode e;
    n.wire.add_tap([&e](const packet& p, uetsim::link::direction d, const sc_core::sc_time&) {
        if (d != uetsim::link::b_to_a || p.kind != packet_kind::uet_ack) return;
        if (e.flags_seen && e.flag != p.pds.restore_cwnd) ADD_FAILURE() << "mixed restore flags";
        e.flags_seen = true;
        e.flag = p.pds.restore_cwnd;
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(3, sc_core::SC_US));
    n.b.port.rx_preload(0, 2'000'000);
    sc_core::sc_start(sc_core::sc_time(3, sc_core::SC_US));
    n.b.port.rx_preload(0, 0);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
    EXPECT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));

    bool in_episode = false, done = false;
    for (const row& r : mon.rows) {
        if (r.direction != row::dir::rx || !r.has_ack || done) continue;
        if (r.penalty > 0) {
            EXPECT_EQ(r.penalty, 77);
            if (!in_episode) e.lowest = r.congestion_window;
            in_episode = true;
            ++e.penalized;
            e.lowest = std::min(e.lowest, r.congestion_window);
        } else if (in_episode) {
            e.after = r.congestion_window;
            done = true;
        } else {
            e.before = r.congestion_window;
        }
    }
    return e;
}

}  // namespace

// Congestion-control page, receiver penalty: each ACK carries the receiving NIC's
// RestoreCWindEnable; with it set, the first ACK with penalty 0 after a penalty restores the
// window the sender saved when the penalty began (its window after the last ACK before).
TEST(uet_ack_path, acks_carry_the_receivers_restore_flag_and_the_sender_restores_its_window)
{
    const penalty_episode e = run_penalty_episode(true);
    EXPECT_TRUE(e.flags_seen && e.flag);
    EXPECT_GT(e.penalized, 0);
    EXPECT_LT(e.lowest, e.before / 2);  // the penalty shrank the window
    EXPECT_DOUBLE_EQ(e.after, e.before);
}

// With RestoreCWindEnable false on the receiver (the default) the window grows back through the
// ordinary routines instead: the first ACK with penalty 0 finds it still below where it was.
TEST(uet_ack_path, without_the_receivers_restore_flag_the_window_is_not_restored)
{
    const penalty_episode e = run_penalty_episode(false);
    EXPECT_TRUE(e.flags_seen && !e.flag);
    EXPECT_GT(e.penalized, 0);
    EXPECT_LT(e.after, e.before / 2);
}

namespace {

// B's ACKs, each read with `field`, for a 10,000 B message of three packets (4,096, 4,096 and
// 1,808 B) whose second packet is trimmed: the message completes after one NACK.
template <class F>
auto acks_around_a_trim(F field)
{
    nic_pair n;
    trim_nth_data_frame(n, 1);
    std::vector<decltype(field(packet{}))> out;
    n.wire.add_tap([&](const packet& p, uetsim::link::direction d, const sc_core::sc_time&) {
        if (d == uetsim::link::b_to_a && p.kind == packet_kind::uet_ack) out.push_back(field(p));
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 10'000, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    EXPECT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(n.b.counters().nack_pkts_sent, 1u);
    return out;
}

}  // namespace

// Transport page, what an ACK carries: the bytes the receiver has received on the PDC. The ACKs
// carry 4,096, then 4,096 + 1,808 = 5,904, then 10,000 once the retransmission arrives.
TEST(uet_ack_path, acks_carry_the_bytes_received_on_the_pdc)
{
    EXPECT_EQ(acks_around_a_trim([](const packet& p) { return p.pds.rcvd_bytes; }),
              (std::vector<uint64_t>{4096, 5904, 10'000}));
}

// NSCC cc_state's ooo_count: packets the receiving PDC holds beyond its cumulative ACK. The first
// ACK finds nothing held, the ACK of the third packet finds it held beyond the gap (1), the
// retransmission closes the gap (0).
TEST(uet_ack_path, acks_carry_the_receivers_out_of_order_count)
{
    EXPECT_EQ(acks_around_a_trim([](const packet& p) { return p.pds.ooo_count; }),
              (std::vector<uint16_t>{0, 1, 0}));
}

// Buffers page, transmit scheduling: StrictPriority sends the highest-numbered class with a
// frame waiting. With B's data in class 2, above the control class 1, B's data frames go before
// its ACKs: each NIC sends a 1 MiB message to the other at once, and B's 256 data frames leave
// back to back from 20 ns (frame k starts at 20 + 84.04 k ns; B's window never closes, its ACKs
// from A return within a microsecond), with no ACK of B's between them: B's first ACK starts
// once its last data frame has ended, at 20 + 256 x 84.04 = 21,534.24 ns or later. Class 2's data
// reserves in class 2's own egress pool, so both NICs give it one: [0.5, 0.1, 0.4] of 256,000 B,
// 102,400 B (24 data packets, refilled long before the 12 left after a drain to half are sent).
TEST(uet_ack_path, data_of_a_class_above_the_control_class_goes_before_acks)
{
    uet_nic_config three;
    three.egress.pool_allocation = {0.5, 0.1, 0.4};
    nic_pair n(pair_params(three), pair_params(three));
    std::vector<uint64_t> b_data;
    uint64_t b_first_ack = 0;
    n.wire.add_tap([&](const packet& p, uetsim::link::direction d, const sc_core::sc_time& t) {
        if (d != uetsim::link::b_to_a) return;
        if (p.kind == packet_kind::uet_data) b_data.push_back(t.value());
        if (p.kind == packet_kind::uet_ack && b_first_ack == 0) b_first_ack = t.value();
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    n.b.post_message(2, 0, k_ip_a, 1 << 20, 2, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    ASSERT_EQ(n.dma_b.completed[2].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));
    EXPECT_TRUE(n.dma_a.written_once(1, 2, 1 << 20));
    ASSERT_EQ(b_data.size(), 256u);
    for (size_t k = 0; k < b_data.size(); ++k)
        ASSERT_EQ(b_data[k], 20'000 + 84'040 * k) << "data frame " << k;
    EXPECT_GE(b_first_ack, 21'534'240u);
}

namespace {

// A sends message 1 (64 KiB) to B while B sends 1 MiB to A (its last byte reaches A at about
// 21.6 us); A sends message 2 to B at `second_at_us`. Returns A's window on message 2's first
// data frame.
double window_of_a_second_message(double second_at_us)
{
    nic_pair n;
    recording_monitor mon;
    n.a.set_monitor(&mon);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 65536, 0, k_no_queue_pair);
    n.b.post_message(7, 0, k_ip_a, 1 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(second_at_us, sc_core::SC_US));
    EXPECT_EQ(n.dma_a.completed[1].size(), 1u);  // message 1 is done: its PDC closed
    n.a.post_message(2, 1, k_ip_b, 65536, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
    EXPECT_EQ(n.dma_a.completed[2].size(), 1u);
    EXPECT_TRUE(n.dma_a.written_once(1, 7, 1 << 20));
    for (const row& r : mon.rows)
        if (r.direction == row::dir::tx && r.packet_type == row::type::rud_request && r.job_id == 2)
            return r.congestion_window;
    ADD_FAILURE() << "no data row of message 2";
    return 0;
}

}  // namespace

// Congestion-control page: a group's window lasts while any PDC to or from the destination is
// open; once none is, the next message starts a new window at the max window (450,000 B). Message
// 1's base-RTT probe (a round trip of a few hundred ns) lowers A's base RTT below 2 us, so its
// max window below 1.5 x 400 Gb/s x 2 us / 8 = 150,000 B. At 10 us B's message to A is still
// arriving: message 2 joins the group and its window.
TEST(uet_ack_path, a_pdc_from_the_peer_keeps_the_group_and_its_window)
{
    EXPECT_LT(window_of_a_second_message(10), 150'000.0);
}

// At 100 us nothing to or from B is open at A any more: message 2 starts a new group.
TEST(uet_ack_path, with_no_pdc_open_either_way_the_next_message_starts_a_new_window)
{
    EXPECT_DOUBLE_EQ(window_of_a_second_message(100), 450'000.0);
}
