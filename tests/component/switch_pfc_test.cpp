// PFC on switch ports, with one fabric_switch elaborated alone and stub ports on its links
// (400 Gbps, 500 ns): a pause frame received on a port holds that class only, after the frame
// being sent; a resume frame or the end of the pause time restarts it at once; the switch's
// pause_signal sends a 64-byte pause ahead of queued data, re-sends it every half pause time
// (42,192,400 ps) and sends a resume on xon; the PFC watchdog drops a class's queue after it has
// been paused for the timeout. PFC frames are consumed, never forwarded or buffered.
//
// Times: forwarding latency 500 ns; a 4,202-byte frame takes 84,040 ps at 400 Gbps, a 64-byte
// PFC frame 1,280 ps. The stubs take frames at line rate.
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

constexpr double k_rate_bps = 400e9;
constexpr uint64_t k_data_ps = 84'040;
constexpr uint64_t k_pfc_ps = 1'280;
constexpr uint64_t k_link_delay_ps = 500'000;

using bench = test::switch_bench;
using stub_port = test::switch_stub_port;
using test::simulate;
using test::wait_until_ps;

// A switch with `ports` stub ports on 400 Gbps, 500 ns links; host h is reached through port h.
bench& make_bench(const switch_config& cfg, size_t ports = 3)
{
    fabric_switch::port_spec s;
    s.link = {k_rate_bps, k_link_delay_ps};
    return test::make_switch_bench(cfg, bench::host_per_port(ports),
                                   std::vector<fabric_switch::port_spec>(ports, s));
}

std::vector<uint64_t> starts(const std::vector<stub_port::frame>& f, int tc = -1)
{
    std::vector<uint64_t> r;
    for (const auto& x : f)
        if (tc < 0 || x.tc == tc) r.push_back(x.first_bit_ps);
    return r;
}

}  // namespace

