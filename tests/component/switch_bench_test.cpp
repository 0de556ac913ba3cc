// One fabric_switch elaborated alone with stub ports: each stub injects packets into its switch
// port (as a link delivers them, last bit arrived) and collects what the port sends, taking each
// frame at its own line rate. No links, fabric or NICs. Checks the forwarding latency, strict
// priority, drop-tail and trimming at an exact fixed limit, ingress bytes per (port, pool) as
// packets pass, and the shared buffer's pause and resume decisions as a pause_signal receives
// them (the shared-buffer page's examples).
//
// Times: forwarding latency 500 ns (the default); a stub takes a 4,096-byte UET data frame
// (4,202 B on the wire) in 4,202 x 8 / 400 Gbps = 84,040 ps.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "hw/kernel/time.h"
#include "hw/switch/fabric_switch.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"
#include "tests/support/switch_bench.h"

using namespace uetsim;

namespace {

constexpr uint64_t k_latency_ps = 500'000;
constexpr uint64_t k_data_ps = 84'040;  // one 4,202-byte frame at 400 Gbps

using bench = test::switch_bench;
using stub_port = test::switch_stub_port;
using test::simulate;
using test::wait_until_ps;

// A switch with `ports` stub ports; host h is reached through port h.
bench& make_bench(const switch_config& cfg, size_t ports = 3, bool nic_facing = false)
{
    fabric_switch::port_spec s;
    s.nic_facing = nic_facing;
    return test::make_switch_bench(cfg, bench::host_per_port(ports),
                                   std::vector<fabric_switch::port_spec>(ports, s));
}

}  // namespace

// Arrival -> first bit out is the forwarding latency; back-to-back frames then leave at the
// stub's pace. A packet arriving at 1 us on an idle port leaves at 1.5 us.
TEST(switch_bench, forwarding_latency_then_serialization)
{
    switch_config cfg;
    bench& b = make_bench(cfg);
    std::vector<uint64_t> ids;
    simulate(b, [&] {
        for (int i = 0; i < 3; ++i) ids.push_back(b.data(0, 1).id);
        wait_until_ps(1'000'000);
        ids.push_back(b.data(2, 1).id);
    });
    const auto& got = b.stubs[1]->got;
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(got[0].first_bit_ps, k_latency_ps);
    EXPECT_EQ(got[1].first_bit_ps, k_latency_ps + k_data_ps);
    EXPECT_EQ(got[2].first_bit_ps, k_latency_ps + 2 * k_data_ps);
    EXPECT_EQ(got[3].first_bit_ps, 1'500'000u);
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(got[i].id, ids[i]);
    EXPECT_EQ(got[0].wire_bytes, 4202u);
    EXPECT_TRUE(b.stubs[0]->got.empty());
    EXPECT_TRUE(b.stubs[2]->got.empty());
    EXPECT_EQ(b.sw.port(0).counters().rx_packets, 3u);
    EXPECT_EQ(b.sw.port(0).counters().rx_bytes, 3u * 4202);
    EXPECT_EQ(b.sw.port(1).tx.packets(), 4u);
    EXPECT_EQ(b.sw.member(b.sw.routes().member_slot(b.sw.routes().set_of(1), 0)).packets, 4u);
    EXPECT_EQ(b.sw.set_formed_ps(b.sw.routes().set_of(1)), k_latency_ps);
}

// Four frames due at once: the first finds the port idle; then TC7, TC3, TC0 in that order.
TEST(switch_bench, strict_priority_between_classes)
{
    switch_config cfg;
    bench& b = make_bench(cfg);
    uint64_t a = 0, lo = 0, mid = 0, hi = 0;
    simulate(b, [&] {
        a = b.data(0, 1, 0).id;
        lo = b.data(0, 1, 0).id;
        mid = b.data(2, 1, 3).id;
        hi = b.data(2, 1, 7).id;
    });
    const auto& got = b.stubs[1]->got;
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(got[0].id, a);
    EXPECT_EQ(got[1].id, hi);
    EXPECT_EQ(got[2].id, mid);
    EXPECT_EQ(got[3].id, lo);
    EXPECT_EQ(got[3].first_bit_ps, k_latency_ps + 3 * k_data_ps);
}

