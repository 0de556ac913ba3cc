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
