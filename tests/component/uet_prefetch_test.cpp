// The UET NIC's prefetch buffer on the two-NIC bench (400 Gb/s, 100 ns, stubbed host side whose
// payload reads take 2 us): with PrefetchBufferEnable false the egress pool is reserved when a
// fetch is issued, so before any payload is back the data pool holds 54 packets of 4,202 B
// (226,908 B of 230,400); with it true the payloads are fetched ahead into the prefetch buffer,
// 62 packets (260,524 B of the default 262,144 B), and the egress pool holds nothing until a
// payload is committed to the wire. Every message completes with every byte written once, the
// first transmissions leave in PSN order, trimmed packets are retransmitted, PDCs share the
// buffer, and a buffer of one packet still carries a message.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

const uint32_t k_full_wire = 4'202;
const uint64_t k_fetch_ps = 2'000'000;  // the stub's host memory read: 2 us

uet_nic_config prefetch_on(uint64_t size = 262'144)
{
    uet_nic_config c;
    c.prefetch_buffer_enable = true;
    c.prefetch_buffer_size = size;
    return c;
}

void run_for(double us)
{
    sc_core::sc_start(sc_core::sc_time(us, sc_core::SC_US));
}

}  // namespace

TEST(uet_prefetch, off_the_egress_pool_is_reserved_at_fetch_issue)
{
    nic_pair n;
    n.dma_a.fetch_latency_ps = k_fetch_ps;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    run_for(1);  // no payload is back yet
    EXPECT_EQ(n.a.prefetch(), nullptr);
    EXPECT_EQ(n.a.port.data_reserved(), 54u * k_full_wire);  // 226,908 B: the 55th does not fit
    EXPECT_EQ(n.a.counters().write_pkts_sent, 54u);
    EXPECT_EQ(n.dma_a.fetched_bytes, 54u * 4096);
    run_for(999);
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));
}

TEST(uet_prefetch, on_payloads_are_fetched_ahead_and_the_egress_pool_is_reserved_at_commit)
{
    nic_pair n(pair_params(prefetch_on()), pair_params());
    n.dma_a.fetch_latency_ps = k_fetch_ps;
    n.a.port.keep_buffer_stats();
    std::vector<uint32_t> psns;  // first transmissions in wire order
    n.wire.add_tap([&](const packet& p, uetsim::link::direction d, const sc_core::sc_time&) {
        if (d == uetsim::link::a_to_b && p.kind == packet_kind::uet_data && !p.pds.retransmit)
            psns.push_back(p.pds.psn);
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 4 << 20, 0, k_no_queue_pair);
    run_for(1);
    const prefetch_buffer* pb = n.a.prefetch();
    ASSERT_NE(pb, nullptr);
    EXPECT_EQ(pb->size(), 262'144u);
    // 62 fetches in flight fill the buffer (62 x 4,202 = 260,524 B); nothing is committed, so
    // nothing is in the egress pool or counted as sent.
    EXPECT_EQ(pb->occupancy(), 62u * k_full_wire);
    EXPECT_EQ(pb->fetches_issued(), 62u);
    EXPECT_EQ(n.dma_a.fetched_bytes, 62u * 4096);
    EXPECT_EQ(n.a.port.data_reserved(), 0u);
    EXPECT_EQ(n.a.counters().write_pkts_sent, 0u);

    run_for(2);  // 3 us: the payloads are in and committed as the egress pool allows
    EXPECT_GT(n.a.counters().write_pkts_sent, 0u);
    EXPECT_GT(n.a.port.data_reserved(), 0u);
    EXPECT_LE(n.a.port.data_reserved(), 230'400u);

    run_for(4997);
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 4 << 20));
    EXPECT_EQ(n.a.counters().wqes_completed, 1u);
    EXPECT_EQ(pb->occupancy(), 0u);
    EXPECT_EQ(pb->fetches_issued(), 1024u);  // 4 MiB / 4,096: each segment fetched once
    EXPECT_EQ(pb->commits(), 1024u);
    EXPECT_EQ(pb->max_occupancy(), 62u * k_full_wire);  // never above PrefetchBufferSize
    // The egress data pool, reserved at commit, never held more than its 230,400 B.
    const nic_pool_sample tx0 = n.a.port.tx_sample(0);
    EXPECT_LE(tx0.max_occupancy, 230'400u);
    EXPECT_GT(tx0.max_occupancy, 0u);
    EXPECT_EQ(tx0.enq, 1024u);
    EXPECT_EQ(tx0.deq, 1024u);
    EXPECT_EQ(tx0.occupancy, 0u);
    // First transmissions leave in PSN order.
    ASSERT_EQ(psns.size(), 1024u);
    for (size_t i = 1; i < psns.size(); ++i) EXPECT_EQ(psns[i], psns[i - 1] + 1) << i;
}

TEST(uet_prefetch, a_trimmed_packet_is_retransmitted_ahead_of_fetched_payloads)
{
    nic_pair n(pair_params(prefetch_on()), pair_params());
    n.dma_a.fetch_latency_ps = k_fetch_ps;
    uint32_t seen = 0;
    n.to_b.edit = [&](packet& p) {
        if (p.kind != packet_kind::uet_data || p.pds.retransmit) return;
        if (++seen % 50 == 0) p.trim(false);
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 2 << 20, 0, k_no_queue_pair);
    run_for(5000);
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 2 << 20));
    EXPECT_EQ(n.a.counters().num_rtx, 10u);  // packets 50, 100, ..., 500 of 512
    EXPECT_EQ(n.a.counters().nack_pkts_rcvd, 10u);
    EXPECT_EQ(n.dma_a.fetched_bytes, uint64_t(2) << 20);  // a retransmission fetches nothing
    EXPECT_EQ(n.a.prefetch()->occupancy(), 0u);
}

