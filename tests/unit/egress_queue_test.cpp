// Egress admission, trimming, RED marking and strict priority, without the kernel.
#include <gtest/gtest.h>

#include <vector>

#include "hw/switch/egress_queue.h"
#include "hw/switch/red_marker.h"

using namespace uetsim;

namespace {

packet make_data(uint32_t payload, uint8_t tc = 0, dscp::role role = dscp::role::trimmable)
{
    packet p;
    p.kind = packet_kind::uet_data;
    p.payload_bytes = payload;
    p.wire_bytes = wire_size(p.kind, payload);
    p.ip.dscp = dscp::make(tc, role);
    p.ip.ecn = ecn::ect1;
    return p;
}

egress_queue_config queue_config(bool trimming = false)
{
    egress_queue_config c;
    c.trimming = trimming;
    for (auto& r : c.red) r.enabled = false;
    return c;
}

// A fixed egress limit of `limit` bytes per (port, pool), every class lossy: QueueDropThreshold
// 1 x PlaneBDP, or under the UET policy PlaneBDP (the trimming limit, or 1 x PlaneBDP without).
shared_buffer_layout limited(uint64_t limit, bool uet_policy, bool trimming)
{
    shared_buffer_config c;
    c.enable_pfc.assign(8, 0);
    c.head_room_per_port_limit_bytes = 0;
    c.lossy_alpha = 0;
    c.queue_drop_threshold_enable = true;
    c.queue_drop_threshold = 1;
    c.plane_bdp_bytes = limit;
    c.uet_policy_enabled = uet_policy;
    c.trimming_enabled = trimming;
    return derive_shared_buffer_layout(c, 1);
}

// Port 0 of a one-port switch with a fixed (port, pool) limit; packets arrive on port 0 and
// are admitted at ingress first, as the switch does.
struct one_port
{
    const traffic_classifier& cls;
    egress_queue_config cfg;  // the queue keeps a reference, as to its switch's
    buffer_manager buffers;
    egress_queue q;

    one_port(uint64_t limit, const traffic_classifier& c,
             const egress_queue_config& qc = queue_config(), bool nic_facing = false)
        : cls(c)
        , cfg(qc)
        , buffers(limited(limit, c.uet_policy(), qc.trimming), 1)
        , q(cfg, nic_facing, c, buffers, 0)
    {
    }
    admit_result offer(packet* p)
    {
        const uint8_t tc = cls.traffic_class(*p);
        const ingress_decision d = buffers.on_ingress(0, tc, buffer_charge(*p));
        EXPECT_TRUE(d.admitted());
        return q.offer(p, d.tag);
    }
    uint64_t ingress_bytes() const { return buffers.accounting().ingress_occupancy(0, 0); }
};

}  // namespace

TEST(egress_queue, charges_the_ip_datagram_with_a_46_byte_floor)
{
    packet d = make_data(4096);
    EXPECT_EQ(egress_queue::charge(d), 4184u);  // payload + 88: the nominal packet
    packet ack;
    ack.kind = packet_kind::uet_ack;
    ack.wire_bytes = wire_size(ack.kind, 0);
    EXPECT_EQ(ack.wire_bytes, 78u);
    EXPECT_EQ(egress_queue::charge(ack), 60u);
    packet tiny;
    tiny.wire_bytes = 40;
    EXPECT_EQ(egress_queue::charge(tiny), 46u);
}

TEST(egress_queue, drop_tail_at_the_limit)
{
    traffic_classifier cls(false);
    one_port port(3 * 4184, cls);
    egress_queue& q = port.q;
    std::vector<packet> ps(4, make_data(4096, 0, dscp::role::no_trim));
    EXPECT_EQ(port.offer(&ps[0]), admit_result::queued);
    EXPECT_EQ(port.offer(&ps[1]), admit_result::queued);
    EXPECT_EQ(port.offer(&ps[2]), admit_result::queued);
    EXPECT_EQ(port.offer(&ps[3]), admit_result::dropped);
    EXPECT_EQ(q.stats().dropped, 1u);
    EXPECT_EQ(q.bytes_held(), 3u * 4184);
}

TEST(egress_queue, charge_is_held_until_serialization_ends)
{
    traffic_classifier cls(false);
    one_port port(2 * 4184, cls);
    egress_queue& q = port.q;
    std::vector<packet> ps(3, make_data(4096, 0, dscp::role::no_trim));
    port.offer(&ps[0]);
    port.offer(&ps[1]);
    EXPECT_EQ(q.dequeue(0.5), &ps[0]);  // ps[0] starts serialising: still charged
    EXPECT_EQ(port.offer(&ps[2]), admit_result::dropped);
    EXPECT_EQ(q.dequeue(0.5), &ps[1]);  // ps[0] has left
    EXPECT_EQ(q.bytes_held(), 4184u);
    EXPECT_EQ(q.dequeue(0.5), nullptr);
    EXPECT_EQ(q.bytes_held(), 0u);
}

TEST(egress_queue, trims_a_trimmable_packet_instead_of_dropping_it)
{
    traffic_classifier cls(true);  // UET policy: trimmed -> TC1, its own pool
    one_port port(4184, cls, queue_config(true));
    egress_queue& q = port.q;
    packet a = make_data(4096), b = make_data(4096), c = make_data(4096, 0, dscp::role::no_trim);
    EXPECT_EQ(port.offer(&a), admit_result::queued);
    EXPECT_EQ(port.offer(&b), admit_result::trimmed);
    EXPECT_TRUE(b.trimmed);
    EXPECT_EQ(b.wire_bytes, 62u);
    EXPECT_EQ(dscp::role_of(b.ip.dscp), dscp::role::trimmed);
    EXPECT_EQ(port.offer(&c), admit_result::dropped);  // no-trim codepoint
    // The trimmed header goes first: TC1 is served before TC0.
    EXPECT_EQ(q.dequeue(0.5), &b);
    EXPECT_EQ(q.dequeue(0.5), &a);
}

