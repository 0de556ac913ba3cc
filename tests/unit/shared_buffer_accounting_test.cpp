// The shared buffer's run-time accounting (hw/switch/shared_buffer_accounting.h) against the
// shared-buffer page: its "when a pause frame is sent" and "how the sender is released" examples
// step by step (4,000-byte packets, the 128-port defaults), the single-packet cycle with Xon equal
// to Xoff, lossy bytes in a lossless pool, pool-total drops of any class, and the egress limits
// (a busy queue levelling off at half the pool under LossyAlpha 1.0).
#include <gtest/gtest.h>

#include <vector>

#include "hw/switch/shared_buffer_accounting.h"

using namespace uetsim;

namespace {

constexpr uint32_t k_pkt = 4000;

struct held
{
    switch_tag tag;
    egress_charge charge;
};

// One packet in on `port`, class `tc`, straight to egress port `out` (the pause example's
// egress is congested: nothing leaves until the test lets it).
bool arrive(shared_buffer_accounting& a, std::vector<held>& q, uint16_t port, uint8_t tc,
            uint16_t out, ingress_decision* seen = nullptr)
{
    const ingress_decision d = a.on_ingress(port, tc, k_pkt);
    if (seen) *seen = d;
    if (!d.admitted()) return false;
    const egress_decision e = a.on_egress(d.tag, out, tc, k_pkt, false);
    EXPECT_TRUE(e.admitted());
    q.push_back({d.tag, e.charge});
    return true;
}

// A small switch: `pool0` bytes in pool 0 (the only pool), no headroom reserved.
shared_buffer_layout one_pool(uint64_t pool0, double alpha = 1.0)
{
    shared_buffer_config cfg;
    cfg.total_shared_buffer_size_bytes = pool0;
    cfg.head_room_per_port_limit_bytes = 0;
    cfg.pool_allocation_map = {1, 0, 0, 0, 0, 0, 0, 0};
    cfg.traffic_class_pool_mapping = {0, 0, 0, 0, 0, 0, 0, 0};
    cfg.enable_pfc = {0, 0, 0, 0, 0, 0, 0, 0};
    cfg.lossy_alpha = alpha;
    return derive_shared_buffer_layout(cfg, 4);
}

}  // namespace

