// The PDC close handshake and the lifecycle NACKs on the two-NIC bench (tests/support/
// uet_nic_pair.h: 400 Gb/s, 100 ns of propagation, NIC clock 1 GHz, stub host DMA whose fetch
// takes no time), UetNic.PdcIdleCloseTimeout 10 us on both NICs. Times and bytes by hand:
//
// One message of 4,096 B: the doorbell wakes the scheduler at 15 ns, EntropyLookup (1 cycle) and
// HeaderBuild (4) put the frame (4,096 + 106 = 4,202 B, 84.04 ns) on the wire at 20 ns; it ends
// at 104.04, reaches B at 204.04 and is parsed at 208.04 ns (RxParse 4 cycles). Its ACK is held
// 4,184 B x 8 / 400 Gb/s = 83.68 ns and takes 78 B = 1.56 ns: on the wire 291.72 to 293.28, at A
// 393.28, parsed at 397.28 ns: the message completes, and A sends the base-RTT probe (62 B,
// 397.28 to 398.52) and, closing the PDC, CLOSE_CMD (PDS control 16 B + UDP 8 + IPv4 20 +
// Ethernet 18 = 62 B, 398.52 to 399.76). CLOSE_CMD reaches B at 499.76 and is parsed at 503.76;
// the probe's answer (78 B, not held) is on B's wire 502.52 to 504.08, so the ACK of CLOSE_CMD
// (78 B, not held) follows, 504.08 to 505.64: at A 605.64, parsed at 609.64 ns, when the PDC id is
// free and A writes PDC_TERMINATED.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "tests/support/uet_nic_pair.h"
#include "tlm/nack_codes.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

using seen = seen_frame;

class recording_events : public uet_event_sink
{
public:
    void event(const uet_event& e) override { rows.push_back(e); }
    std::vector<uet_event> of(uint32_t fep, uet_event::type t) const
    {
        std::vector<uet_event> out;
        for (const uet_event& e : rows)
            if (e.fep_id == fep && e.ev == t) out.push_back(e);
        return out;
    }
    std::vector<uet_event> rows;
};

uet_nic_params closing(uint32_t sack_contexts = 4096)
{
    uet_nic_config c;
    c.pdc_idle_close_timeout_s = 10e-6;
    c.enable_event_logging = true;
    c.sack_contexts = sack_contexts;
    return pair_params(c);
}

struct close_bench : frame_recorder
{
    nic_pair n;
    recording_events events;
    explicit close_bench(uint32_t b_sack_contexts = 4096) : n(closing(), closing(b_sack_contexts))
    {
        n.a.set_event_sink(&events);
        n.b.set_event_sink(&events);
        record(n);
    }
    // ACKs that answer CLOSE_CMD (their ACK PSN is the command's PSN, past every data PSN).
    std::vector<seen> close_acks(uint32_t close_psn) const
    {
        std::vector<seen> out;
        for (const seen& s : of(at_a, packet_kind::uet_ack))
            if (s.pds.ack_psn == close_psn) out.push_back(s);
        return out;
    }
};

constexpr uint32_t k_fep_a = k_node_a, k_fep_b = k_node_b;

}  // namespace

