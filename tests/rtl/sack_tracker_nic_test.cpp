// The SACK tracker RTL inside a UET NIC (injected through uet_nic_params, the seam the testbench
// uses for Rtl.SackTracker) on the two-NIC bench (tests/support/uet_nic_pair.h): a 1 MiB message
// with every 17th first transmission trimmed on the way, so the receiver sees holes, holds
// packets beyond them and reports them in SACK bitmaps until the retransmissions fill them. In
// `both` mode every request is checked with no mismatch; in `both` and `rtl` mode the message
// completes at the same picosecond and the ACKs carry the same fields as with the model alone
// (the digest of every ACK's CACK, SACK base and bitmap, the same constant in the three tests).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include <systemc>

#include "hw/nic/uet/sack_tracker.h"
#include "rtl/common/rtl_mode.h"
#include "rtl/sack_tracker/sack_tracker_rtl.h"
#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

struct outcome
{
    uint64_t done_ps = 0;
    uint64_t acks = 0, acks_with_sack = 0;
    uint64_t digest = 1469598103934665603ull;  // FNV-1a over the ACK fields A received
    uint64_t ooo_events = 0, requests = 0, checked = 0, mismatches = 0;
};

void mix(uint64_t& h, uint64_t v)
{
    for (int i = 0; i < 8; ++i) {
        h ^= (v >> (8 * i)) & 0xFF;
        h *= 1099511628211ull;
    }
}

// NIC B's SACK tracker: the C++ model (`model`) or the RTL engine in `mode`.
outcome run(rtl_mode mode)
{
    sack_tracker_rtl* rtl = nullptr;
    uet_nic_params pb = pair_params();
    if (uses_rtl(mode))
        pb.make_sack_tracker = [&rtl, mode](const nic_engine_context& c) {
            auto t = std::make_unique<sack_tracker_rtl>(c.nic + ".sack_tracker", c.contexts, mode);
            rtl = t.get();
            return t;
        };
    nic_pair n(pair_params(), pb);
    EXPECT_EQ(rtl != nullptr, uses_rtl(mode));
    recording_monitor mon;
    n.a.set_monitor(&mon);
    uint64_t first_tx = 0;
    n.to_b.edit = [&](packet& p) {
        if (p.kind == packet_kind::uet_data && !p.pds.retransmit && ++first_tx % 17 == 0)
            p.trimmed = true;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    outcome o;
    EXPECT_EQ(n.dma_a.completed[1].size(), 1u);
    if (!n.dma_a.completed[1].empty()) o.done_ps = n.dma_a.completed[1][0];
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));
    for (const uet_monitor_row& r : mon.rows) {
        if (r.direction != uet_monitor_row::dir::rx ||
            r.packet_type != uet_monitor_row::type::ack_cc || !r.has_ack)
            continue;
        ++o.acks;
        if (!r.bitmap_psns.empty()) ++o.acks_with_sack;
        mix(o.digest, r.cack_psn);
        mix(o.digest, r.sack_base_psn);
        for (uint32_t psn : r.bitmap_psns) mix(o.digest, psn);
    }
    o.ooo_events = n.b.counters().num_out_of_order_events_on_nic;
    if (rtl) {
        o.requests = rtl->requests();
        o.checked = rtl->checked();
        o.mismatches = rtl->mismatches();
    }
    return o;
}

// The model alone: the reference numbers the RTL runs must reproduce.
constexpr uint64_t k_done_ps = 23'136'680;  // ps; 21,828,720 without the trims
constexpr uint64_t k_acks = 256;
constexpr uint64_t k_acks_with_sack = 239;
constexpr uint64_t k_digest = 0x6362d0a94b71dc55ull;

void expect_reference(const outcome& o)
{
    EXPECT_EQ(o.done_ps, k_done_ps);
    EXPECT_EQ(o.acks, k_acks);
    EXPECT_EQ(o.acks_with_sack, k_acks_with_sack);
    EXPECT_EQ(o.digest, k_digest);
    EXPECT_GT(o.ooo_events, 100u);  // the trims made holes
}

}  // namespace

TEST(sack_tracker_nic, model_reference)
{
    const outcome o = run(rtl_mode::model);
    expect_reference(o);
    EXPECT_EQ(o.ooo_events, 225u);
}

TEST(sack_tracker_nic, both_mode_checks_every_request_and_changes_nothing)
{
    const outcome o = run(rtl_mode::both);
    expect_reference(o);
    EXPECT_GT(o.requests, 300u);  // data packets and ACKs of the receiving PDC, its open
    EXPECT_EQ(o.checked, o.requests);
    EXPECT_EQ(o.mismatches, 0u);
}

TEST(sack_tracker_nic, rtl_mode_gives_the_models_acks)
{
    const outcome o = run(rtl_mode::rtl);
    expect_reference(o);
    EXPECT_GT(o.requests, 300u);
    EXPECT_EQ(o.checked, 0u);
}
