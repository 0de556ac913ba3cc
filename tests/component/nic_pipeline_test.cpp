// The UET NIC's pipeline stages bound its packet rate: two NICs back to back on a 400 Gb/s link
// with stubbed host DMA (fetches take no time), one 4 MiB message of 4,096 packets of 1,024 B.
//
// Hand-derived bounds: a data frame is 1,024 + 106 = 1,130 B = 22.6 ns on the wire, so the wire
// alone takes 4,096 x 22.6 = 92,569.6 ns (44.2 M packets/s). A stage whose initiation interval
// is 40 cycles at 1 GHz takes a packet every 40 ns (25 M packets/s): 4,096 x 40 = 163,840 ns.
// The fixed part around either (first packet 20 ns, one round trip of about 300 ns, the last
// ACK) is under 0.5% of them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <systemc>

#include "hw/link/link.h"
#include "hw/nic/uet/uet_nic.h"
#include "hw/nic/uet/uet_nic_params.h"
#include "tests/support/stub_host_dma.h"
#include "tlm/packet_pool.h"

using namespace uetsim;
using uetsim::test::stub_host_dma;

namespace {

constexpr double k_rate_bps = 400e9;
constexpr uint32_t k_ip_a = 0x0a000001, k_ip_b = 0x0a000002;
constexpr uint64_t k_bytes = 4u << 20;
constexpr uint32_t k_packets = 4096;
constexpr double k_wire_ps = 4096 * 22'600.0;
constexpr double k_stage_ps = 4096 * 40'000.0;

struct time_resolution
{
    time_resolution()
    {
        static bool set = false;  // once per process, however many pairs a test builds
        if (!set) sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
        set = true;
    }
};

uet_nic_config base()
{
    uet_nic_config c;
    c.rdma_data_mss = 1024;
    return c;
}

uet_nic_params params(const uet_nic_config& c)
{
    return derive_uet_nic_params(c, nscc_config{}, entropy_config{}, k_rate_bps);
}

// Sender A (host 0) and receiver B (host 1), each with its own NIC configuration.
struct nic_pair
{
    time_resolution resolution;
    packet_pool pool;
    stub_host_dma dma_a, dma_b;
    uetsim::link wire;
    uet_nic a, b;

    // `prefix` names the modules when a test elaborates two pairs side by side.
    nic_pair(const uet_nic_config& ca, const uet_nic_config& cb, const std::string& prefix = "")
        : wire((prefix + "wire").c_str(), k_rate_bps, sc_core::sc_time(100, sc_core::SC_NS), pool)
        , a((prefix + "nic_a").c_str(), nic_context{0, 10, k_ip_a, 18760, pool, dma_a}, params(ca))
        , b((prefix + "nic_b").c_str(), nic_context{1, 11, k_ip_b, 18760, pool, dma_b}, params(cb))
    {
        a.port.tx.out.bind(wire.from_a);
        wire.to_a.bind(a.port.in);
        b.port.tx.out.bind(wire.from_b);
        wire.to_b.bind(b.port.in);
    }

    // Sends the message and returns its completion time (ps) at the sender.
    double run(double stop_ms = 5)
    {
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        post();
        sc_core::sc_start(sc_core::sc_time(stop_ms, sc_core::SC_MS));
        return finish();
    }
    void post() { a.post_message(1, 1, k_ip_b, k_bytes, 0, k_no_queue_pair); }
    double finish()
    {
        EXPECT_EQ(dma_a.completed[1].size(), 1u);
        EXPECT_TRUE(dma_b.written_once(0, 1, k_bytes));
        return dma_a.completed[1].empty() ? 0.0 : double(dma_a.completed[1][0]);
    }
};

double busy(const pipeline_stage& s, double elapsed_ps)
{
    return double(s.stats().busy_ps) / elapsed_ps;
}

}  // namespace

TEST(nic_pipeline, with_the_defaults_the_wire_binds)
{
    nic_pair n(base(), base());
    const double t = n.run();
    EXPECT_GE(t, k_wire_ps);
    EXPECT_LE(t, k_wire_ps * 1.01);
    EXPECT_EQ(n.a.counters().num_rtx, 0u);
}

TEST(nic_pipeline, a_receive_stage_interval_of_40_cycles_binds_at_25_million_packets_per_second)
{
    uet_nic_config rx = base();
    rx.sack_update.interval_cycles = 40;
    nic_pair n(base(), rx);
    const double t = n.run();
    EXPECT_GE(t, k_stage_ps);
    EXPECT_LE(t, k_stage_ps * 1.05);
    const pipeline_stage& bound = n.b.port.stage(rx_stage::sack_update);
    EXPECT_EQ(bound.stats().items, k_packets + 1);  // the data and the probe
    EXPECT_GT(busy(bound, t), 0.95);
    EXPECT_LT(busy(n.b.port.stage(rx_stage::rx_parse), t), 0.05);
    EXPECT_LT(busy(n.a.stage(tx_stage::scheduler), t), 0.1);  // 2 of every 40 ns
    EXPECT_EQ(n.b.port_stats().rx_drops, 0u);                 // unbounded FIFOs: nothing lost
    EXPECT_EQ(n.a.counters().num_rtx, 0u);
}