TEST(uet_prefetch, pdcs_of_several_groups_share_one_buffer)
{
    // Four messages without PDC groups: four windows, one prefetch buffer of 20 packets.
    uet_nic_config c = prefetch_on(20 * k_full_wire);
    c.pdc_groups_enabled = false;
    nic_pair n(pair_params(c), pair_params());
    n.dma_a.fetch_latency_ps = k_fetch_ps;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (uint64_t m = 1; m <= 4; ++m) n.a.post_message(m, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    run_for(1);
    EXPECT_EQ(n.a.prefetch()->occupancy(), 20u * k_full_wire);  // full, shared
    EXPECT_EQ(n.a.port.data_reserved(), 0u);
    run_for(9999);
    for (uint64_t m = 1; m <= 4; ++m) {
        ASSERT_EQ(n.dma_a.completed[m].size(), 1u) << m;
        EXPECT_TRUE(n.dma_b.written_once(0, m, 1 << 20)) << m;
    }
    EXPECT_EQ(n.a.prefetch()->max_occupancy(), 20u * k_full_wire);
    EXPECT_EQ(n.a.prefetch()->occupancy(), 0u);
}

TEST(uet_prefetch, a_buffer_of_one_packet_still_carries_the_message)
{
    nic_pair n(pair_params(prefetch_on(prefetch_buffer::min_size_bytes)), pair_params());
    n.dma_a.fetch_latency_ps = 100'000;  // 100 ns
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 256 << 10, 0, k_no_queue_pair);
    run_for(1000);
    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 256 << 10));
    EXPECT_EQ(n.a.prefetch()->max_occupancy(), uint64_t(k_full_wire));
}

TEST(uet_prefetch, a_buffer_smaller_than_one_data_packet_stops_the_nic)
{
    uet_nic_config c = prefetch_on(5'000);
    c.rdma_data_mss = 8192;  // a data packet of 8,298 B on the wire
    EXPECT_THROW(nic_pair n(pair_params(c), pair_params()), std::invalid_argument);
}