// Every class lossy with a fixed egress limit (LossyAlpha 0, QueueDropThresholdEnable,
// 1 x PlaneBDP) of 3 x 4,184 + 60 = 12,612 B.
void fixed_limit(switch_config& cfg, uint64_t limit)
{
    cfg.buffer.enable_pfc.assign(8, 0);
    cfg.buffer.lossy_alpha = 0;
    cfg.buffer.queue_drop_threshold_enable = true;
    cfg.buffer.queue_drop_threshold = 1;
    cfg.buffer.plane_bdp_bytes = limit;
}

// A fixed egress limit of 3 x 4,184 + 60 = 12,612 B: three data packets (12,552 B, the first
// one serialising but still charged) fit, a fourth does not; a 60-byte ACK then fits exactly
// and a second ACK does not.
TEST(switch_bench, drop_tail_at_the_exact_fixed_limit)
{
    switch_config cfg;
    fixed_limit(cfg, 3 * 4184 + 60);
    bench& b = make_bench(cfg);
    std::vector<uint64_t> ids;
    simulate(b, [&] {
        for (int i = 0; i < 4; ++i) ids.push_back(b.data(0, 1).id);
        ids.push_back(b.inject(2, 1, packet_kind::uet_ack, 0, 0).id);
        ids.push_back(b.inject(2, 1, packet_kind::uet_ack, 0, 0).id);
    });
    const auto& got = b.stubs[1]->got;
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(got[0].id, ids[0]);
    EXPECT_EQ(got[1].id, ids[1]);
    EXPECT_EQ(got[2].id, ids[2]);
    EXPECT_EQ(got[3].id, ids[4]);  // the first ACK
    EXPECT_EQ(got[3].wire_bytes, 78u);
    const auto& q = b.sw.port(1).queue();
    EXPECT_EQ(q.stats().admitted, 4u);
    EXPECT_EQ(q.stats().dropped, 2u);
    EXPECT_EQ(b.sw.port(1).counters().tx_drops, 2u);
    EXPECT_EQ(b.sw.buffers().held_bytes(), 0u);  // everything has left
}

// Trimming, UET policy, its limit PlaneBDP = 2 x 4,184 = 8,368 B per pool on a NIC-facing port:
// two data packets fit in TC0's pool, the rest are cut to 62-byte headers (charged 46 B) in
// TC1's pool: 181 x 46 = 8,326 fit, the 182nd (8,372) is dropped. The headers go before the
// second packet.
TEST(switch_bench, trimming_at_the_exact_uet_policy_limit)
{
    switch_config cfg;
    cfg.buffer.uet_policy_enabled = true;
    cfg.buffer.trimming_enabled = true;
    cfg.buffer.enable_pfc.assign(8, 0);  // trimming excludes PFC
    cfg.buffer.plane_bdp_bytes = 2 * 4184;
    bench& b = make_bench(cfg, 3, true);
    std::vector<uint64_t> ids;
    simulate(b, [&] {
        for (int i = 0; i < 2 + 182; ++i) ids.push_back(b.data(0, 1, 0, dscp::role::trimmable).id);
    });
    const auto& got = b.stubs[1]->got;
    ASSERT_EQ(got.size(), 2u + 181);
    EXPECT_EQ(got[0].id, ids[0]);
    EXPECT_FALSE(got[0].trimmed);
    for (size_t i = 1; i <= 181; ++i) {
        EXPECT_EQ(got[i].id, ids[i + 1]);
        EXPECT_TRUE(got[i].trimmed);
        EXPECT_EQ(got[i].wire_bytes, 62u);
        EXPECT_EQ(dscp::role_of(got[i].dscp), dscp::role::trimmed_last_hop);
    }
    EXPECT_EQ(got.back().id, ids[1]);
    EXPECT_FALSE(got.back().trimmed);
    const auto& q = b.sw.port(1).queue();
    EXPECT_EQ(q.stats().trimmed, 181u);
    EXPECT_EQ(q.stats().dropped, 1u);
    EXPECT_EQ(b.sw.port(1).counters().tx_drops, 1u);
}

