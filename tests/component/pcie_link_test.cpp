// The PCIe link between a host and its NIC, elaborated alone: host memory on host_out, the host
// CPU's MMIO port on host_in, a recording NIC BAR on nic_out and a NIC-side DMA initiator on
// nic_in. Timings are checked against the spec's worked example ("PCIe host interface": 504.32
// Gbps per direction; 4,096 B = 8 transfers of 512 + 34 B = 4,368 B = 69.29 ns; a payload fetch
// = 64 + 34 B request, 1.55 ns, then the 4,368 B completion, about 70.8 ns).
//
// Tolerance: the link rounds each crossing to the nearest picosecond, so a time is compared with
// the exact value within 1 ps per crossing it includes (exact values in the comments).
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "hw/host/host_memory.h"
#include "hw/host/host_mmio.h"
#include "hw/pcie/pcie_link.h"

using namespace uetsim;

namespace {

constexpr double k_default_bps = 16 * 31.52e9;  // 504.32 Gbps, each direction

// Exact time, in ps, that `bytes` occupy lanes running at `bps`.
double exact_ps(double bytes, double bps)
{
    return bytes * 8 / bps * 1e12;
}

// The NIC's BAR: records each MMIO write that crosses the link and when it arrives.
struct nic_bar : sc_core::sc_module
{
    struct arrival
    {
        uint64_t address;
        uint32_t bytes;
        pcie_purpose purpose;
        uint64_t at_ps;
    };
    tlm_utils::simple_target_socket<nic_bar> socket;
    std::vector<arrival> arrivals;

    explicit nic_bar(const sc_core::sc_module_name& n) : sc_core::sc_module(n), socket("socket")
    {
        socket.register_b_transport(this, &nic_bar::b_transport);
    }

    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
    {
        const pcie_tag* tag = t.get_extension<pcie_tag>();
        arrivals.push_back({t.get_address(), t.get_data_length(),
                            tag ? tag->purpose : pcie_purpose::data_write,
                            (sc_core::sc_time_stamp() + delay).value()});
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// The NIC's DMA engine: one tagged transaction at a time into nic_in.
struct nic_dma : sc_core::sc_module
{
    tlm_utils::simple_initiator_socket<nic_dma> socket;

    explicit nic_dma(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), socket("socket"), m_tag(new pcie_tag), m_buffer(1 << 16)
    {
        m_txn.set_extension(m_tag);
        m_txn.set_byte_enable_ptr(nullptr);
        m_txn.set_streaming_width(0);
    }

    // Issues a transaction starting `delay` after now; returns when it completes (absolute ps).
    uint64_t transfer(tlm::tlm_command cmd, pcie_purpose purpose, uint32_t bytes,
                      sc_core::sc_time delay = sc_core::SC_ZERO_TIME, uint32_t src_host = 0,
                      uint64_t message = 0, uint64_t offset = 0)
    {
        m_tag->purpose = purpose;
        m_tag->src_host = src_host;
        m_tag->message = message;
        m_tag->offset = offset;
        m_txn.set_command(cmd);
        m_txn.set_address(0x10000);
        m_txn.set_data_ptr(m_buffer.data());
        m_txn.set_data_length(bytes);
        m_txn.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(m_txn, delay);
        EXPECT_TRUE(m_txn.is_response_ok()) << m_txn.get_response_string();
        return (sc_core::sc_time_stamp() + delay).value();
    }
    uint64_t write(uint32_t bytes, pcie_purpose p = pcie_purpose::data_write)
    {
        return transfer(tlm::TLM_WRITE_COMMAND, p, bytes);
    }
    uint64_t read(uint32_t bytes)
    {
        return transfer(tlm::TLM_READ_COMMAND, pcie_purpose::payload_fetch, bytes);
    }

private:
    tlm::tlm_generic_payload m_txn;
    pcie_tag* m_tag;  // owned by m_txn
    std::vector<unsigned char> m_buffer;
};

// One host and its NIC's ends of the link; `body` runs in a thread from time 0.
struct bench : sc_core::sc_module
{
    pcie_link link;
    host_memory memory;
    host_mmio mmio;
    nic_bar bar;
    nic_dma dma;
    std::function<void()> body;

    bench(const sc_core::sc_module_name& n, const pcie_config& cfg)
        : sc_core::sc_module(n)
        , link("link", cfg)
        , memory("memory")
        , mmio("mmio")
        , bar("bar")
        , dma("dma")
    {
        SC_HAS_PROCESS(bench);
        mmio.out.bind(link.host_in);
        link.nic_out.bind(bar.socket);
        dma.socket.bind(link.nic_in);
        link.host_out.bind(memory.port);
        SC_THREAD(run);
    }

    void run()
    {
        if (body) body();
    }
};

// Elaborates a bench (once per process: each TEST runs in its own) and runs `body` in it.
void simulate(bench& b, std::function<void()> body)
{
    b.body = std::move(body);
    sc_core::sc_start();
}

bench& make_bench(const pcie_config& cfg = {})
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    static bench* b = new bench("bench", cfg);  // lives to the end of the process
    return *b;
}

}  // namespace

TEST(pcie_link, default_config_matches_the_spec)
{
    const pcie_config cfg;
    EXPECT_DOUBLE_EQ(cfg.nic_to_host_bps(), 504.32e9);
    EXPECT_DOUBLE_EQ(cfg.host_to_nic_bps(), 504.32e9);
    EXPECT_EQ(cfg.max_payload, 512u);
    EXPECT_EQ(cfg.tlp_overhead, 34u);
    EXPECT_EQ(cfg.read_request, 64u);
    EXPECT_EQ(cfg.latency_s, 0.0);
}

// (a) 4,096 B = 8 transfers, 4,368 B on the link: 4,368 x 8 / 504.32 Gbps = 69,289.34 ps.
TEST(pcie_link, dma_write_of_4096_bytes_takes_69_29_ns)
{
    bench& b = make_bench();
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.write(4096); });
    EXPECT_NEAR(double(done), exact_ps(4368, k_default_bps), 1.0);
    EXPECT_NEAR(double(done), 69289.34, 1.0);
    EXPECT_NEAR(double(done) / 1e3, 69.29, 0.005);  // the spec's figure, ns

    const auto& nic = b.link.stats(pcie_link::nic_side);
    EXPECT_EQ(nic.transfers, 8u);
    EXPECT_EQ(nic.link_bytes, 4368u);
    EXPECT_EQ(nic.payload_bytes, 4096u);
    EXPECT_EQ(nic.busy_ps, done);
    EXPECT_EQ(nic.transactions[size_t(pcie_purpose::data_write)], 1u);
    const auto& host = b.link.stats(pcie_link::host_side);
    EXPECT_EQ(host.transfers, 0u);
    EXPECT_EQ(host.link_bytes, 0u);
    EXPECT_EQ(b.memory.bytes_written(), 4096u);
    EXPECT_TRUE(b.bar.arrivals.empty());
}

