// The switch's shared buffer as the switch drives it (hw/switch/buffer_manager.h), without the
// kernel: the pause and release examples of the shared-buffer page reach an attached
// pause_signal exactly once each, nothing is called with none attached, and the buffer records'
// occupancy series follow the charges.
#include <gtest/gtest.h>

#include <vector>

#include "hw/switch/buffer_manager.h"

using namespace uetsim;

namespace {

constexpr uint32_t k_pkt = 4000;

// A test double of PFC's end of the seam: counts the calls and remembers the last.
struct counting_pause : pause_signal
{
    int xoffs = 0, xons = 0;
    uint32_t port = 99, group = 99;
    void xoff(uint32_t p, uint32_t g) override { ++xoffs, port = p, group = g; }
    void xon(uint32_t p, uint32_t g) override { ++xons, port = p, group = g; }
};

struct held
{
    switch_tag tag;
    egress_charge charge;
};

held arrive(buffer_manager& b, uint16_t port, uint8_t tc, uint16_t out, bool* admitted)
{
    const ingress_decision d = b.on_ingress(port, tc, k_pkt);
    *admitted = d.admitted();
    if (!d.admitted()) return {};
    const egress_decision e = b.on_egress(d.tag, out, tc, k_pkt, false);
    EXPECT_TRUE(e.admitted());
    return {d.tag, e.charge};
}

shared_buffer_layout defaults_128()
{
    return derive_shared_buffer_layout({}, 128);
}

}  // namespace

// Pause on packet 176 (one xoff for port 7's pool 0), drop on 241; the release continues it:
// resume on departure 165 (one xon), and nothing more.
TEST(buffer_manager, pause_and_release_examples_reach_the_pause_signal_once_each)
{
    buffer_manager b(defaults_128(), 128);
    counting_pause pfc;
    b.attach(&pfc);
    std::vector<held> q;
    for (int n = 1; n <= 241; ++n) {
        bool ok = false;
        const held h = arrive(b, 7, 0, 9, &ok);
        EXPECT_EQ(ok, n <= 240) << n;
        if (ok) q.push_back(h);
        EXPECT_EQ(pfc.xoffs, n >= 176 ? 1 : 0) << n;
    }
    EXPECT_EQ(pfc.port, 7u);
    EXPECT_EQ(pfc.group, 0u);  // the priority group of pool 0
    EXPECT_EQ(b.accounting().stats().dropped_headroom, 1u);
    for (int n = 1; n <= 240; ++n) {
        b.on_transmit_complete(q[size_t(n - 1)].tag, q[size_t(n - 1)].charge);
        EXPECT_EQ(pfc.xons, n >= 165 ? 1 : 0) << n;
    }
    EXPECT_EQ(pfc.xoffs, 1);
    EXPECT_EQ(b.held_bytes(), 0u);
}

// Nobody listening: the decisions are made and counted all the same.
TEST(buffer_manager, without_a_pause_signal_the_decisions_are_still_counted)
{
    buffer_manager b(defaults_128(), 128);
    for (int n = 1; n <= 241; ++n) {
        bool ok = false;
        arrive(b, 3, 1, 4, &ok);
    }
    EXPECT_TRUE(b.accounting().paused(3, 1));
    EXPECT_EQ(b.accounting().stats().xoff_sent, 1u);
    EXPECT_EQ(b.accounting().stats().dropped_headroom, 1u);
}

// The aggregate series: egress on a downlink port, ingress on an uplink port, the pool's
// ingress total; min, max, mean and count over an interval, and the bytes that entered.
TEST(buffer_manager, occupancy_series_follow_charges_and_releases)
{
    buffer_manager b(defaults_128(), 4);
    b.sample_occupancy(std::make_unique<buffer_occupancy>(
        std::vector<bool>{true, false, false, false}, true, true));
    bool ok = false;
    const held a = arrive(b, 0, 0, 1, &ok);
    const held c = arrive(b, 0, 0, 1, &ok);
    const buffer_occupancy& o = *b.occupancy();
    const auto& eg = o.aggregate_series(buffer_occupancy::egress_dl, 0);
    const auto& in = o.aggregate_series(buffer_occupancy::ingress_ul, 0);
    EXPECT_EQ(eg.bytes, 2u * k_pkt);
    EXPECT_EQ(in.bytes, 2u * k_pkt);
    EXPECT_EQ(o.aggregate_series(buffer_occupancy::ingress_dl, 0).bytes, 0u);
    EXPECT_EQ(o.aggregate_series(buffer_occupancy::shared, 0).bytes, 2u * k_pkt);
    b.on_transmit_complete(a.tag, a.charge);
    EXPECT_EQ(eg.count, 3u);  // 4,000, 8,000, 4,000
    EXPECT_EQ(eg.ivl_min(), 4000u);
    EXPECT_EQ(eg.ivl_max(), 8000u);
    EXPECT_DOUBLE_EQ(eg.ivl_mean(), 16000.0 / 3);
    EXPECT_EQ(eg.total_bytes, 8000u);
    EXPECT_EQ(o.port_series(1, 0, buffer_occupancy::port_egress).bytes, 4000u);
    EXPECT_EQ(o.port_series(0, 0, buffer_occupancy::port_ingress).bytes, 4000u);
    b.occupancy_mut()->start_aggregate_interval();
    EXPECT_EQ(eg.count, 0u);
    EXPECT_EQ(eg.ivl_min(), 4000u);  // held throughout an interval without a change
    b.on_transmit_complete(c.tag, c.charge);
    EXPECT_EQ(eg.bytes, 0u);
    EXPECT_EQ(eg.ivl_max(), 0u);
    EXPECT_EQ(eg.total_bytes, 8000u);
}

TEST(occupancy_series, an_interval_reports_its_own_samples_or_the_held_value)
{
    occupancy_series s;
    EXPECT_EQ(s.ivl_min(), 0u);  // no sample yet: the value held
    EXPECT_EQ(s.ivl_max(), 0u);
    s.set(500);
    s.set(100);
    s.set(300);
    EXPECT_EQ(s.ivl_min(), 100u);
    EXPECT_EQ(s.ivl_max(), 500u);
    EXPECT_DOUBLE_EQ(s.ivl_mean(), 300.0);
    EXPECT_EQ(s.total_bytes, 700u);  // 500 in, then 200 back in after falling to 100
    s.start_interval();
    EXPECT_EQ(s.ivl_min(), 300u);  // unchanged through the interval
    EXPECT_EQ(s.ivl_max(), 300u);
    s.set(800);  // above the last interval's extremes: both are this interval's
    s.set(700);
    EXPECT_EQ(s.ivl_min(), 700u);
    EXPECT_EQ(s.ivl_max(), 800u);
    EXPECT_DOUBLE_EQ(s.ivl_mean(), 750.0);
}