// Ingress occupancy per (port, pool): charged on arrival, held while queued and serialising,
// released when the frame has left. Two TC0 packets from port 0 and one TC3 packet from port 2
// to port 1 (TC0 and TC3 share pool 0): the first TC0 leaves 500,000 -> 584,040, the TC3 one
// 584,040 -> 668,080, the second TC0 668,080 -> 752,120.
TEST(switch_bench, ingress_bytes_rise_and_fall_per_port_and_pool)
{
    switch_config cfg;
    bench& b = make_bench(cfg);
    const shared_buffer_accounting& in = b.sw.buffers().accounting();
    struct sample
    {
        uint64_t p0_tc0, p2_tc3, held;
    };
    std::vector<sample> s;
    auto take = [&] {
        s.push_back(
            {in.ingress_occupancy(0, 0), in.ingress_occupancy(2, 0), b.sw.buffers().held_bytes()});
    };
    simulate(b, [&] {
        take();
        b.data(0, 1, 0);
        b.data(0, 1, 0);
        b.data(2, 1, 3);
        wait_until_ps(1'000);  // in the pipeline: charged at ingress, not yet in the buffer
        take();
        wait_until_ps(550'000);  // the first serialising, the others queued
        take();
        wait_until_ps(600'000);  // the first has left
        take();
        wait_until_ps(700'000);  // the TC3 packet has left
        take();
        wait_until_ps(760'000);  // all gone
        take();
    });
    ASSERT_EQ(s.size(), 6u);
    EXPECT_EQ(s[0].p0_tc0, 0u);
    EXPECT_EQ(s[1].p0_tc0, 2u * 4184);
    EXPECT_EQ(s[1].p2_tc3, 4184u);
    EXPECT_EQ(s[1].held, 0u);
    EXPECT_EQ(s[2].p0_tc0, 2u * 4184);
    EXPECT_EQ(s[2].p2_tc3, 4184u);
    EXPECT_EQ(s[2].held, 3u * 4184);
    EXPECT_EQ(s[3].p0_tc0, 4184u);
    EXPECT_EQ(s[3].p2_tc3, 4184u);
    EXPECT_EQ(s[4].p0_tc0, 4184u);
    EXPECT_EQ(s[4].p2_tc3, 0u);
    EXPECT_EQ(s[5].p0_tc0, 0u);
    EXPECT_EQ(s[5].p2_tc3, 0u);
    EXPECT_EQ(s[5].held, 0u);
    for (uint16_t p = 0; p < 3; ++p)
        for (uint8_t pool = 0; pool < 8; ++pool) EXPECT_EQ(in.ingress_occupancy(p, pool), 0u);
}

// PFC's end of the seam, counted: each call with the port's received packets and the frames
// the congested egress port has sent so far at that moment.
struct counting_pause : pause_signal
{
    struct call
    {
        bool xoff;
        uint32_t port, group;
        uint64_t arrivals, departures;
    };
    const fabric_switch* sw = nullptr;
    const stub_port* sink = nullptr;
    std::vector<call> calls;
    void xoff(uint32_t p, uint32_t g) override { note(true, p, g); }
    void xon(uint32_t p, uint32_t g) override { note(false, p, g); }
    void note(bool off, uint32_t p, uint32_t g)
    {
        calls.push_back({off, p, g, sw->port(p).counters().rx_packets, sink->got.size()});
    }
};

// The shared-buffer page's examples through the switch, at its defaults (TC0 lossless in
// pool 0, Xoff 700,000 B, Xon 300,000 B, 256,000 B headroom), with packets of 4,000 B as the
// buffer counts them (UET data of 3,912 B payload, 4,018 B on the wire). 241 arrive on port 0
// at once for port 1, so nothing drains while they arrive: packet 176 pauses port 0's sender
// (one xoff, priority group 0), 177 to 240 go to headroom and 241 is dropped at ingress. Then
// port 1 drains in order: departures 1 to 64 empty the headroom, and departure 165 takes the
// occupancy to 300,000 B: one xon.
TEST(switch_bench, pause_on_packet_176_drop_on_241_resume_on_departure_165)
{
    switch_config cfg;
    bench& b = make_bench(cfg);
    counting_pause pfc;
    pfc.sw = &b.sw;
    pfc.sink = b.stubs[1].get();
    b.sw.attach_pause_signal(&pfc);
    simulate(b, [&] {
        for (int n = 1; n <= 241; ++n) b.inject(0, 1, packet_kind::uet_data, 3912, 0);
    });
    ASSERT_EQ(pfc.calls.size(), 2u);
    EXPECT_TRUE(pfc.calls[0].xoff);
    EXPECT_EQ(pfc.calls[0].port, 0u);
    EXPECT_EQ(pfc.calls[0].group, 0u);
    EXPECT_EQ(pfc.calls[0].arrivals, 176u);
    EXPECT_EQ(pfc.calls[0].departures, 0u);
    EXPECT_FALSE(pfc.calls[1].xoff);
    EXPECT_EQ(pfc.calls[1].port, 0u);
    EXPECT_EQ(pfc.calls[1].group, 0u);
    EXPECT_EQ(pfc.calls[1].departures, 165u);
    EXPECT_EQ(b.sw.port(0).counters().rx_drops, 1u);  // packet 241
    EXPECT_EQ(b.stubs[1]->got.size(), 240u);
    const auto& st = b.sw.buffers().accounting().stats();
    EXPECT_EQ(st.dropped_headroom, 1u);
    EXPECT_EQ(st.xoff_sent, 1u);
    EXPECT_EQ(st.xon_sent, 1u);
    EXPECT_EQ(b.sw.buffers().held_bytes(), 0u);
}

// Xon = Xoff = 700,000 B: the port still pauses on packet 176, but departure 65 (headroom
// empty, occupancy back at 700,000 B) resumes it, and the next arrival pauses it again: the
// single-packet cycle. Frames leave every 80,360 ps after the first bit at 500 ns, so departure
// 65 completes at 5,723,400 ps and 66 at 5,803,760 ps; the extra packet arrives between them.
TEST(switch_bench, xon_equal_to_xoff_resumes_on_departure_65_and_pauses_on_the_next_arrival)
{
    switch_config cfg;
    cfg.buffer.static_pool_xon_threshold_bytes = 700'000;
    bench& b = make_bench(cfg);
    counting_pause pfc;
    pfc.sw = &b.sw;
    pfc.sink = b.stubs[1].get();
    b.sw.attach_pause_signal(&pfc);
    simulate(b, [&] {
        for (int n = 1; n <= 240; ++n) b.inject(0, 1, packet_kind::uet_data, 3912, 0);
        wait_until_ps(5'760'000);
        b.inject(0, 1, packet_kind::uet_data, 3912, 0);
    });
    ASSERT_EQ(pfc.calls.size(), 4u);
    EXPECT_TRUE(pfc.calls[0].xoff);
    EXPECT_EQ(pfc.calls[0].arrivals, 176u);
    EXPECT_FALSE(pfc.calls[1].xoff);
    EXPECT_EQ(pfc.calls[1].departures, 65u);
    EXPECT_TRUE(pfc.calls[2].xoff);  // packet 241, the first arrival after the resume
    EXPECT_EQ(pfc.calls[2].arrivals, 241u);
    EXPECT_FALSE(pfc.calls[3].xoff);  // departure 66: back at 700,000 B, resumed again
    EXPECT_EQ(pfc.calls[3].departures, 66u);
    EXPECT_EQ(b.sw.port(0).counters().rx_drops, 0u);
    EXPECT_EQ(b.stubs[1]->got.size(), 241u);
}
