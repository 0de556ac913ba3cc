// CBFC between two NIC ports back to back (400 Gbps, 100 ns): a class on a virtual channel is
// sent only with credit, stalls when the receiver's advertised credit is spent, and resumes when
// the receiver's credit update arrives; another VC passes the stalled one. Hand-computed to the
// picosecond (docs/link-layer.md):
//
// 1,000-byte frames are 20 ns on the wire and 10 credits of 100 B; each end advertises 20 credits
// (2,000 B) per VC. A sends three class-0 frames from 0: the first two at 0 and 20 ns, the third
// finds 0 credits at 40 ns and stalls. The first frame arrives at B at 20 + 100 = 120 ns, its
// client takes it 4 ns later (RxParse, 4 cycles of 1 ns) and the buffer lets it go: B's credit
// update (64 B, 1.28 ns) leaves at 124 ns and reaches A at 124 + 1.28 + 100 = 225.28 ns, when the
// third frame starts. Stall: 225.28 - 40 = 185.28 ns.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <systemc>

#include "hw/common/random.h"
#include "hw/kernel/time.h"
#include "tests/support/nic_port_pair.h"

using namespace uetsim;

namespace {

constexpr uint64_t ns = 1000;  // ps

nic_port_config config(uint32_t host)
{
    nic_port_config c;
    c.host = host;
    c.ip = 0x0a000001 + host;
    c.egress.total_buffer_bytes = 100'000;
    c.egress.pool_allocation = {0.5, 0.5};
    c.rx_stages[0].cycles = 4;
    c.pfc.ip = c.ip;
    return c;
}

cbfc_settings cbfc(uint64_t interval_ps, uint64_t sync_interval_ps = 0)
{
    cbfc_settings s;
    s.enabled = true;
    s.vc_of_tc[0] = 0;
    s.vc_of_tc[1] = 1;
    s.credit_unit_bytes = 100;
    s.vc_credits = 20;
    s.update_interval_ps = interval_ps;
    s.update_frame_bytes = 64;
    s.sync_interval_ps = sync_interval_ps;
    return s;
}

struct cbfc_pair : uetsim::test::nic_port_pair
{
    std::vector<uint64_t> updates_b_to_a;  // start of each credit update B sent

    explicit cbfc_pair(uint64_t interval_ps, uint64_t sync_interval_ps = 0)
        : nic_port_pair(config(0), config(1), 1000)
    {
        a.enable_cbfc(cbfc(interval_ps, sync_interval_ps));
        b.enable_cbfc(cbfc(interval_ps, sync_interval_ps));
        wire.add_tap([this](const packet& p, uetsim::link::direction d, const sc_core::sc_time& t) {
            if (d == uetsim::link::b_to_a && p.kind == packet_kind::cbfc_update) {
                updates_b_to_a.push_back(t.value());
                EXPECT_EQ(p.wire_bytes, 64u);
            }
        });
    }
    void send(uint32_t psn, uint8_t tc)
    {
        packet* p = frame(psn, tc);
        a.reserve_data(tc, p->wire_bytes);
        a.push_reserved_data(p);
    }
    std::vector<uint64_t> data_starts() const { return starts(packet_kind::uet_data); }
    std::vector<uint64_t> starts(packet_kind k) const
    {
        std::vector<uint64_t> r;
        for (const auto& f : a_to_b)
            if (f.kind == k) r.push_back(f.start_ps);
        return r;
    }
};

void run_until(uint64_t ps)
{
    sc_core::sc_start(picoseconds(ps) - sc_core::sc_time_stamp());
}

}  // namespace