// The close of a Flows message's PDC, as the header derives: CLOSE_CMD of 62 B at B at
// 499.76 ns naming PSN first + 1 (the PDC's next PSN), acknowledged by a 78 B ACK at A at
// 605.64 ns; A's PDC id is free at 609.64 ns, B's end and its SACK slot at 503.76 ns.
TEST(uet_pdc_lifecycle, a_flows_pdc_closes_with_close_cmd_and_its_ack)
{
    close_bench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 1u);
    const std::vector<seen> cmds = b.of(b.at_b, packet_kind::uet_control, pds_ctl::close_command);
    ASSERT_EQ(cmds.size(), 1u);
    EXPECT_EQ(cmds[0].at_ps, 499'760u);
    EXPECT_EQ(cmds[0].wire_bytes, 62u);
    EXPECT_EQ(cmds[0].pds.psn, data[0].pds.psn + 1);
    EXPECT_TRUE(cmds[0].pds.ack_request);
    EXPECT_FALSE(cmds[0].pds.retransmit);
    EXPECT_EQ(cmds[0].pds.spdcid, 1u);
    EXPECT_EQ(cmds[0].pds.dpdcid, 32769u);  // B's end, learned from the data ACK

    const std::vector<seen> acks = b.close_acks(cmds[0].pds.psn);
    ASSERT_EQ(acks.size(), 1u);
    EXPECT_EQ(acks[0].at_ps, 605'640u);
    EXPECT_EQ(acks[0].wire_bytes, 78u);

    const auto a_term = b.events.of(k_fep_a, uet_event::type::pdc_terminated);
    ASSERT_EQ(a_term.size(), 1u);
    EXPECT_EQ(a_term[0].sim_time_ps, 609'640u);
    const auto a_cmd = b.events.of(k_fep_a, uet_event::type::close_cmd_sent);
    ASSERT_EQ(a_cmd.size(), 1u);
    EXPECT_EQ(a_cmd[0].sim_time_ps, 397'280u);
    const auto b_rcvd = b.events.of(k_fep_b, uet_event::type::close_cmd_rcvd);
    ASSERT_EQ(b_rcvd.size(), 1u);
    EXPECT_EQ(b_rcvd[0].sim_time_ps, 503'760u);
    const auto b_term = b.events.of(k_fep_b, uet_event::type::pdc_terminated);
    ASSERT_EQ(b_term.size(), 1u);
    EXPECT_EQ(b_term[0].local_pdc, 32769u);
    EXPECT_EQ(b_term[0].remote_pdc, 1u);

    EXPECT_EQ(b.n.b.open_rx_pdcs(), 0u);
    EXPECT_EQ(b.n.a.counters().pdcs_closed, 1u);
    EXPECT_EQ(b.n.b.counters().rx_pdcs_closed, 1u);
    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(b.n.dma_a.completed[1][0], 397'280u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 4096));
}

// The ACK of CLOSE_CMD lost: A sends the command again, flagged a retransmission, one
// InitialRetransmitTimeout (150 us) after it queued the first, at 150,397.28 ns; on the idle wire
// it reaches B at 150,498.52 ns. B has freed its end already and acknowledges again (parsed at
// 150,502.52, 78 B): the ACK is at A at 150,604.08 ns and the PDC id free at 150,608.08 ns.
// B frees its end once and writes PDC_TERMINATED once; each command draws a CLOSE_CMD_RCVD.
TEST(uet_pdc_lifecycle, a_lost_close_ack_retransmits_close_cmd_after_the_timeout)
{
    close_bench b;
    auto dropped = std::make_shared<int>(0);
    b.n.to_a.drop = [&b, dropped](const packet& p) {
        if (p.kind != packet_kind::uet_ack || *dropped) return false;
        const auto cmds = close_bench::of(b.at_b, packet_kind::uet_control, pds_ctl::close_command);
        if (cmds.empty() || p.pds.ack_psn != cmds[0].pds.psn) return false;
        ++*dropped;
        return true;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(*dropped, 1);
    const std::vector<seen> cmds = b.of(b.at_b, packet_kind::uet_control, pds_ctl::close_command);
    ASSERT_EQ(cmds.size(), 2u);
    EXPECT_EQ(cmds[1].at_ps, 150'498'520u);
    EXPECT_TRUE(cmds[1].pds.retransmit);
    EXPECT_EQ(cmds[1].pds.psn, cmds[0].pds.psn);
    const std::vector<seen> acks = b.close_acks(cmds[0].pds.psn);
    ASSERT_EQ(acks.size(), 1u);  // the first was lost
    EXPECT_EQ(acks[0].at_ps, 150'604'080u);
    EXPECT_TRUE(acks[0].pds.retransmit);

    const auto a_term = b.events.of(k_fep_a, uet_event::type::pdc_terminated);
    ASSERT_EQ(a_term.size(), 1u);
    EXPECT_EQ(a_term[0].sim_time_ps, 150'608'080u);
    EXPECT_EQ(b.events.of(k_fep_a, uet_event::type::close_cmd_sent).size(), 2u);
    EXPECT_EQ(b.events.of(k_fep_b, uet_event::type::close_cmd_rcvd).size(), 2u);
    EXPECT_EQ(b.events.of(k_fep_b, uet_event::type::pdc_terminated).size(), 1u);
    EXPECT_EQ(b.n.b.counters().rx_pdcs_closed, 1u);
    EXPECT_EQ(b.n.a.counters().close_cmd_pkts_sent, 2u);
}

// A queue pair's PDC stays open between messages and closes after 10 us idle: its message
// completes at 397.28 ns, CLOSE_CMD goes at 10,397.28 ns (the probe went at 397.28) and reaches
// B at 10,498.52 ns. The queue pair's next message, posted at 20 us, opens a new PDC: its first
// frame carries SYN information (B made a new end), where the first PDC's second message, posted
// at 5 us before the idle time ran out, carried none and restarted the idle time.
TEST(uet_pdc_lifecycle, an_idle_queue_pair_pdc_closes_and_the_next_message_opens_a_new_one)
{
    close_bench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 4096, 0, 7);
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_US));
    b.n.a.post_message(2, 1, k_ip_b, 4096, 0, 7);
    // Message 2 started at 5 us: the same path as message 1 moved by 5 us, complete at
    // 5,397.28 ns; idle until 15,397.28 ns, CLOSE_CMD at B 15,498.52 ns. At 15 us the first
    // message's idle time (to 10,397.28 ns) has run out, but no command has gone.
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    EXPECT_TRUE(b.of(b.at_b, packet_kind::uet_control, pds_ctl::close_command).empty())
        << "the second message restarted the idle time";
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_US));
    b.n.a.post_message(3, 1, k_ip_b, 4096, 0, 7);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));

    const std::vector<seen> cmds = b.of(b.at_b, packet_kind::uet_control, pds_ctl::close_command);
    ASSERT_GE(cmds.size(), 1u);
    EXPECT_EQ(cmds[0].at_ps, 15'498'520u);
    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 3u);
    EXPECT_TRUE(data[0].pds.syn);
    EXPECT_FALSE(data[1].pds.syn);  // the PDC's second message
    EXPECT_TRUE(data[2].pds.syn);   // a new PDC
    EXPECT_NE(data[2].pds.first_psn, data[0].pds.first_psn);
    EXPECT_EQ(b.events.of(k_fep_a, uet_event::type::pdc_created).size(), 2u);
    EXPECT_EQ(b.events.of(k_fep_b, uet_event::type::pdc_created).size(), 2u);
    for (uint64_t m : {1, 2, 3}) {
        ASSERT_EQ(b.n.dma_a.completed[m].size(), 1u) << m;
        EXPECT_TRUE(b.n.dma_b.written_once(0, m, 4096)) << m;
    }
}