// Transfers round up: 4,097 B is 9 transfers; 0 B is still one transfer (a TLP).
TEST(pcie_link, partial_transfers_round_up)
{
    bench& b = make_bench();
    simulate(b, [&] {
        b.dma.write(4097);
        b.dma.write(0);
    });
    const auto& nic = b.link.stats(pcie_link::nic_side);
    EXPECT_EQ(nic.transfers, 9u + 1u);
    EXPECT_EQ(nic.link_bytes, 4097u + 9 * 34 + 34);
}

// (b) A payload fetch: the 64 + 34 B request NIC-to-host (1,554.57 ps), then the 4,368 B of
// completions host-to-NIC (69,289.34 ps): 70,843.91 ps, the spec's "about 70.8 ns".
TEST(pcie_link, dma_read_of_4096_bytes_takes_70_84_ns)
{
    bench& b = make_bench();
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.read(4096); });
    EXPECT_NEAR(double(done), exact_ps(98, k_default_bps) + exact_ps(4368, k_default_bps), 2.0);
    EXPECT_NEAR(double(done), 70843.91, 2.0);
    EXPECT_NEAR(double(done) / 1e3, 70.8, 0.05);

    const auto& nic = b.link.stats(pcie_link::nic_side);  // the read request
    EXPECT_EQ(nic.transfers, 1u);
    EXPECT_EQ(nic.link_bytes, 98u);
    EXPECT_EQ(nic.payload_bytes, 64u);
    EXPECT_NEAR(double(nic.busy_ps), 1554.57, 1.0);
    EXPECT_EQ(nic.transactions[size_t(pcie_purpose::payload_fetch)], 1u);
    const auto& host = b.link.stats(pcie_link::host_side);  // the completions with the data
    EXPECT_EQ(host.transfers, 8u);
    EXPECT_EQ(host.link_bytes, 4368u);
    EXPECT_EQ(host.payload_bytes, 4096u);
    EXPECT_NEAR(double(host.busy_ps), 69289.34, 1.0);
    EXPECT_EQ(host.transactions[size_t(pcie_purpose::payload_fetch)], 1u);
    EXPECT_EQ(nic.busy_ps + host.busy_ps, done);  // no gap between request and completion
    EXPECT_EQ(b.memory.bytes_read(), 4096u);
    EXPECT_EQ(b.memory.bytes_written(), 0u);
}