TEST(nic_pipeline, a_transmit_stage_interval_of_40_cycles_binds_at_25_million_packets_per_second)
{
    uet_nic_config tx = base();
    tx.header_build.interval_cycles = 40;
    nic_pair n(tx, base());
    const double t = n.run();
    EXPECT_GE(t, k_stage_ps);
    EXPECT_LE(t, k_stage_ps * 1.05);
    const pipeline_stage& bound = n.a.stage(tx_stage::header_build);
    EXPECT_EQ(bound.stats().items, k_packets);
    EXPECT_GT(busy(bound, t), 0.95);
    EXPECT_LT(busy(n.a.stage(tx_stage::scheduler), t), 0.1);
    EXPECT_LT(busy(n.a.stage(tx_stage::entropy_lookup), t), 0.05);
}

TEST(nic_pipeline, a_full_stage_fifo_stalls_upstream_and_loses_nothing)
{
    uet_nic_config tx = base();
    tx.header_build = {4, 40, 2};
    tx.entropy_lookup.queue_depth = 2;
    tx.payload_fetch.queue_depth = 2;
    nic_pair n(tx, base());
    const double t = n.run();
    EXPECT_GE(t, k_stage_ps);
    EXPECT_LE(t, k_stage_ps * 1.05);
    // The stall reaches back to the scheduler; every FIFO stayed within its depth.
    EXPECT_GT(n.a.stage(tx_stage::entropy_lookup).stats().stall_ps, 0u);
    EXPECT_GT(n.a.stage(tx_stage::payload_fetch).stats().stall_ps, 0u);
    EXPECT_GT(n.a.stage(tx_stage::scheduler).stats().stall_ps, 0u);
    EXPECT_LE(n.a.stage(tx_stage::header_build).stats().max_queue, 2u);
    EXPECT_LE(n.a.stage(tx_stage::entropy_lookup).stats().max_queue, 2u);
    EXPECT_LE(n.a.stage(tx_stage::payload_fetch).stats().max_queue, 2u);
    EXPECT_EQ(n.a.counters().write_pkts_sent, k_packets);
    EXPECT_EQ(n.a.counters().num_rtx, 0u);
}

TEST(nic_pipeline, only_the_mac_receive_fifo_drops_and_the_transport_recovers)
{
    uet_nic_config rx = base();
    rx.rx_parse = {4, 40, 16};  // 25 M packets/s behind a 16-frame MAC FIFO, fed at 44 M
    nic_pair n(base(), rx);
    n.run(100);
    EXPECT_GT(n.b.port_stats().rx_drops, 0u);
    EXPECT_GT(n.a.counters().num_rtx, 0u);
    EXPECT_LE(n.b.port.stage(rx_stage::rx_parse).stats().max_queue, 16u);
    EXPECT_EQ(n.b.port_stats().rx_drops + n.b.port.stage(rx_stage::rx_parse).stats().items,
              n.b.port_stats().rx_packets);
}

// Little's law: with a read round trip of 2 us and 8 read tags the fetch engine has 8 reads of
// 1,024 B in flight per 2 us, 4.096 GB/s: 4,096 reads take 512 x 2 us = 1,024 us.
TEST(nic_pipeline, read_tags_and_the_read_round_trip_bound_the_fetch_rate)
{
    uet_nic_config tx = base();
    tx.max_outstanding_reads = 8;
    nic_pair n(tx, base());
    n.dma_a.fetch_latency_ps = 2'000'000;
    const double t = n.run(10);
    EXPECT_GE(t, 1'024e6);
    EXPECT_LE(t, 1'024e6 * 1.05);
    EXPECT_EQ(n.a.read_tags().max_in_use(), 8u);
}

TEST(nic_pipeline, with_enough_read_tags_the_tags_no_longer_bind)
{
    // 256 x 1,024 B per 2 us is 1 Tb/s, above the wire: the run matches one without tag limit
    // (what binds then is the 2 us fetch inside the window and the egress pool, not the tags).
    uet_nic_config tx = base();
    tx.max_outstanding_reads = 256;
    nic_pair tagged(tx, base(), "tagged_");
    nic_pair free(base(), base(), "free_");
    tagged.dma_a.fetch_latency_ps = free.dma_a.fetch_latency_ps = 2'000'000;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    tagged.post();
    free.post();
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));
    const double t = tagged.finish(), unlimited = free.finish();
    EXPECT_NEAR(t, unlimited, unlimited * 0.001);
    EXPECT_LT(t, 1'024e6 / 4);  // far below the 8-tag bound
    EXPECT_GT(tagged.a.read_tags().max_in_use(), 8u);
    EXPECT_LT(tagged.a.read_tags().max_in_use(), 256u);
}