TEST(egress_queue, trimming_on_a_nic_facing_port_marks_last_hop)
{
    traffic_classifier cls(true);
    one_port port(4184, cls, queue_config(true), true);
    packet a = make_data(4096), b = make_data(4096);
    port.offer(&a);
    EXPECT_EQ(port.offer(&b), admit_result::trimmed);
    EXPECT_EQ(dscp::role_of(b.ip.dscp), dscp::role::trimmed_last_hop);
}

TEST(egress_queue, trimmable_retransmission_may_use_one_and_a_half_times_the_limit)
{
    traffic_classifier cls(true);
    one_port port(2 * 4184, cls);
    packet a = make_data(4096), b = make_data(4096);
    packet r = make_data(4096, 0, dscp::role::trimmable_rtx);
    packet n = make_data(4096);
    port.offer(&a);
    port.offer(&b);
    EXPECT_EQ(port.offer(&n), admit_result::dropped);
    EXPECT_EQ(port.offer(&r), admit_result::queued);  // 3 x 4184 <= 1.5 x 8368
}

TEST(egress_queue, strict_priority_from_tc7_down)
{
    traffic_classifier cls(false);
    one_port port(1'000'000, cls);
    egress_queue& q = port.q;
    packet p0 = make_data(100, 0), p3 = make_data(100, 3), p7 = make_data(100, 7),
           p3b = make_data(100, 3);
    port.offer(&p0);
    port.offer(&p3);
    port.offer(&p7);
    port.offer(&p3b);
    EXPECT_EQ(q.dequeue(0.5), &p7);
    EXPECT_EQ(q.dequeue(0.5), &p3);
    EXPECT_EQ(q.dequeue(0.5), &p3b);
    EXPECT_EQ(q.dequeue(0.5), &p0);
}

TEST(red_marker, ewma_thresholds_and_linear_probability)
{
    red_params p;
    p.ewma_weight = 0.1;
    p.min_bytes = 200;
    p.max_bytes = 800;
    p.max_probability = 1.0;
    red_marker m;
    m.on_admit(p, 1000);
    EXPECT_DOUBLE_EQ(m.mean_bytes(), 100.0);  // 0.9 x 0 + 0.1 x 1000
    EXPECT_EQ(m.probability(p), 0.0);
    m.on_admit(p, 5000);
    EXPECT_DOUBLE_EQ(m.mean_bytes(), 590.0);  // 0.9 x 100 + 500
    EXPECT_DOUBLE_EQ(m.probability(p), (590.0 - 200) / 600);
    EXPECT_TRUE(m.should_mark(p, 0.5));
    EXPECT_FALSE(m.should_mark(p, 0.7));
    for (int i = 0; i < 100; ++i) m.on_admit(p, 5000);
    EXPECT_EQ(m.probability(p), 1.0);
    p.enabled = false;
    EXPECT_EQ(m.probability(p), 0.0);
}

TEST(egress_queue, marks_only_ect_packets_at_transmission)
{
    traffic_classifier cls(false);
    egress_queue_config c = queue_config();
    c.red[0].enabled = true;
    c.red[0].ewma_weight = 1.0;  // the mean is the current length
    c.red[0].min_bytes = 0;
    c.red[0].max_bytes = 1;  // any queue: probability 1
    one_port port(10'000, cls, c);
    egress_queue& q = port.q;
    packet ect = make_data(100), plain = make_data(100);
    plain.ip.ecn = ecn::not_ect;
    port.offer(&ect);
    port.offer(&plain);
    q.dequeue(0.99);
    q.dequeue(0.99);
    EXPECT_EQ(ect.ip.ecn, ecn::ce);
    EXPECT_EQ(plain.ip.ecn, ecn::not_ect);
    EXPECT_EQ(q.stats().ecn_marked, 1u);
}

// The ingress charge holds a packet's bytes from arrival until its serialization ends, only the
// header's once it is trimmed, and none once it is dropped.
TEST(egress_queue, releases_ingress_bytes_when_they_leave_the_buffer)
{
    traffic_classifier cls(true);
    one_port port(4184, cls, queue_config(true));
    egress_queue& q = port.q;
    packet a = make_data(4096), b = make_data(4096), c = make_data(4096, 0, dscp::role::no_trim);
    EXPECT_EQ(port.offer(&a), admit_result::queued);
    EXPECT_EQ(port.ingress_bytes(), 4184u);
    EXPECT_EQ(port.offer(&b), admit_result::trimmed);  // counted in its arrival class, TC0
    EXPECT_EQ(port.ingress_bytes(), 4184u + 46);       // a 62-byte frame: 44 B, charged 46
    EXPECT_EQ(port.offer(&c), admit_result::dropped);
    EXPECT_EQ(port.ingress_bytes(), 4184u + 46);
    EXPECT_EQ(q.dequeue(0.5), &b);  // b serialising: still held
    EXPECT_EQ(port.ingress_bytes(), 4184u + 46);
    EXPECT_EQ(q.dequeue(0.5), &a);  // b has left
    EXPECT_EQ(port.ingress_bytes(), 4184u);
    EXPECT_EQ(q.dequeue(0.5), nullptr);
    EXPECT_EQ(port.ingress_bytes(), 0u);
}
