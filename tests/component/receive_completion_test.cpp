// Receive completions on the two-NIC bench: NIC A (stubbed host DMA) sends one message to NIC B,
// whose host side is the real one: the host interface, the PCIe link (R-tile credits) and host
// memory. With receive completions on, B writes one completion entry per message it has placed;
// the entry is a posted write issued right behind the message's last payload write on the
// NIC-to-host lanes, so it lands one entry's lane time after the last payload:
//
//   target completion = last payload landed + (CompletionSize + 34 B overhead) x 8 / 504.32 Gbps
//                      = last payload landed + (64 + 34) x 8 / 504.32e9 s = + 1,554.5 ps
//
// whatever the link's latency (both writes cross it once). Tolerance: the link rounds each
// crossing to the picosecond, 1 ps. Times are read from what lands in B's host memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "hw/host/host_memory.h"
#include "hw/host/host_mmio.h"
#include "hw/nic/common/host_commands.h"
#include "hw/nic/common/nic_host_interface.h"
#include "hw/nic/roce/roce_nic.h"
#include "hw/nic/uet/uet_nic.h"
#include "hw/pcie/pcie_link.h"
#include "tests/support/roce_nic_pair.h"
#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

constexpr double k_pcie_bps = 16 * 31.52e9;  // the default NIC-to-host rate, 504.32 Gbps

// B's host side: memory, the CPU's MMIO port, the PCIe link and the NIC's host interface. What
// lands in memory is recorded with its time.
struct target_host
{
    struct landing
    {
        pcie_purpose purpose;
        uint64_t at_ps;
        completion_entry entry;  // completion writes
    };

    host_memory memory{"b_memory"};
    host_mmio mmio{"b_cpu"};
    pcie_link pcie;
    nic_host_interface hif;
    std::vector<landing> landed;

    explicit target_host(const pcie_config& cfg)
        : pcie("b_pcie", cfg), hif("b_host_if", 1, cfg, [](uint32_t h) { return k_ip_a + h; })
    {
        pcie.nic_out.bind(hif.bar);
        hif.dma.bind(pcie.nic_in);
        mmio.out.bind(pcie.host_in);
        pcie.host_out.bind(memory.port);
        memory.observe_writes([this](const pcie_tag& tag, const unsigned char* data, uint32_t,
                                     const sc_core::sc_time& at) {
            landing l{tag.purpose, at.value(), {}};
            if (tag.purpose == pcie_purpose::completion_write)
                l.entry = load<completion_entry>(data);
            landed.push_back(l);
        });
    }

    uint64_t last_payload_ps() const
    {
        uint64_t t = 0;
        for (const landing& l : landed)
            if (l.purpose == pcie_purpose::data_write) t = std::max(t, l.at_ps);
        return t;
    }
    std::vector<landing> completions() const
    {
        std::vector<landing> c;
        for (const landing& l : landed)
            if (l.purpose == pcie_purpose::completion_write) c.push_back(l);
        return c;
    }
};

// The entry's lane time: CompletionSize plus one TLP's overhead at the NIC-to-host rate.
double entry_ps(const pcie_config& cfg)
{
    return double(cfg.completion_bytes + cfg.tlp_overhead) * 8 / k_pcie_bps * 1e12;
}

struct time_resolution
{
    time_resolution() { sc_core::sc_set_time_resolution(1, sc_core::SC_PS); }
};

// Two UET NICs back to back, B with its real host side.
struct uet_bench
{
    time_resolution resolution;
    packet_pool pool;
    stub_host_dma dma_a;
    target_host host_b;
    uetsim::link wire{"wire", k_pair_rate_bps, sc_core::sc_time(100, sc_core::SC_NS), pool};
    uet_nic a, b;

    explicit uet_bench(const pcie_config& cfg)
        : host_b(cfg)
        , a("nic_a", nic_context{0, k_node_a, k_ip_a, 18760, pool, dma_a}, pair_params())
        , b("nic_b", nic_context{1, k_node_b, k_ip_b, 18760, pool, host_b.hif}, pair_params())
    {
        host_b.hif.attach(&b);
        a.port.tx.out.bind(wire.from_a);
        wire.to_a.bind(a.port.in);
        b.port.tx.out.bind(wire.from_b);
        wire.to_b.bind(b.port.in);
    }
};

// Two RoCE NICs back to back, B with its real host side.
struct roce_bench
{
    time_resolution resolution;
    packet_pool pool;
    stub_host_dma dma_a;
    target_host host_b;
    uetsim::link wire{"wire", k_roce_rate_bps, sc_core::sc_time(100, sc_core::SC_NS), pool};
    roce_nic a, b;