// (c) A doorbell: 64 B of WQE + 28 B of UDP/IPv4 = 92 B, one transfer, 126 B host-to-NIC:
// 126 x 8 / 504.32 Gbps = 1,998.73 ps.
TEST(pcie_link, doorbell_mmio_write_crosses_in_2_ns)
{
    bench& b = make_bench();
    sc_core::sc_time returned;
    simulate(b, [&] {
        returned = b.mmio.write(pcie_map::doorbell(3), std::vector<unsigned char>(64, 0xab), 92,
                                pcie_purpose::doorbell);
    });
    EXPECT_NEAR(double(returned.value()), exact_ps(126, k_default_bps), 1.0);
    EXPECT_NEAR(double(returned.value()), 1998.73, 1.0);
    ASSERT_EQ(b.bar.arrivals.size(), 1u);
    const auto& a = b.bar.arrivals[0];
    EXPECT_EQ(a.at_ps, returned.value());
    EXPECT_EQ(a.address, pcie_map::doorbell(3));
    EXPECT_EQ(a.bytes, 92u);
    EXPECT_EQ(a.purpose, pcie_purpose::doorbell);

    const auto& host = b.link.stats(pcie_link::host_side);
    EXPECT_EQ(host.transfers, 1u);
    EXPECT_EQ(host.link_bytes, 126u);
    EXPECT_EQ(host.payload_bytes, 92u);
    EXPECT_EQ(host.transactions[size_t(pcie_purpose::doorbell)], 1u);
    for (int p = 1; p < k_pcie_purposes; ++p) EXPECT_EQ(host.transactions[size_t(p)], 0u) << p;
    EXPECT_EQ(b.link.stats(pcie_link::nic_side).link_bytes, 0u);
}