// NO_PDC_AVAIL: B has one SACK context (one receiving end). Two Flows messages of 4,096 B leave A
// back to back: PDC 1's frame 20 to 104.04 ns, PDC 2's 104.04 to 188.08 ns. PDC 1's frame takes
// B's one end (parsed at 208.04); PDC 2's, parsed at 292.08 ns, finds none: B NACKs it
// NO_PDC_AVAIL (62 B, behind the ACK of PDC 1 on B's wire until 293.28: 293.28 to 294.52, at A at
// 394.52 ns) and asks A to close PDC 1's idle end (CLOSE_REQ, 62 B, behind the NACK: 294.52 to
// 295.76, at A at 395.76 ns; PDC 1 is closing by then, so it changes nothing). The NACK leaves
// the packet in
// flight: its retransmission timer (150 us after its serialization ended at 188.08 ns) sends it
// again, EntropyLookup and HeaderBuild later (5 ns): 150,193.08 to 150,277.12 ns, at B at
// 150,377.12 ns, when PDC 1's CLOSE_CMD has long freed the end. Both
// messages are written once.
TEST(uet_pdc_lifecycle, a_target_without_a_free_end_nacks_no_pdc_avail_and_the_timer_retries)
{
    close_bench b(1);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    b.n.a.post_message(2, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    const std::vector<seen> nacks = b.of(b.at_a, packet_kind::uet_nack);
    ASSERT_EQ(nacks.size(), 1u);
    EXPECT_EQ(nacks[0].at_ps, 394'520u);
    EXPECT_EQ(nacks[0].pds.nack_code, nack::no_pdc_avail);
    EXPECT_EQ(nacks[0].wire_bytes, 62u);
    EXPECT_EQ(nacks[0].pds.dpdcid, 2u);
    const std::vector<seen> reqs = b.of(b.at_a, packet_kind::uet_control, pds_ctl::close_request);
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].at_ps, 395'760u);
    EXPECT_EQ(reqs[0].pds.dpdcid, 1u);
    EXPECT_EQ(reqs[0].wire_bytes, 62u);

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 3u);
    EXPECT_EQ(data[2].pds.spdcid, 2u);
    EXPECT_TRUE(data[2].pds.retransmit);
    EXPECT_TRUE(data[2].pds.syn);
    EXPECT_EQ(data[2].at_ps, 150'377'120u);

    EXPECT_EQ(b.events.of(k_fep_b, uet_event::type::nack_no_pdc_avail_sent).size(), 1u);
    EXPECT_EQ(b.events.of(k_fep_a, uet_event::type::nack_no_pdc_avail_rcvd).size(), 1u);
    EXPECT_EQ(b.events.of(k_fep_b, uet_event::type::close_req_sent).size(), 1u);
    EXPECT_EQ(b.events.of(k_fep_a, uet_event::type::close_req_rcvd).size(), 1u);
    for (uint64_t m : {1, 2}) {
        ASSERT_EQ(b.n.dma_a.completed[m].size(), 1u) << m;
        EXPECT_TRUE(b.n.dma_b.written_once(0, m, 4096)) << m;
    }
    EXPECT_EQ(b.n.a.counters().pdcs_closed, 2u);
}