// The pause example: packets 1 to 175 are charged to the pool; 176 (700,000 + 4,000 > 700,000)
// sends the pause and is still admitted; 177 to 240 fill the 256,000 B of headroom; 241 drops.
TEST(shared_buffer_accounting, pause_example_step_by_step)
{
    shared_buffer_accounting a(derive_shared_buffer_layout(shared_buffer_config{}, 128), 128);
    std::vector<held> q;
    ingress_decision d;
    for (int n = 1; n <= 175; ++n) {
        ASSERT_TRUE(arrive(a, q, 7, 0, 9, &d)) << n;
        EXPECT_FALSE(d.xoff.send) << n;
        EXPECT_FALSE(d.tag.headroom) << n;
    }
    EXPECT_EQ(a.ingress_occupancy(7, 0), 700'000u);
    EXPECT_FALSE(a.paused(7, 0));

    ASSERT_TRUE(arrive(a, q, 7, 0, 9, &d));  // packet 176
    EXPECT_TRUE(d.xoff.send);
    EXPECT_EQ(d.xoff.port, 7);
    EXPECT_EQ(d.xoff.pool, 0);
    EXPECT_EQ(d.xoff.classes, 0b01);  // pool 0's priority group: TC0
    EXPECT_FALSE(d.tag.headroom);
    EXPECT_EQ(a.ingress_occupancy(7, 0), 704'000u);
    EXPECT_TRUE(a.paused(7, 0));

    for (int n = 177; n <= 240; ++n) {
        ASSERT_TRUE(arrive(a, q, 7, 0, 9, &d)) << n;
        EXPECT_TRUE(d.tag.headroom) << n;
        EXPECT_FALSE(d.xoff.send) << n;  // the pause is held, not sent again per packet
    }
    EXPECT_EQ(a.ingress_occupancy(7, 0), 704'000u);
    EXPECT_EQ(a.headroom(7, 0), 256'000u);
    EXPECT_EQ(a.pool_ingress_bytes(0), 704'000u);  // headroom is not charged to the pool

    EXPECT_FALSE(arrive(a, q, 7, 0, 9, &d));  // packet 241
    EXPECT_EQ(d.drop, buffer_drop::headroom);
    EXPECT_EQ(a.headroom(7, 0), 256'000u);
    EXPECT_EQ(a.stats().xoff_sent, 1u);
    EXPECT_EQ(a.stats().dropped_headroom, 1u);
    EXPECT_EQ(a.stats().admitted, 240u);
    // Each port is paused on its own occupancy: another port's traffic in pool 0 is unaffected.
    EXPECT_FALSE(a.paused(8, 0));
    ASSERT_TRUE(arrive(a, q, 8, 0, 9, &d));
    EXPECT_FALSE(d.tag.headroom);
    EXPECT_FALSE(d.xoff.send);
}

// The release example: departures 1 to 64 empty the headroom, 65 to 164 bring the occupancy
// from 704,000 to 304,000, departure 165 reaches 300,000 = Xon and sends the resume.
TEST(shared_buffer_accounting, release_example_step_by_step)
{
    shared_buffer_accounting a(derive_shared_buffer_layout(shared_buffer_config{}, 128), 128);
    std::vector<held> q;
    for (int n = 1; n <= 240; ++n) ASSERT_TRUE(arrive(a, q, 7, 0, 9)) << n;
    ASSERT_TRUE(a.paused(7, 0));
    EXPECT_EQ(a.egress_queue_bytes(9, 0), 960'000u);  // lossless: no egress limit

    size_t next = 0;
    for (int k = 1; k <= 64; ++k, ++next) {
        const pfc_signal s = a.on_transmit_complete(q[next].tag, q[next].charge);
        EXPECT_FALSE(s.send) << k;
        EXPECT_EQ(a.headroom(7, 0), 256'000u - uint64_t(k) * k_pkt) << k;
        EXPECT_EQ(a.ingress_occupancy(7, 0), 704'000u) << k;  // packet k was charged to the pool
    }
    for (int k = 65; k <= 164; ++k, ++next) {
        EXPECT_FALSE(a.on_transmit_complete(q[next].tag, q[next].charge).send) << k;
        EXPECT_EQ(a.ingress_occupancy(7, 0), 704'000u - uint64_t(k - 64) * k_pkt) << k;
    }
    EXPECT_EQ(a.ingress_occupancy(7, 0), 304'000u);
    EXPECT_TRUE(a.paused(7, 0));
    const pfc_signal s = a.on_transmit_complete(q[next].tag, q[next].charge);  // departure 165
    ++next;
    EXPECT_TRUE(s.send);
    EXPECT_EQ(s.port, 7);
    EXPECT_EQ(s.pool, 0);
    EXPECT_EQ(s.classes, 0b01);
    EXPECT_EQ(a.ingress_occupancy(7, 0), 300'000u);
    EXPECT_FALSE(a.paused(7, 0));
    EXPECT_EQ(a.stats().xon_sent, 1u);
    EXPECT_EQ(a.pool_ingress_bytes(0), 300'000u);
    EXPECT_EQ(a.egress_queue_bytes(9, 0), 300'000u);
    // Back to normal: the next arrival is charged to the pool, and the one that takes the
    // occupancy above 700,000 pauses the port again.
    ingress_decision d;
    int until_pause = 0;
    do {
        ASSERT_TRUE(arrive(a, q, 7, 0, 9, &d));
        ++until_pause;
    } while (!d.xoff.send);
    EXPECT_EQ(until_pause, 101);  // 300,000 + 101 x 4,000 = 704,000
    // The rest drain without another resume until the pause is lifted again.
    for (; next < q.size(); ++next) a.on_transmit_complete(q[next].tag, q[next].charge);
    EXPECT_EQ(a.ingress_occupancy(7, 0), 0u);
    EXPECT_EQ(a.headroom(7, 0), 0u);
    EXPECT_EQ(a.pool_ingress_bytes(0), 0u);
    EXPECT_EQ(a.pool_egress_bytes(0), 0u);
    EXPECT_EQ(a.stats().xon_sent, 2u);
}

// Xon equal to Xoff (both 700,000): the port resumes on departure 65, right after its headroom
// drains, and the next arrival pauses it again.
TEST(shared_buffer_accounting, xon_equal_to_xoff_cycles_on_single_packets)
{
    shared_buffer_config cfg;
    cfg.static_pool_xon_threshold_bytes = 700'000;
    shared_buffer_accounting a(derive_shared_buffer_layout(cfg, 128), 128);
    std::vector<held> q;
    for (int n = 1; n <= 240; ++n) ASSERT_TRUE(arrive(a, q, 7, 0, 9)) << n;
    for (int k = 1; k <= 64; ++k)
        EXPECT_FALSE(a.on_transmit_complete(q[size_t(k - 1)].tag, q[size_t(k - 1)].charge).send);
    const pfc_signal s = a.on_transmit_complete(q[64].tag, q[64].charge);  // departure 65
    EXPECT_TRUE(s.send);
    EXPECT_EQ(a.ingress_occupancy(7, 0), 700'000u);
    ingress_decision d;
    ASSERT_TRUE(arrive(a, q, 7, 0, 9, &d));
    EXPECT_TRUE(d.xoff.send);
    EXPECT_FALSE(d.tag.headroom);  // the packet that pauses is charged to the pool
}

// Lossy bytes count in the occupancy the lossless class's Xoff is compared with: 600,000 B of
// TC2 on the port bring TC0's pause forward to its 26th packet (600,000 + 26 x 4,000 = 704,000).
// Lossy arrivals on a paused port still go to the pool, and a lossy departure sends no resume.
TEST(shared_buffer_accounting, lossy_bytes_bring_the_pause_forward)
{
    shared_buffer_accounting a(derive_shared_buffer_layout(shared_buffer_config{}, 128), 128);
    std::vector<held> q;
    ingress_decision d;
    for (int n = 1; n <= 150; ++n) {
        ASSERT_TRUE(arrive(a, q, 3, 2, 9, &d));
        EXPECT_FALSE(d.xoff.send);
    }
    EXPECT_EQ(a.ingress_occupancy(3, 0), 600'000u);
    int tc0 = 0;
    do {
        ASSERT_TRUE(arrive(a, q, 3, 0, 9, &d));
        ++tc0;
    } while (!d.xoff.send);
    EXPECT_EQ(tc0, 26);
    ASSERT_TRUE(arrive(a, q, 3, 2, 9, &d));  // lossy on the paused port
    EXPECT_FALSE(d.tag.headroom);
    EXPECT_EQ(a.ingress_occupancy(3, 0), 708'000u);
    // Drain the lossy packets only: 151 x 4,000 leave, occupancy 104,000 <= Xon, yet no resume.
    for (const held& h : q) {
        if (h.tag.tc != 2) continue;
        EXPECT_FALSE(a.on_transmit_complete(h.tag, h.charge).send);
    }
    EXPECT_EQ(a.ingress_occupancy(3, 0), 104'000u);
    EXPECT_TRUE(a.paused(3, 0));
    // The next lossless departure finds the headroom empty and the occupancy at or below Xon.
    EXPECT_TRUE(a.on_transmit_complete(q[150].tag, q[150].charge).send);
}

// The pool total is enforced at ingress for every class and rolls the charge back; it never
// pauses. Pool 0 of 980,000 B filled by lossless TC0 (never limited at egress): 245 packets fit,
// the 246th drops, and so does a lossy TC2 packet on another port.
TEST(shared_buffer_accounting, pool_total_drops_any_class_at_ingress)
{
    shared_buffer_config cfg;
    cfg.total_shared_buffer_size_bytes = 10'000'000;
    cfg.head_room_per_port_limit_bytes = 100'000;
    cfg.pool_allocation_map = {0.1, 0.9, 0, 0, 0, 0, 0, 0};
    cfg.static_pool_xoff_threshold_bytes = 2'000'000;  // above the pool: no port pauses
    const shared_buffer_layout l = derive_shared_buffer_layout(cfg, 2);
    ASSERT_EQ(l.pools[0].bytes, 980'000u);  // 0.1 x (10,000,000 - 200,000)
    shared_buffer_accounting a(l, 2);
    std::vector<held> q;
    ingress_decision d;
    for (int n = 1; n <= 245; ++n) ASSERT_TRUE(arrive(a, q, 0, 0, 1, &d)) << n;
    EXPECT_FALSE(arrive(a, q, 0, 0, 1, &d));
    EXPECT_EQ(d.drop, buffer_drop::ingress_pool);
    EXPECT_FALSE(d.xoff.send);
    EXPECT_FALSE(arrive(a, q, 1, 2, 0, &d));  // lossy TC2 on the other port
    EXPECT_EQ(d.drop, buffer_drop::ingress_pool);
    EXPECT_EQ(a.pool_ingress_bytes(0), 980'000u);  // the charges were rolled back
    EXPECT_EQ(a.ingress_occupancy(1, 0), 0u);
    EXPECT_EQ(a.egress_queue_bytes(1, 0), 980'000u);  // lossless: no egress limit applied
    EXPECT_EQ(a.stats().dropped_ingress_pool, 2u);
    EXPECT_EQ(a.stats().xoff_sent, 0u);
    EXPECT_TRUE(arrive(a, q, 1, 1, 0, &d));  // pool 1 is separate
}

// Fills `out_port`'s queue with lossy 1,000-byte TC2 packets arriving on port 0 until one is
// refused; returns how many were admitted.
static int fill_lossy(shared_buffer_accounting& a, uint16_t out_port, buffer_drop* why,
                      uint8_t tc = 2, bool rtx = false)
{
    int n = 0;
    while (true) {
        const ingress_decision d = a.on_ingress(0, tc, 1000);
        if (!d.admitted()) {
            *why = d.drop;
            return n;
        }
        const egress_decision e = a.on_egress(d.tag, out_port, tc, 1000, rtx);
        if (!e.admitted()) {
            *why = e.drop;
            return n;
        }
        ++n;
    }
}

// N queues sharing a pool each level off near LossyAlpha x pool / (1 + LossyAlpha x N): three
// queues in round robin in a 1,000,000 B pool stop at 250,000 B each (1 x 1e6 / 4).
TEST(shared_buffer_accounting, queues_sharing_a_pool_level_off_together)
{
    shared_buffer_accounting a(one_pool(1'000'000), 4);
    bool any = true;
    while (any) {
        any = false;
        for (uint16_t out = 1; out <= 3; ++out) {
            const ingress_decision d = a.on_ingress(0, 2, 1000);
            ASSERT_TRUE(d.admitted());
            any = a.on_egress(d.tag, out, 2, 1000, false).admitted() || any;
        }
    }
    for (uint16_t out = 1; out <= 3; ++out) EXPECT_EQ(a.egress_queue_bytes(out, 0), 250'000u);
    EXPECT_EQ(a.pool_egress_bytes(0), 750'000u);

    // LossyAlpha 0.5, one queue: q + 1,000 <= 0.5 x (1e6 - q) up to q = 332,666: 333 packets,
    // about a third (0.5 / 1.5) of the pool.
    shared_buffer_accounting h(one_pool(1'000'000, 0.5), 4);
    buffer_drop why{};
    EXPECT_EQ(fill_lossy(h, 1, &why), 333);
    EXPECT_EQ(why, buffer_drop::egress_limit);
}

// The even split (LossyAlpha 0): 1,000,000 B over 4 connected ports, 250,000 B each; the port's
// limit binds although the pool has three quarters free.
TEST(shared_buffer_accounting, even_split_limit_binds_per_port)
{
    shared_buffer_accounting a(one_pool(1'000'000, 0), 4);
    buffer_drop why{};
    EXPECT_EQ(fill_lossy(a, 1, &why), 250);
    EXPECT_EQ(why, buffer_drop::egress_limit);
    EXPECT_EQ(fill_lossy(a, 2, &why), 250);
    EXPECT_EQ(a.pool_ingress_bytes(0), 500'000u);  // each refused packet's charge was released
}

// UET policy, trimming on (PFC off), PlaneBDP 300,000: a lossy queue's fixed limit is 300,000 B
// and a trimmable retransmission may go to 450,000 B. With TotalSharedBufferSize 2,000,000 and
// no headroom the pools are 857,142 / 571,428 / 571,430 B.
TEST(shared_buffer_accounting, uet_policy_trimmable_retransmission_uses_one_and_a_half_limits)
{
    shared_buffer_config cfg;
    cfg.uet_policy_enabled = true;
    cfg.trimming_enabled = true;
    cfg.enable_pfc = {0, 0, 0, 0, 0, 0, 0, 0};
    cfg.head_room_per_port_limit_bytes = 0;
    cfg.total_shared_buffer_size_bytes = 2'000'000;
    const shared_buffer_layout l = derive_shared_buffer_layout(cfg, 4);
    ASSERT_EQ(l.pools[0].bytes, 857'142u);
    shared_buffer_accounting a(l, 4);
    buffer_drop why{};
    EXPECT_EQ(fill_lossy(a, 1, &why, 0), 300);
    EXPECT_EQ(why, buffer_drop::egress_limit);
    EXPECT_EQ(fill_lossy(a, 1, &why, 0, true), 150);
    EXPECT_EQ(why, buffer_drop::egress_limit);
    EXPECT_EQ(a.egress_queue_bytes(1, 0), 450'000u);
}

// The pool's egress bound: a packet trimmed into TC1 is charged at ingress to pool 0 and at
// egress to pool 1. With TotalSharedBufferSize 1,000,000 pool 1 has 285,714 B, less than the
// 300,000 B queue limit, so the pool refuses the 286th 1,000-byte packet.
TEST(shared_buffer_accounting, egress_pool_bound_refuses_lossy_packets)
{
    shared_buffer_config cfg;
    cfg.uet_policy_enabled = true;
    cfg.trimming_enabled = true;
    cfg.enable_pfc = {0, 0, 0, 0, 0, 0, 0, 0};
    cfg.head_room_per_port_limit_bytes = 0;
    cfg.total_shared_buffer_size_bytes = 1'000'000;
    const shared_buffer_layout l = derive_shared_buffer_layout(cfg, 4);
    ASSERT_EQ(l.pools[1].bytes, 285'714u);
    shared_buffer_accounting a(l, 4);
    int n = 0;
    egress_decision e;
    do {
        const ingress_decision d = a.on_ingress(0, 0, 1000);
        ASSERT_TRUE(d.admitted());
        e = a.on_egress(d.tag, 2, 1, 1000, false);  // offered to the TC1 queue
        n += e.admitted();
    } while (e.admitted());
    EXPECT_EQ(n, 285);
    EXPECT_EQ(e.drop, buffer_drop::egress_pool);
    EXPECT_EQ(a.stats().dropped_egress_pool, 1u);
    EXPECT_EQ(a.pool_ingress_bytes(0), 285'000u);
    EXPECT_EQ(a.pool_egress_bytes(1), 285'000u);
}

// LossyAlpha 1.0, one busy queue: admitted while q + 4,000 <= 200,908,800 - q, i.e. up to
// q = 100,452,400; from q = 0 in steps of 4,000 the last admitted packet makes it 100,456,000
// (25,114 packets), about half the pool. The refused packet's ingress charge is released.
TEST(shared_buffer_accounting, one_busy_lossy_queue_levels_off_at_half_the_pool)
{
    shared_buffer_accounting a(derive_shared_buffer_layout(shared_buffer_config{}, 128), 128);
    std::vector<held> q;
    ingress_decision d;
    int n = 0;
    while (true) {
        d = a.on_ingress(uint16_t(n % 100), 3, k_pkt);  // spread ingress over 100 ports
        ASSERT_TRUE(d.admitted());
        const egress_decision e = a.on_egress(d.tag, 120, 3, k_pkt, false);
        if (!e.admitted()) {
            EXPECT_EQ(e.drop, buffer_drop::egress_limit);
            break;
        }
        ++n;
    }
    EXPECT_EQ(n, 25'114);
    EXPECT_EQ(a.egress_queue_bytes(120, 0), 100'456'000u);
    EXPECT_EQ(a.pool_ingress_bytes(0), 100'456'000u);  // the dropped packet's charge released
    EXPECT_EQ(a.stats().dropped_egress_limit, 1u);
}