    explicit roce_bench(const pcie_config& cfg)
        : host_b(cfg)
        , a("nic_a", nic_context{0, 10, k_roce_ip_a, 18760, pool, dma_a}, roce_nic_config{},
            k_roce_rate_bps)
        , b("nic_b", nic_context{1, 11, k_roce_ip_b, 18760, pool, host_b.hif}, roce_nic_config{},
            k_roce_rate_bps)
    {
        host_b.hif.attach(&b);
        a.port.tx.out.bind(wire.from_a);
        wire.to_a.bind(a.port.in);
        b.port.tx.out.bind(wire.from_b);
        wire.to_b.bind(b.port.in);
        const pfc_link l{k_roce_rate_bps, 100'000};
        a.port.set_link(l);
        b.port.set_link(l);
    }
};

constexpr uint64_t k_message = 7;
constexpr uint64_t k_bytes = 10 * 4096 + 1000;  // 11 packets, the last one short

template <class Bench>
void expect_one_completion_after_the_last_payload(Bench& n, const pcie_config& cfg)
{
    const std::vector<target_host::landing> c = n.host_b.completions();
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].entry.receive, 1);
    EXPECT_EQ(c[0].entry.src_host, 0u);
    EXPECT_EQ(c[0].entry.message, k_message);
    EXPECT_EQ(c[0].entry.bytes, k_bytes);
    EXPECT_TRUE(n.dma_a.completed.count(k_message));  // the sender's own completion too
    const double expected = double(n.host_b.last_payload_ps()) + entry_ps(cfg);
    EXPECT_NEAR(double(c[0].at_ps), expected, 1.0);
    EXPECT_EQ(n.host_b.hif.stats().receive_completions, 1u);
    EXPECT_EQ(n.host_b.pcie.stats(pcie_link::nic_side)
                  .transactions[size_t(pcie_purpose::completion_write)],
              1u);
}

}  // namespace

TEST(receive_completion, uet_target_completion_lands_one_entry_after_the_last_payload)
{
    pcie_config cfg;
    uet_bench n(cfg);
    n.host_b.hif.write_receive_completions(true);
    n.a.post_message(k_message, 1, k_ip_b, k_bytes, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    expect_one_completion_after_the_last_payload(n, cfg);
}

TEST(receive_completion, roce_target_completion_lands_one_entry_after_the_last_payload)
{
    pcie_config cfg;
    roce_bench n(cfg);
    n.host_b.hif.write_receive_completions(true);
    n.a.post_message(k_message, 1, k_roce_ip_b, k_bytes, 0, 3);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    expect_one_completion_after_the_last_payload(n, cfg);
}

TEST(receive_completion, a_pcie_latency_delays_payload_and_entry_alike)
{
    // 500 ns each way: the entry still lands one lane time after the last payload.
    pcie_config cfg;
    cfg.latency_s = 500e-9;
    uet_bench n(cfg);
    n.host_b.hif.write_receive_completions(true);
    n.a.post_message(k_message, 1, k_ip_b, k_bytes, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    expect_one_completion_after_the_last_payload(n, cfg);
}

TEST(receive_completion, each_message_of_a_queue_pair_gets_its_own_entry_in_order)
{
    // Three WQE messages on one queue pair share a kept-open PDC: one entry each, in order.
    pcie_config cfg;
    uet_bench n(cfg);
    n.host_b.hif.write_receive_completions(true);
    uint32_t posted = 1;
    n.dma_a.on_complete = [&](uint64_t) {
        if (posted < 3) {
            ++posted;
            n.a.post_message(wqe_message_id(5, posted), 1, k_ip_b, 3 * 4096, 0, 5);
        }
    };
    n.a.post_message(wqe_message_id(5, 1), 1, k_ip_b, 3 * 4096, 0, 5);
    sc_core::sc_start(sc_core::sc_time(200, sc_core::SC_US));
    const std::vector<target_host::landing> c = n.host_b.completions();
    ASSERT_EQ(c.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i) {
        EXPECT_EQ(c[i].entry.qp, 5u);
        EXPECT_EQ(c[i].entry.wqe_id, i + 1);
        EXPECT_EQ(c[i].entry.bytes, 3u * 4096);
    }
    EXPECT_LT(c[0].at_ps, c[1].at_ps);
    EXPECT_LT(c[1].at_ps, c[2].at_ps);
}

TEST(receive_completion, a_zero_byte_message_is_placed_by_its_one_packet)
{
    pcie_config cfg;
    uet_bench n(cfg);
    n.host_b.hif.write_receive_completions(true);
    n.a.post_message(k_message, 1, k_ip_b, 0, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    const std::vector<target_host::landing> c = n.host_b.completions();
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].entry.bytes, 0u);
    EXPECT_NEAR(double(c[0].at_ps), double(n.host_b.last_payload_ps()) + entry_ps(cfg), 1.0);
}

TEST(receive_completion, off_by_default_no_entry_is_written)
{
    pcie_config cfg;
    uet_bench n(cfg);
    n.a.post_message(k_message, 1, k_ip_b, k_bytes, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    EXPECT_TRUE(n.dma_a.completed.count(k_message));
    EXPECT_GT(n.host_b.last_payload_ps(), 0u);
    EXPECT_TRUE(n.host_b.completions().empty());
    EXPECT_EQ(n.host_b.hif.stats().receive_completions, 0u);
}