// INV_DPDCID: a data frame without SYN information for an end B does not have. The bench clears
// the SYN flag of the first copy of the message's frame on its way (as a late copy of a closed
// PDC's frame would arrive): B, parsing it at 208.04 ns, NACKs it INV_DPDCID at once (62 B, 208.04
// to 209.28, at A at 309.28 ns) and makes no end. A leaves the frame to its timer; the copy it
// sends again carries SYN and completes the message.
TEST(uet_pdc_lifecycle, a_frame_for_an_end_the_target_lacks_draws_inv_dpdcid)
{
    close_bench b;
    auto edited = std::make_shared<int>(0);
    b.n.to_b.edit = [&b, edited](packet& p) {
        if (p.kind == packet_kind::uet_data && (*edited)++ == 0) p.pds.syn = false;
        b.at_b.push_back(frame_recorder::capture(p));
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    const std::vector<seen> nacks = b.of(b.at_a, packet_kind::uet_nack);
    ASSERT_EQ(nacks.size(), 1u);
    EXPECT_EQ(nacks[0].at_ps, 309'280u);
    EXPECT_EQ(nacks[0].pds.nack_code, nack::inv_dpdcid);
    EXPECT_EQ(nacks[0].wire_bytes, 62u);
    EXPECT_EQ(b.events.of(k_fep_b, uet_event::type::nack_inv_dpdcid_sent).size(), 1u);
    EXPECT_EQ(b.events.of(k_fep_a, uet_event::type::nack_inv_dpdcid_rcvd).size(), 1u);
    EXPECT_EQ(b.events.of(k_fep_b, uet_event::type::pdc_created).size(), 1u);  // by the retry
    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 4096));
}

// Close off (the default): no control packet besides the probe, a receiving end stays after its
// message, and a target out of ends stops the run naming UetNic.SackContexts, as before.
TEST(uet_pdc_lifecycle, with_the_timeout_at_zero_nothing_closes_by_handshake)
{
    uet_nic_config c;
    c.sack_contexts = 1;
    nic_pair n(pair_params(), pair_params(c));
    std::vector<packet_kind> kinds;
    n.to_b.edit = [&kinds](packet& p) { kinds.push_back(p.kind); };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    for (packet_kind k : kinds) EXPECT_NE(k, packet_kind::uet_control);
    EXPECT_EQ(n.b.open_rx_pdcs(), 1u);  // the end stays
    // Two PDCs at once: the second needs a second end.
    n.a.post_message(2, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    n.a.post_message(3, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_report_handler::set_handler(
        [](const sc_core::sc_report& r, const sc_core::sc_actions&) { throw r; });
    std::string message;
    try {
        sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    } catch (const sc_core::sc_report& r) {
        message = r.get_msg();
    }
    EXPECT_NE(message.find("UetNic.SackContexts 1 is too small"), std::string::npos) << message;
    EXPECT_EQ(n.b.counters().nack_pkts_sent, 0u);
}
