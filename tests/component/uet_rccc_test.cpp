// RCCC on the two-NIC bench (400 Gb/s, 100 ns propagation, NIC clock 1 GHz, stub host DMA whose
// fetch takes no time): NIC A sends with RcccEnabled, NIC B grants credit with its pull pacer.
// Times and bytes derived by hand; both hooks record each frame as it arrives.
//
// CREDIT_REQ -> CREDIT (RcccInitialCredit 0, one message of 4,096 B):
//   the frame is 4,096 + 106 = 4,202 B; the target is ceil(4,202 / 256) = 17 quanta.
//   t = 15 ns: the doorbell wakes the scheduler; no credit: the CREDIT_REQ (62 B, 1.24 ns)
//   goes; it reaches B at 15 + 1.24 + 100 = 116.24 ns, is parsed at 120.24 (RxParse 4 cycles);
//   the idle pacer pulls at once: CREDIT of 17 quanta, at A at 120.24 + 1.24 + 100 = 221.48 ns,
//   parsed at 225.48; the data packet passes EntropyLookup 1 and HeaderBuild 4 cycles: on the wire
//   at 230.48, at B at 230.48 + 84.04 + 100 = 414.52 ns. Its ACK (parsed at 418.52, held for
//   4,184 B x 8 / 400 Gb/s = 83.68 ns, 78 B = 1.56 ns) reaches A at 603.76, parsed at 607.76 ns:
//   the message completes then. The ACK is ACK_CC cc_type 1 with the credit, 17.
//
// Grant and spending (RcccInitialCredit 16,384 B, one message of 65,536 B = 16 frames):
//   the demand is 65,536 + 16 x 106 = 67,232 B; the 16,384 B of initial credit send 4 frames
//   (16,384 - 3 x 4,202 > 0, then -424). The target each frame carries is the credit granted so
//   far plus ceil((demand - balance) / 256), and demand - balance + granted x 256 stays
//   67,232 - 16,384 = 50,848 B: every frame asks for 199 quanta (198.6 rounded up). B pulls 64,
//   64, 64 and 7 quanta, 327.68 ns apart (16,384 B at 400 Gb/s); A ends with 16,384 + 199 x 256
//   - 67,232 = 96 B of credit.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

using seen = seen_frame;

uet_nic_params rccc_sender(uint64_t initial_credit)
{
    uet_nic_config c;
    c.rccc.enabled = true;
    c.rccc.initial_credit_bytes = initial_credit;
    return pair_params(c);
}

struct rccc_bench : frame_recorder
{
    nic_pair n;
    explicit rccc_bench(uint64_t initial_credit) : n(rccc_sender(initial_credit), pair_params())
    {
        record(n);
    }
};

}  // namespace

TEST(uet_rccc, a_sender_without_credit_asks_and_sends_on_the_credit_it_is_granted)
{
    rccc_bench b(0);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));

    const std::vector<seen> req = b.of(b.at_b, packet_kind::uet_control);
    ASSERT_EQ(req.size(), 1u);
    EXPECT_EQ(req[0].at_ps, 116'240u);
    EXPECT_EQ(req[0].pds.ctl_type, pds_ctl::credit_request);
    EXPECT_EQ(req[0].pds.credit_target, 17u);

    const std::vector<seen> credit = b.of(b.at_a, packet_kind::uet_control);
    ASSERT_EQ(credit.size(), 1u);
    EXPECT_EQ(credit[0].at_ps, 221'480u);
    EXPECT_EQ(credit[0].pds.ctl_type, pds_ctl::credit);
    EXPECT_EQ(credit[0].pds.credit, 17u);

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 1u);
    EXPECT_EQ(data[0].at_ps, 414'520u);
    EXPECT_EQ(data[0].pds.cc_type, pds_cc::credit);
    EXPECT_EQ(data[0].pds.credit_target, 17u);  // 150 B left, nothing waiting: no more

    const std::vector<seen> acks = b.of(b.at_a, packet_kind::uet_ack);
    ASSERT_EQ(acks.size(), 1u);
    EXPECT_EQ(acks[0].pds.cc_type, pds_cc::credit);
    EXPECT_EQ(acks[0].pds.credit, 17u);
    EXPECT_EQ(acks[0].pds.service_time, 0u);  // not in the credit cc_state

    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(b.n.dma_a.completed[1][0], 607'760u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 4096));
    EXPECT_EQ(b.n.a.credit_to(1)->balance_bytes(), 17 * 256 - 4202);
    EXPECT_EQ(b.n.a.counters().credit_req_pkts_sent, 1u);
    EXPECT_EQ(b.n.b.counters().credit_req_pkts_rcvd, 1u);
    EXPECT_EQ(b.n.b.counters().credit_pkts_sent, 1u);
    EXPECT_EQ(b.n.a.counters().credit_acks_rcvd, 1u);
}

TEST(uet_rccc, the_pull_pacer_grants_what_the_target_asks_and_the_sender_spends_it)
{
    rccc_bench b(16384);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.n.a.post_message(1, 1, k_ip_b, 65536, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));

    ASSERT_EQ(b.n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(b.n.dma_b.written_once(0, 1, 65536));

    const std::vector<seen> data = b.of(b.at_b, packet_kind::uet_data);
    ASSERT_EQ(data.size(), 16u);
    for (const seen& s : data) EXPECT_EQ(s.pds.credit_target, 199u);

    const std::vector<seen> credit = b.of(b.at_a, packet_kind::uet_control);
    ASSERT_EQ(credit.size(), 4u);
    const uint32_t cumulative[4] = {64, 128, 192, 199};
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(credit[i].pds.credit, cumulative[i]) << i;
    // The first pull follows the first frame's arrival: 20 + 84.04 + 100 ns, parsed 4 ns later;
    // each CREDIT then takes 1.24 + 100 ns. The next pulls are 327.68 ns apart.
    const uint64_t first_pull = 20'000 + 84'040 + 100'000 + 4'000;
    for (size_t i = 0; i < 4; ++i)
        EXPECT_EQ(credit[i].at_ps, first_pull + i * 327'680 + 101'240) << i;

    ASSERT_NE(b.n.b.pull_pacer(), nullptr);
    EXPECT_EQ(b.n.b.pull_pacer()->pulls(), 4u);
    EXPECT_EQ(b.n.b.pull_pacer()->granted_quanta(), 199u);
    EXPECT_EQ(b.n.a.credit_to(1)->balance_bytes(), 96);
    EXPECT_EQ(b.n.a.credit_to(1)->demand_bytes(), 0u);
    EXPECT_EQ(b.n.a.counters().credit_req_pkts_sent, 0u);  // never without credit and unasked
}

TEST(uet_rccc, with_rccc_off_no_frame_carries_credit)
{
    nic_pair n;
    std::vector<seen> at_a;
    n.to_a.edit = [&](packet& p) { at_a.push_back(frame_recorder::capture(p)); };
    uint64_t credit_data = 0;
    n.to_b.edit = [&](packet& p) { credit_data += p.pds.cc_type; };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 65536, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_EQ(credit_data, 0u);
    for (const seen& s : at_a) {
        EXPECT_NE(s.kind, packet_kind::uet_control);
        EXPECT_EQ(s.pds.cc_type, pds_cc::nscc);
    }
    EXPECT_EQ(n.b.pull_pacer(), nullptr);
}