// TC1 frames leave back to back from 500 ns. A pause for TC1 arrives at 600 ns, while the second
// is on the wire (584,040 to 668,080 ps): it finishes, then TC0 (lower priority, waiting) takes
// the port. A resume at 1,000 ns lets TC1 go again once the TC0 frame then on the wire ends.
TEST(switch_pfc, a_pause_holds_its_class_after_the_current_frame_and_a_resume_restarts_it)
{
    switch_config cfg;
    bench& b = make_bench(cfg);
    simulate(b, [&] {
        for (int i = 0; i < 4; ++i) b.data(0, 2, 1);
        for (int i = 0; i < 5; ++i) b.data(1, 2, 0);
        wait_until_ps(600'000);
        b.pfc(2, 0b10, 65535);
        wait_until_ps(1'000'000);
        b.pfc(2, 0b10, 0);
    });
    const auto data = b.stubs[2]->of(packet_kind::uet_data);
    const uint64_t t0 = 500'000;
    EXPECT_EQ(starts(data, 1), (std::vector<uint64_t>{t0, t0 + k_data_ps,
                                                      // resumed after TC0's 4th frame
                                                      t0 + 6 * k_data_ps, t0 + 7 * k_data_ps}));
    // TC0 flows while TC1 is paused: from 668,080 ps, four frames, then the fifth after TC1.
    EXPECT_EQ(starts(data, 0),
              (std::vector<uint64_t>{t0 + 2 * k_data_ps, t0 + 3 * k_data_ps, t0 + 4 * k_data_ps,
                                     t0 + 5 * k_data_ps, t0 + 8 * k_data_ps}));
    EXPECT_TRUE(b.stubs[0]->got.empty());  // the PFC frames were consumed, not forwarded
    EXPECT_TRUE(b.stubs[1]->got.empty());
    const pfc_pause_timer& p = b.sw.port(2).pfc().pauses();
    EXPECT_EQ(p.xoff_rx(1), 1u);
    EXPECT_EQ(p.xon_rx(1), 1u);
    EXPECT_EQ(p.paused_ps(1, 2'000'000), 400'000u);  // 600 to 1,000 ns
    // XOFF due to egress occupancy: TC1's third and fourth frames (queued at 500 ns) wait
    // through the whole pause.
    const pfc_egress_blocking& eb = b.sw.port(2).pfc().egress_blocking();
    EXPECT_EQ(eb.total_ps(1, 2'000'000), 400'000u);
    EXPECT_EQ(eb.total_ps(0, 2'000'000), 0u);  // TC0 was never paused
    EXPECT_EQ(b.sw.port(2).counters().rx_packets, 2u);
    EXPECT_EQ(b.sw.buffers().held_bytes(), 0u);  // a PFC frame is never buffered
}

// A pause that is not refreshed ends after its pause time: 100 quanta at 400 Gbps is 128 ns, plus
// the link's 500 ns: 628 ns, and the class restarts at once.
TEST(switch_pfc, a_pause_ends_when_its_pause_time_runs_out)
{
    switch_config cfg;
    bench& b = make_bench(cfg);
    simulate(b, [&] {
        for (int i = 0; i < 3; ++i) b.data(0, 2, 1);
        wait_until_ps(550'000);  // the first frame is on the wire (500 to 584.04 ns)
        b.pfc(2, 0b10, 100);
    });
    const auto data = b.stubs[2]->of(packet_kind::uet_data);
    EXPECT_EQ(starts(data),
              (std::vector<uint64_t>{500'000, 550'000 + 628'000, 550'000 + 628'000 + k_data_ps}));
    EXPECT_EQ(b.sw.port(2).pfc().pauses().longest_ps(1, 10'000'000), 628'000u);
}

// The switch's pause_signal: xoff of (port 0, priority group 0) sends one 64-byte frame naming
// TC0 with 65,535 quanta at once, re-sends it every half pause time (84,384,800 / 2 =
// 42,192,400 ps), and xon sends the resume (quanta 0) and stops the refresh. A pause goes ahead
// of queued data: it waits only for the frame on the wire.
TEST(switch_pfc, pause_signal_sends_refreshes_every_half_pause_time_and_resumes)
{
    switch_config cfg;
    bench& b = make_bench(cfg);
    const uint64_t xoff_at = 1'000'000, refresh = 42'192'400, xon_at = 100'000'000;
    simulate(b, [&] {
        wait_until_ps(xoff_at);
        b.sw.pause_generator().xoff(0, 0);
        b.sw.pause_generator().xoff(0, 0);  // already held: nothing more is sent
        wait_until_ps(xon_at);
        b.sw.pause_generator().xon(0, 0);
        b.sw.pause_generator().xon(0, 0);  // not held: nothing
        // Data queued for port 0 from 200 us; a pause asked for while the first is on the wire.
        wait_until_ps(199'500'000);
        for (int i = 0; i < 3; ++i) b.data(1, 0, 0);
        wait_until_ps(200'010'000);
        b.sw.pause_generator().xoff(0, 1);  // group 1: TC1
        wait_until_ps(201'000'000);
        b.sw.pause_generator().xon(0, 1);
    });
    const auto pfc = b.stubs[0]->of(packet_kind::pfc);
    ASSERT_EQ(pfc.size(), 6u);
    EXPECT_EQ(starts(pfc), (std::vector<uint64_t>{xoff_at, xoff_at + refresh, xoff_at + 2 * refresh,
                                                  xon_at, 200'084'040, 201'000'000}));
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(pfc[i].wire_bytes, 64u);
        EXPECT_EQ(pfc[i].class_enable, 0b01u);
        EXPECT_EQ(pfc[i].quanta, i < 3 ? 65535u : 0u);
    }
    EXPECT_EQ(pfc[4].class_enable, 0b10u);
    // The data: the first frame, then the pause (1,280 ps), then the rest.
    const auto data = b.stubs[0]->of(packet_kind::uet_data);
    EXPECT_EQ(starts(data), (std::vector<uint64_t>{200'000'000, 200'084'040 + k_pfc_ps,
                                                   200'084'040 + k_pfc_ps + k_data_ps}));
    const pfc_class_counters& c0 = b.sw.port(0).pfc().counters(0);
    EXPECT_EQ(c0.xoff_tx, 3u);
    EXPECT_EQ(c0.xon_tx, 1u);
    EXPECT_EQ(b.sw.port(0).tx.packets(), 6u + 3u);  // nd-stats counts PFC frames
}

// The PFC watchdog (200 us): the peer of port 2 keeps TC0 paused from 0 (refreshing every 40 us)
// until 390 us; the five TC0 packets queued on port 2 are dropped at 200 us, their buffer
// charges released; after the resume a new packet goes through.
TEST(switch_pfc, watchdog_drops_a_class_queue_paused_for_the_timeout)
{
    switch_config cfg;
    cfg.pfc_watchdog_timeout_s = 200e-6;
    bench& b = make_bench(cfg);
    uint64_t held_before = 0, held_after = 0;
    simulate(b, [&] {
        b.pfc(2, 0b01, 65535);
        for (int i = 0; i < 5; ++i) b.data(0, 2, 0);
        b.data(1, 2, 3);  // TC3 is not paused: it leaves
        for (uint64_t t = 40'000'000; t < 400'000'000; t += 40'000'000) {
            wait_until_ps(t);
            if (t == 160'000'000) held_before = b.sw.buffers().held_bytes();
            if (t == 240'000'000) held_after = b.sw.buffers().held_bytes();
            b.pfc(2, 0b01, 65535);
        }
        wait_until_ps(390'000'000);
        b.pfc(2, 0b01, 0);  // before the watchdog's second turn at 400 us
        wait_until_ps(500'000'000);
        b.data(0, 2, 0);
    });
    const auto data = b.stubs[2]->of(packet_kind::uet_data);
    EXPECT_EQ(starts(data), (std::vector<uint64_t>{500'000, 500'500'000}));
    EXPECT_EQ(held_before, 5u * 4184u);
    EXPECT_EQ(held_after, 0u);
    const pfc_class_counters& c = b.sw.port(2).pfc().counters(0);
    EXPECT_EQ(c.watchdog_fired, 1u);
    EXPECT_EQ(c.watchdog_drops, 5u);
    EXPECT_EQ(b.sw.port(2).queue().stats().watchdog_dropped, 5u);
    EXPECT_EQ(b.sw.buffers().held_bytes(), 0u);  // both charges released
    EXPECT_EQ(b.sw.port(2).pfc().pauses().longest_ps(0, 1'000'000'000), 390'000'000u);
    // XOFF due to egress occupancy: from the first TC0 packet queued (500 ns) to the watchdog's
    // drop at 200 us, not the 390 us the class stayed paused with its queue empty.
    EXPECT_EQ(b.sw.port(2).pfc().egress_blocking().total_ps(0, 1'000'000'000),
              200'000'000u - 500'000u);
}