// The host cannot read the NIC's BAR through the link.
TEST(pcie_link, host_side_accepts_only_writes)
{
    bench& b = make_bench();
    tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
    simulate(b, [&] {
        tlm::tlm_generic_payload t;
        unsigned char data[8] = {};
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_data_ptr(data);
        t.set_data_length(8);
        t.set_streaming_width(8);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        // Through the link's target socket directly (host_mmio only writes).
        b.link.host_in.get_base_export()->b_transport(t, delay);
        status = t.get_response_status();
    });
    EXPECT_EQ(status, tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_TRUE(b.bar.arrivals.empty());
}

// (d) The lanes are serial: a second write issued at the same time waits for the first and
// ends at twice its time; a write issued after the lanes have gone idle does not wait.
TEST(pcie_link, back_to_back_writes_queue_on_the_lanes)
{
    bench& b = make_bench();
    uint64_t first = 0, second = 0, later = 0;
    simulate(b, [&] {
        first = b.dma.write(4096);
        second = b.dma.write(4096);
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        later = b.dma.write(4096);
    });
    EXPECT_NEAR(double(first), 69289.34, 1.0);
    EXPECT_EQ(second, 2 * first);
    EXPECT_NEAR(double(second), 2 * 69289.34, 2.0);
    EXPECT_EQ(later, 1000000 + first);
    EXPECT_EQ(b.link.stats(pcie_link::nic_side).transfers, 24u);
    EXPECT_EQ(b.link.stats(pcie_link::nic_side).busy_ps, 3 * first);
}

// The two directions are independent: a doorbell does not wait behind a DMA write.
TEST(pcie_link, directions_do_not_share_lanes)
{
    bench& b = make_bench();
    uint64_t write = 0;
    sc_core::sc_time doorbell;
    simulate(b, [&] {
        write = b.dma.write(4096);
        doorbell = b.mmio.write(pcie_map::doorbell(0), {}, 92, pcie_purpose::doorbell);
    });
    EXPECT_NEAR(double(write), 69289.34, 1.0);
    EXPECT_NEAR(double(doorbell.value()), 1998.73, 1.0);
}

// (e) Pcie.Latency is added to every crossing: once to a write or doorbell, twice to a read
// (request, then completion).
TEST(pcie_link, latency_adds_to_each_crossing)
{
    pcie_config cfg;
    cfg.latency_s = 100e-9;
    bench& b = make_bench(cfg);
    uint64_t write = 0, read = 0, write_landed = 0;
    sc_core::sc_time doorbell;
    b.memory.observe_writes([&](const pcie_tag&, const unsigned char*, uint32_t,
                                const sc_core::sc_time& at) { write_landed = at.value(); });
    simulate(b, [&] {
        write = b.dma.write(4096);
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        read = b.dma.read(4096) - 1000000;
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        doorbell = b.mmio.write(pcie_map::doorbell(1), {}, 92, pcie_purpose::doorbell) -
                   sc_core::sc_time(2, sc_core::SC_US);
    });
    EXPECT_NEAR(double(write), 100000 + 69289.34, 1.0);
    EXPECT_EQ(write_landed, write);
    EXPECT_NEAR(double(read), 2 * 100000 + 1554.57 + 69289.34, 2.0);
    EXPECT_NEAR(double(doorbell.value()), 100000 + 1998.73, 1.0);
    ASSERT_EQ(b.bar.arrivals.size(), 1u);
    EXPECT_EQ(b.bar.arrivals[0].at_ps, 2000000 + doorbell.value());
    // Latency is not lane time.
    EXPECT_NEAR(double(b.link.stats(pcie_link::nic_side).busy_ps), 69289.34 + 1554.57, 2.0);
}

// (f) NicSide lanes = 8 halves only the NIC-to-host direction (252.16 Gbps): a write takes
// twice as long (138,578.68 ps), a read's request too (3,109.14 ps), its completions do not.
TEST(pcie_link, fewer_nic_side_lanes_slow_only_nic_to_host)
{
    pcie_config cfg;
    cfg.nic_side_lanes = 8;
    bench& b = make_bench(cfg);
    uint64_t write = 0, read = 0;
    simulate(b, [&] {
        write = b.dma.write(4096);
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        read = b.dma.read(4096) - 1000000;
    });
    EXPECT_DOUBLE_EQ(b.link.rate_bps(pcie_link::nic_side), 252.16e9);
    EXPECT_DOUBLE_EQ(b.link.rate_bps(pcie_link::host_side), 504.32e9);
    EXPECT_NEAR(double(write), 2 * 69289.34, 1.0);
    EXPECT_NEAR(double(read), 3109.14 + 69289.34, 2.0);
    // The completion direction is unchanged: the same time as at 16 lanes.
    EXPECT_NEAR(double(b.link.stats(pcie_link::host_side).busy_ps), 69289.34, 1.0);
    EXPECT_NEAR(double(b.link.stats(pcie_link::nic_side).busy_ps), 2 * 69289.34 + 3109.14, 2.0);
}

// (g) Host memory tells its observer what landed, with the NIC's tag, at the time the DMA
// returned (here issued at 1 us with 10 ns of annotated delay).
TEST(pcie_link, host_memory_observer_sees_tag_and_landing_time)
{
    bench& b = make_bench();
    struct seen
    {
        pcie_tag tag;
        uint32_t bytes;
        uint64_t at_ps;
    };
    std::vector<seen> landed;
    b.memory.observe_writes(
        [&](const pcie_tag& tag, const unsigned char*, uint32_t bytes, const sc_core::sc_time& at) {
            landed.push_back({tag, bytes, at.value()});
        });
    uint64_t done = 0, completion = 0;
    simulate(b, [&] {
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        done = b.dma.transfer(tlm::TLM_WRITE_COMMAND, pcie_purpose::data_write, 4096,
                              sc_core::sc_time(10, sc_core::SC_NS), 5, 77, 8192);
        completion = b.dma.write(64, pcie_purpose::completion_write);
    });
    ASSERT_EQ(landed.size(), 2u);
    EXPECT_EQ(landed[0].tag.purpose, pcie_purpose::data_write);
    EXPECT_EQ(landed[0].tag.src_host, 5u);
    EXPECT_EQ(landed[0].tag.message, 77u);
    EXPECT_EQ(landed[0].tag.offset, 8192u);
    EXPECT_EQ(landed[0].bytes, 4096u);
    EXPECT_EQ(landed[0].at_ps, done);
    EXPECT_NEAR(double(done), 1010000 + 69289.34, 1.0);
    // The completion entry (64 + 34 B) queues behind the data: 1,554.57 ps after it.
    EXPECT_EQ(landed[1].tag.purpose, pcie_purpose::completion_write);
    EXPECT_EQ(landed[1].at_ps, completion);
    EXPECT_NEAR(double(completion - done), 1554.57, 1.0);
    const auto& nic = b.link.stats(pcie_link::nic_side);
    EXPECT_EQ(nic.transactions[size_t(pcie_purpose::data_write)], 1u);
    EXPECT_EQ(nic.transactions[size_t(pcie_purpose::completion_write)], 1u);
}

// --- Transaction-layer credits (Pcie.*Credits, Pcie.CreditReturnLatency, MaxReadRequestSize).
// One 512 B TLP is 546 B on the lanes: 546 x 8 / 504.32 Gbps = 8,660.77 ps.

// (h) The host advertises 32 posted data credits, one 512 B TLP, and returns them 1 us after
// the TLP has arrived: a credit round trip is 8,660.77 + 1,000,000 ps, and a 4,096 B write's
// eight TLPs go one per round trip: 7 x 1,008,660.77 + 8,660.77 = 7,069,286.16 ps. That is
// credits x 16 B / round trip = 512 B / 1.00866 us = 4.0608 Gbps of payload.
TEST(pcie_link, posted_data_credits_pace_writes_at_one_tlp_per_credit_round_trip)
{
    pcie_config cfg;
    cfg.host_side_credits[pcie_tlp_type::posted].data = 32;
    cfg.credit_return_latency_s = 1e-6;
    bench& b = make_bench(cfg);
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.write(4096); });
    const double round_trip = 8660.77 + 1e6;
    EXPECT_NEAR(double(done), 7 * round_trip + 8660.77, 8.0);
    EXPECT_NEAR(4096 * 8 / (double(done) - 8660.77 + round_trip) * 1e3, 4.0608, 0.0005);
    const auto& nic = b.link.stats(pcie_link::nic_side);
    EXPECT_EQ(nic.transfers, 8u);
    EXPECT_EQ(nic.link_bytes, 4368u);
    EXPECT_EQ(nic.credit_waits[size_t(pcie_tlp_type::posted)], 7u);
    EXPECT_EQ(nic.credit_wait_ps, 7 * 1000000u);         // each TLP waits the return latency
    EXPECT_NEAR(double(nic.busy_ps), 8 * 8660.77, 8.0);  // waits are not lane time
    EXPECT_EQ(b.link.stats(pcie_link::host_side).credit_wait_ps, 0u);
}

