// Jobs on the two-NIC bench (tests/support/uet_nic_pair.h): NIC B serves job 5 only
// (UetNic.JobTable [5]). NIC A sends two one-packet messages (4,096 B): message 1 of job 9, then
// message 2 of job 5. Each request carries its job in the SES header (seen on the wire). B drops
// the job-9 packet before any PDC state and counts it: no ACK, nothing written, message 1 never
// completes; its retransmissions are dropped and counted too, one per retransmission A makes.
// Message 2 is placed once and completes. With B's table open (the default) job 9 is served.
// RUDI and UUD requests are checked the same way.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include <systemc>

#include "tests/support/uet_nic_pair.h"
#include "tlm/delivery_mode.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

uet_nic_params serving(std::vector<double> jobs)
{
    uet_nic_config c;
    c.job_table = std::move(jobs);
    return pair_params(c);
}

}  // namespace

TEST(uet_jobs, a_request_for_a_job_the_nic_does_not_serve_is_dropped_and_counted)
{
    nic_pair n(pair_params(), serving({5}));
    std::map<uint64_t, std::vector<uint32_t>> jobs_seen;  // message -> JobIDs of its packets at B
    n.to_b.edit = [&](packet& p) {
        if (p.kind == packet_kind::uet_data) jobs_seen[p.ses.message_id].push_back(p.ses.job_id);
    };
    n.a.set_next_job(9);
    n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    n.a.set_next_job(5);
    n.a.post_message(2, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    // Before A's first retransmission timeout (150 us).
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    EXPECT_EQ(jobs_seen[1], std::vector<uint32_t>{9});
    EXPECT_EQ(jobs_seen[2], std::vector<uint32_t>{5});
    EXPECT_EQ(n.b.unknown_job_drops(), 1u);
    EXPECT_EQ(n.b.counters().write_pkts_rcvd, 2u);  // received, then dropped
    EXPECT_EQ(n.b.counters().nack_pkts_sent, 0u);   // dropped silently
    EXPECT_EQ(n.b.open_rx_pdcs(), 1u);              // no PDC for the dropped request
    EXPECT_TRUE(n.dma_b.written_once(0, 2, 4096));
    EXPECT_EQ(n.dma_b.writes.count({0, 1}), 0u);
    EXPECT_EQ(n.dma_a.completed.count(1), 0u);
    EXPECT_EQ(n.dma_a.completed.count(2), 1u);
    EXPECT_EQ(n.a.counters().num_rtx, 0u);

    // Later: A retransmits message 1 on its timeouts; B drops each copy.
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    EXPECT_GE(n.a.counters().num_rtx, 2u);
    EXPECT_EQ(n.b.unknown_job_drops(), 1 + n.a.counters().num_rtx);
    EXPECT_EQ(n.dma_a.completed.count(1), 0u);
    EXPECT_EQ(n.dma_b.writes.count({0, 1}), 0u);
}

TEST(uet_jobs, an_open_job_table_serves_every_job)
{
    nic_pair n;
    n.a.set_next_job(9);
    n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    EXPECT_TRUE(n.b.jobs().open());
    EXPECT_EQ(n.b.unknown_job_drops(), 0u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 4096));
    EXPECT_EQ(n.dma_a.completed.count(1), 1u);
}

// RUDI requests carry the job too and are checked before the target's PDC-less placement: B
// (serving job 5) drops the job-9 request without a RUDI_RESP, so A's per-packet timer sends it
// again, and each copy is dropped; the job-5 RUDI message beside it is answered and placed once.
TEST(uet_jobs, a_rudi_request_for_an_unserved_job_is_dropped_without_a_response)
{
    nic_pair n(pair_params(), serving({5}));
    std::map<uint64_t, std::vector<uint32_t>> jobs_seen;
    std::map<uint64_t, int> responses;  // message -> RUDI_RESPs at A
    n.to_b.edit = [&](packet& p) {
        if (p.kind == packet_kind::uet_data) jobs_seen[p.ses.message_id].push_back(p.ses.job_id);
    };
    n.to_a.edit = [&](packet& p) {
        if (p.pds.type == pds_type::rudi_response) ++responses[p.ses.message_id];
    };
    n.a.set_next_job(9);
    n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair, delivery_mode::rudi);
    n.a.set_next_job(5);
    n.a.post_message(2, 1, k_ip_b, 4096, 0, k_no_queue_pair, delivery_mode::rudi);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    ASSERT_FALSE(jobs_seen[1].empty());
    EXPECT_EQ(jobs_seen[1][0], 9u);
    EXPECT_EQ(jobs_seen[2], std::vector<uint32_t>{5});
    EXPECT_EQ(n.b.unknown_job_drops(), 1u);
    EXPECT_EQ(responses[1], 0);
    EXPECT_EQ(responses[2], 1);
    EXPECT_TRUE(n.dma_b.written_once(0, 2, 4096));
    EXPECT_EQ(n.dma_b.writes.count({0, 1}), 0u);
    EXPECT_EQ(n.dma_a.completed.count(1), 0u);
    EXPECT_EQ(n.dma_a.completed.count(2), 1u);

    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    EXPECT_GE(n.a.counters().num_rtx, 2u);
    EXPECT_EQ(n.b.unknown_job_drops(), 1 + n.a.counters().num_rtx);
    EXPECT_EQ(responses[1], 0);
    EXPECT_EQ(n.dma_a.completed.count(1), 0u);
    EXPECT_EQ(n.dma_b.writes.count({0, 1}), 0u);
}

// UUD: the initiator completes at send and never repeats, so an unserved job's request is
// dropped and counted once; nothing is written (at system level the message is an unreliable
// loss, reported).
TEST(uet_jobs, a_uud_request_for_an_unserved_job_is_dropped_once)
{
    nic_pair n(pair_params(), serving({5}));
    n.a.set_next_job(9);
    n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair, delivery_mode::uud);
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    EXPECT_EQ(n.b.unknown_job_drops(), 1u);
    EXPECT_EQ(n.dma_a.completed.count(1), 1u);  // at send
    EXPECT_EQ(n.a.counters().num_rtx, 0u);
    EXPECT_EQ(n.dma_b.writes.count({0, 1}), 0u);
}