TEST(nic_port_cbfc, a_vc_stalls_when_its_credit_is_spent_and_resumes_on_the_update)
{
    cbfc_pair n(0);
    run_until(0);
    for (uint32_t i = 1; i <= 3; ++i) n.send(i, 0);
    run_until(100 * ns);
    const cbfc_credits& c = n.a.cbfc()->credits();
    EXPECT_TRUE(c.stalled(0));
    EXPECT_EQ(c.outstanding(0), 20u);
    run_until(1000 * ns);
    EXPECT_EQ(n.data_starts(), (std::vector<uint64_t>{0, 20 * ns, 225'280}));
    // B's updates: for frame 1 at 124 ns, frame 2 at 144 ns, frame 3 at 225.28 + 20 + 100 + 4.
    EXPECT_EQ(n.updates_b_to_a, (std::vector<uint64_t>{124 * ns, 144 * ns, 349'280}));
    EXPECT_EQ(c.stall_ps(0, 1000 * ns), 185'280u);
    EXPECT_EQ(c.stalls(0), 1u);
    EXPECT_FALSE(c.stalled(0));
    EXPECT_EQ(c.outstanding(0), 0u);  // every credit came back
    EXPECT_EQ(n.client_b.received.size(), 3u);
    // Neither end ever sent PFC for the class: credit held A back.
    EXPECT_EQ(n.a.pfc().counters(0).xoff_tx + n.b.pfc().counters(0).xoff_tx, 0u);
}

TEST(nic_port_cbfc, the_interval_spaces_the_updates)
{
    // A 50 ns interval: the update for frame 2 (freed at 144 ns) waits until 124 + 50 = 174 ns.
    cbfc_pair n(50 * ns);
    run_until(0);
    for (uint32_t i = 1; i <= 3; ++i) n.send(i, 0);
    run_until(1000 * ns);
    EXPECT_EQ(n.updates_b_to_a, (std::vector<uint64_t>{124 * ns, 174 * ns, 349'280}));
    EXPECT_EQ(n.data_starts(), (std::vector<uint64_t>{0, 20 * ns, 225'280}));
}

TEST(nic_port_cbfc, another_vc_passes_a_stalled_one)
{
    cbfc_pair n(0);
    run_until(0);
    for (uint32_t i = 1; i <= 3; ++i) n.send(i, 0);
    run_until(50 * ns);  // class 0 stalled since 40 ns
    n.send(10, 1);       // VC 1 has its own 20 credits
    run_until(1000 * ns);
    std::vector<uint32_t> psns;
    std::vector<uint64_t> starts;
    for (const auto& f : n.a_to_b)
        if (f.kind == packet_kind::uet_data) {
            psns.push_back(f.psn);
            starts.push_back(f.start_ps);
        }
    EXPECT_EQ(psns, (std::vector<uint32_t>{1, 2, 10, 3}));
    EXPECT_EQ(starts, (std::vector<uint64_t>{0, 20 * ns, 50 * ns, 225'280}));
}

// Credit sync (docs/link-layer.md): with a 500 ns sync interval, A's class-0 frames 1 and 2
// (0 and 20 ns) spend all 20 credits and frame 3 stalls at 40 ns. If no update comes (frames 1
// and 2 were lost on the link, or B's updates for them were), A sends a credit sync at
// 40 + 500 = 540 ns with its 20 credits spent; it reaches B at 540 + 1.28 + 100 = 641.28 ns. B
// counts what never arrived as freed and answers with an update at once, which reaches A at
// 641.28 + 1.28 + 100 = 742.56 ns: frame 3 starts then, arrives at 862.56 ns and reaches the
// client 4 ns later.
namespace {

void expect_resumed_by_the_sync(const cbfc_pair& n)
{
    EXPECT_EQ(n.data_starts(), (std::vector<uint64_t>{0, 20 * ns, 742'560}));
    EXPECT_EQ(n.starts(packet_kind::cbfc_update), (std::vector<uint64_t>{540 * ns}));
    EXPECT_EQ(n.a.cbfc()->syncs_sent(), 1u);
    const cbfc_credits& c = n.a.cbfc()->credits();
    EXPECT_FALSE(c.stalled(0));
    EXPECT_EQ(c.stall_ps(0, 2000 * ns), 702'560u);
    EXPECT_EQ(c.outstanding(0), 0u);  // frame 3's credit came back too (its update at 866.56)
    ASSERT_FALSE(n.client_b.received.empty());
    EXPECT_EQ(n.client_b.received.back().psn, 3u);
    EXPECT_EQ(n.client_b.received.back().at_ps, 866'560u);
}

}  // namespace

TEST(nic_port_cbfc, the_credit_of_frames_lost_on_the_link_comes_back_with_a_credit_sync)
{
    cbfc_pair n(0, 500 * ns);
    random_stream rng(1, 1);
    run_until(0);
    n.wire.set_loss(1.0, &rng);
    for (uint32_t i = 1; i <= 3; ++i) n.send(i, 0);
    run_until(30 * ns);  // frames 1 and 2 started and are lost
    n.wire.set_loss(0, nullptr);
    run_until(2000 * ns);
    expect_resumed_by_the_sync(n);
    EXPECT_EQ(n.b.cbfc()->credits_recovered(), 20u);
    EXPECT_EQ(n.client_b.received.size(), 1u);
    EXPECT_EQ(n.updates_b_to_a, (std::vector<uint64_t>{641'280, 866'560}));
}

TEST(nic_port_cbfc, a_credit_sync_after_lost_updates_brings_an_update_that_repairs_them)
{
    cbfc_pair n(0, 500 * ns);
    random_stream rng(1, 1);
    run_until(0);
    for (uint32_t i = 1; i <= 3; ++i) n.send(i, 0);
    run_until(110 * ns);
    n.wire.set_loss(1.0, &rng);  // B's updates at 124 and 144 ns are lost
    run_until(150 * ns);
    n.wire.set_loss(0, nullptr);
    run_until(2000 * ns);
    expect_resumed_by_the_sync(n);
    EXPECT_EQ(n.b.cbfc()->credits_recovered(), 0u);  // both frames had arrived
    EXPECT_EQ(n.client_b.received.size(), 3u);
    EXPECT_EQ(n.updates_b_to_a, (std::vector<uint64_t>{124 * ns, 144 * ns, 641'280, 866'560}));
}

TEST(nic_port_cbfc, without_a_sync_interval_the_lost_credit_is_lost_for_good)
{
    cbfc_pair n(0, 0);
    random_stream rng(1, 1);
    run_until(0);
    n.wire.set_loss(1.0, &rng);
    for (uint32_t i = 1; i <= 3; ++i) n.send(i, 0);
    run_until(30 * ns);
    n.wire.set_loss(0, nullptr);
    run_until(2000 * ns);
    EXPECT_EQ(n.data_starts(), (std::vector<uint64_t>{0, 20 * ns}));
    EXPECT_TRUE(n.a.cbfc()->credits().stalled(0));
    EXPECT_EQ(n.a.cbfc()->syncs_sent(), 0u);
}