// (i) Two posted header credits and 1 us: TLPs go in pairs, 2 x 512 B per round trip.
TEST(pcie_link, posted_header_credits_pace_writes_in_pairs)
{
    pcie_config cfg;
    cfg.host_side_credits[pcie_tlp_type::posted].header = 2;
    cfg.credit_return_latency_s = 1e-6;
    bench& b = make_bench(cfg);
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.write(4096); });
    // Pairs start at 0, 1,008,660.77, 2,017,321.54 and 3,025,982.31 ps (each pair's first TLP
    // waits for the previous pair's first); the last pair ends two TLPs later.
    EXPECT_NEAR(double(done), 3 * (8660.77 + 1e6) + 2 * 8660.77, 8.0);
    EXPECT_EQ(b.link.stats(pcie_link::nic_side).credit_waits[size_t(pcie_tlp_type::posted)], 3u);
}

// (j) The NIC advertises one completion header (a finite completion limit, unlike the
// specification's endpoints) and 500 ns: a 4,096 B fetch's eight completions go one per
// round trip after the 98 B request: 1,554.57 + 8 x 8,660.77 + 7 x 500,000 = 3,570,840.73 ps.
TEST(pcie_link, completion_credits_pace_a_payload_fetch)
{
    pcie_config cfg;
    cfg.nic_side_credits[pcie_tlp_type::completion].header = 1;
    cfg.credit_return_latency_s = 500e-9;
    bench& b = make_bench(cfg);
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.read(4096); });
    EXPECT_NEAR(double(done), 1554.57 + 8 * 8660.77 + 7 * 500000, 10.0);
    const auto& host = b.link.stats(pcie_link::host_side);
    EXPECT_EQ(host.credit_waits[size_t(pcie_tlp_type::completion)], 7u);
    EXPECT_EQ(host.credit_wait_ps, 7 * 500000u);
    EXPECT_EQ(b.link.stats(pcie_link::nic_side).credit_wait_ps, 0u);  // the request did not wait
}

// (k) Pcie.Latency is part of the round trip: one NIC posted header credit, no return latency,
// 100 ns each way. Two doorbells issued together: the second starts when the first's credit is
// back, at its arrival (1,998.73 + 100,000 ps), and lands one doorbell and one latency later.
TEST(pcie_link, link_latency_is_part_of_the_credit_round_trip)
{
    pcie_config cfg;
    cfg.nic_side_credits[pcie_tlp_type::posted].header = 1;
    cfg.latency_s = 100e-9;
    bench& b = make_bench(cfg);
    sc_core::sc_time first, second;
    simulate(b, [&] {
        first = b.mmio.write(pcie_map::doorbell(0), {}, 92, pcie_purpose::doorbell);
        second = b.mmio.write(pcie_map::doorbell(1), {}, 92, pcie_purpose::doorbell);
    });
    EXPECT_NEAR(double(first.value()), 1998.73 + 100000, 1.0);
    EXPECT_NEAR(double(second.value()), 2 * (1998.73 + 100000), 2.0);
    const auto& host = b.link.stats(pcie_link::host_side);
    EXPECT_EQ(host.credit_waits[size_t(pcie_tlp_type::posted)], 1u);
    EXPECT_NEAR(double(host.credit_wait_ps), 100000, 1.0);
}

// (l) With no latency at all a TLP's credits are back by the time the lanes are free, so even
// one header and one TLP's data credits cost nothing: the 69.29 ns of the default write.
TEST(pcie_link, without_latency_credits_never_hold_a_tlp_back)
{
    pcie_config cfg;
    cfg.host_side_credits[pcie_tlp_type::posted] = {1, 32};
    bench& b = make_bench(cfg);
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.write(4096); });
    EXPECT_NEAR(double(done), 69289.34, 1.0);
    EXPECT_EQ(b.link.stats(pcie_link::nic_side).credit_wait_ps, 0u);
}

// (m) MaxReadRequestSize 1,024: a 4,096 B fetch is four 98 B requests (4 transfers, 392 B,
// 256 B of request), each answered by its own two completions; the completions still follow
// one another, so the fetch ends as with one request: 1,554.57 + 69,289.34 ps.
TEST(pcie_link, max_read_request_size_splits_a_fetch_into_requests)
{
    pcie_config cfg;
    cfg.max_read_request = 1024;
    bench& b = make_bench(cfg);
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.read(4096); });
    EXPECT_NEAR(double(done), 70843.91, 3.0);
    const auto& nic = b.link.stats(pcie_link::nic_side);
    EXPECT_EQ(nic.transfers, 4u);
    EXPECT_EQ(nic.link_bytes, 4 * 98u);
    EXPECT_EQ(nic.payload_bytes, 4 * 64u);
    EXPECT_EQ(nic.transactions[size_t(pcie_purpose::payload_fetch)], 1u);
    const auto& host = b.link.stats(pcie_link::host_side);
    EXPECT_EQ(host.transfers, 8u);
    EXPECT_EQ(host.link_bytes, 4368u);
    EXPECT_EQ(b.memory.bytes_read(), 4096u);
}

// (n) Requests of a split fetch take non-posted header credits: one credit and 1 us, four
// requests of 1,024 B: request r starts at r x (1,554.57 + 1,000,000) ps, and the last
// request's two completions end 2 x 8,660.77 ps after it arrives.
TEST(pcie_link, non_posted_header_credits_pace_read_requests)
{
    pcie_config cfg;
    cfg.max_read_request = 1024;
    cfg.host_side_credits[pcie_tlp_type::non_posted].header = 1;
    cfg.credit_return_latency_s = 1e-6;
    bench& b = make_bench(cfg);
    uint64_t done = 0;
    simulate(b, [&] { done = b.dma.read(4096); });
    EXPECT_NEAR(double(done), 3 * (1554.57 + 1e6) + 1554.57 + 2 * 8660.77, 10.0);
    EXPECT_EQ(b.link.stats(pcie_link::nic_side).credit_waits[size_t(pcie_tlp_type::non_posted)],
              3u);
}
