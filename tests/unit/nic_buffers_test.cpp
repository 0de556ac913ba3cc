// The UET NIC's buffers, kernel-free, on the buffers-and-PFC page's worked examples: the default
// pools (egress 230,400 / 25,600 B, restart at 115,200 B; ingress 3,600,000 / 400,000 B, Xoff
// 2,880,000, Xon 1,440,000, headroom 720,000 B = 172 packets), the pause on the first class-0
// packet arriving at 2,875,816 B or more, resume at a release to Xon or at a refresh below Xoff,
// drops when a pool cannot hold a packet, the configuration rules, and the transmit scheduler's
// three types (WRR [1, 5]: five class-1 packets for each class-0 packet).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/nic/common/nic_buffer_config.h"
#include "hw/nic/common/nic_rx_buffer.h"
#include "hw/nic/common/tx_class_scheduler.h"

using namespace uetsim;

namespace {
const uint32_t k_full_rx = 4'184;    // a full data packet in a receive pool (4,202 - 18)
const uint32_t k_full_wire = 4'202;  // on the wire, RdmaDataMSS 4096 + 106

bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}
}  // namespace

TEST(nic_buffer_config, default_egress_pools_are_230400_and_25600_bytes)
{
    const nic_buffer_settings e = default_egress_buffer();
    EXPECT_EQ(e.total_buffer_bytes, 256'000u);
    EXPECT_EQ(e.classes(), 2);
    EXPECT_EQ(e.pool_bytes(0), 230'400u);
    EXPECT_EQ(e.pool_bytes(1), 25'600u);
    EXPECT_EQ(e.pool_bytes(2), 0u);
    EXPECT_EQ(e.pool_bytes(0) / 2, 115'200u);             // the restart point
    EXPECT_EQ(e.pool_bytes(0) / k_full_wire, 54u);        // 54 data packets (226,908 B)
    EXPECT_EQ(e.pool_bytes(1) / k_ack_wire_bytes, 328u);  // 328 ACKs
    EXPECT_EQ(e.scheduling, queue_scheduling::strict_priority);
    EXPECT_EQ(e.wrr_weights[0], 1u);
    EXPECT_EQ(e.wrr_weights[1], 5u);
}

TEST(nic_buffer_config, default_ingress_pools_thresholds_and_headroom)
{
    const nic_ingress_settings i = default_ingress_buffer();
    EXPECT_EQ(i.pool_bytes(0), 3'600'000u);
    EXPECT_EQ(i.pool_bytes(0) / k_full_rx, 860u);
    EXPECT_EQ(i.pool_bytes(1), 400'000u);
    EXPECT_EQ(i.xoff_bytes(0), 2'880'000u);
    EXPECT_EQ(i.xoff_bytes(0) / k_full_rx, 688u);
    EXPECT_EQ(i.xon_bytes(0), 1'440'000u);
    EXPECT_EQ(i.xon_bytes(0) / k_full_rx, 344u);
    EXPECT_EQ(i.pool_bytes(0) - i.xoff_bytes(0), 720'000u);  // headroom
    EXPECT_EQ((i.pool_bytes(0) - i.xoff_bytes(0)) / k_full_rx, 172u);
    EXPECT_EQ(i.xoff_bytes(1), 320'000u);
    EXPECT_EQ(i.xon_bytes(1), 160'000u);
    // The receiver penalty's thresholds, 25% and 75% of the data pool.
    EXPECT_EQ(i.pool_bytes(0) / 4, 900'000u);
    EXPECT_EQ(i.pool_bytes(0) / 4 / k_full_rx, 215u);
    EXPECT_EQ(i.pool_bytes(0) * 3 / 4 / k_full_rx, 645u);
    for (int c = 0; c < 8; ++c) {
        EXPECT_FALSE(i.pfc_enable[c]);
        EXPECT_EQ(i.quanta[c], c < 2 ? 65535u : 0u);
        EXPECT_DOUBLE_EQ(i.xoff_fraction[c], c < 2 ? 0.8 : 0.0);
        EXPECT_DOUBLE_EQ(i.xon_fraction[c], c < 2 ? 0.4 : 0.0);
    }
    EXPECT_EQ(i.wrr_weights[1], 3u);
}

TEST(nic_buffer_config, pool_vector_shape_rules_name_the_key)
{
    nic_buffer_settings s = default_egress_buffer();
    EXPECT_EQ(pool_allocation_error(s, "UetNic.Egress"), "");
    s.pool_allocation = {0.5, 0.3, 0.2, 0, 0, 0, 0, 0};
    EXPECT_EQ(pool_allocation_error(s, "UetNic.Egress"), "");
    EXPECT_EQ(s.classes(), 3);
    s.pool_allocation = {0, 0.5, 0.5, 0, 0, 0, 0, 0};
    const std::string gap = pool_allocation_error(s, "UetNic.Egress");
    EXPECT_TRUE(has(gap, "UetNic.EgressPoolAllocationVector = [0, 0.5, 0.5, 0, 0, 0, 0, 0]"))
        << gap;
    EXPECT_TRUE(has(gap, "come first")) << gap;
    s.pool_allocation = {1, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(has(pool_allocation_error(s, "UetNic.Ingress"), "two non-zero"));
    s.pool_allocation = {0.9, 1.5, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(has(pool_allocation_error(s, "UetNic.Ingress"), "outside 0.0 to 1.0"));
    // Entries summing past 1 are allowed: the pools are sized independently.
    s.pool_allocation = {0.9, 0.9, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(pool_allocation_error(s, "UetNic.Ingress"), "");
    EXPECT_EQ(s.pool_bytes(1), 230'400u);
}

TEST(nic_buffer_config, egress_pools_must_hold_one_data_packet_and_one_ack)
{
    nic_buffer_settings s = default_egress_buffer();
    EXPECT_EQ(egress_pool_error(s, "UetNic.Egress", 4096, 0, 1), "");
    s.total_buffer_bytes = 4'668;  // class 0: 0.9 x 4,668 = 4,201 B, one byte short
    const std::string e = egress_pool_error(s, "UetNic.Egress", 4096, 0, 1);
    EXPECT_TRUE(has(e, "UetNic.EgressPoolAllocationVector")) << e;
    EXPECT_TRUE(has(e, "4202 B")) << e;
    s.total_buffer_bytes = 4'669;  // 4,202 B: room for exactly one
    EXPECT_EQ(egress_pool_error(s, "UetNic.Egress", 4096, 0, 1), "");
    s.total_buffer_bytes = 256'000;
    s.pool_allocation = {0.9997, 0.0003, 0, 0, 0, 0, 0, 0};  // class 1: 76 B < 78
    EXPECT_TRUE(has(egress_pool_error(s, "UetNic.Egress", 4096, 0, 1), "78-byte ACK"));
}

TEST(nic_buffer_config, wrr_weights_of_classes_0_and_1_at_least_1_with_wrr_only)
{
    nic_buffer_settings s = default_egress_buffer();
    s.wrr_weights = {0, 5, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(wrr_weights_error(s, "UetNic.Egress"), "");  // StrictPriority ignores them
    s.scheduling = queue_scheduling::weighted_round_robin;
    EXPECT_TRUE(has(wrr_weights_error(s, "UetNic.Egress"), "UetNic.EgressWRRQueueWeights"));
}

TEST(nic_buffer_config, class_lists_parse_with_or_without_brackets)
{
    std::array<double, 8> v{};
    std::string err;
    ASSERT_TRUE(parse_class_list("[0.9, 0.1, 0, 0, 0, 0, 0, 0]", v, err));
    EXPECT_DOUBLE_EQ(v[0], 0.9);
    EXPECT_DOUBLE_EQ(v[1], 0.1);
    ASSERT_TRUE(parse_class_list("1,5,0,0,0,0,0,0", v, err));
    EXPECT_DOUBLE_EQ(v[1], 5);
    EXPECT_FALSE(parse_class_list("[0.9, 0.1]", v, err));
    EXPECT_TRUE(has(err, "eight entries"));
    EXPECT_FALSE(parse_class_list("[a, 0, 0, 0, 0, 0, 0, 0]", v, err));
    EXPECT_EQ(format_class_list({0.9, 0.1, 0, 0, 0, 0, 0, 0}), "[0.9, 0.1, 0, 0, 0, 0, 0, 0]");
}

TEST(nic_rx_buffer, default_pause_on_the_first_packet_arriving_at_2875816_bytes)
{
    nic_ingress_settings s = default_ingress_buffer();
    s.pfc_enable[0] = true;
    // The pool holds 2,875,815 B: a full packet brings it to 2,879,999 B, below Xoff.
    nic_rx_buffer below(s);
    ASSERT_FALSE(below.arrive(0, 2'875'815).send_xoff);
    EXPECT_FALSE(below.arrive(0, k_full_rx).send_xoff);
    EXPECT_EQ(below.occupancy(0), 2'879'999u);
    // The pool holds 2,875,816 B: the packet brings it to 2,880,000 B = Xoff, a pause.
    nic_rx_buffer d(s);
    ASSERT_FALSE(d.arrive(0, 2'875'816).send_xoff);
    const rx_admission p = d.arrive(0, k_full_rx);
    EXPECT_TRUE(p.send_xoff);
    EXPECT_TRUE(p.admitted);  // still admitted: the pool has room
    EXPECT_EQ(d.occupancy(0), 2'880'000u);
    EXPECT_TRUE(d.pause_outstanding(0));
    EXPECT_FALSE(d.arrive(0, k_full_rx).send_xoff);  // one pause outstanding, not another
}

TEST(nic_rx_buffer, no_pause_for_a_class_without_pfc_and_drops_when_the_pool_is_full)
{
    nic_rx_buffer b;  // PFC off (the default)
    uint32_t admitted = 0;
    for (int i = 0; i < 900; ++i) {
        const rx_admission a = b.arrive(0, k_full_rx);
        EXPECT_FALSE(a.send_xoff);
        admitted += a.admitted;
    }
    EXPECT_EQ(admitted, 860u);  // 860 full packets fit in 3,600,000 B
    EXPECT_EQ(b.drops(0), 40u);
    EXPECT_EQ(b.occupancy(0), 860u * k_full_rx);
    EXPECT_EQ(b.drops(1), 0u);
    // Control packets have their own pool.
    EXPECT_TRUE(b.arrive(1, 78).admitted);
}

TEST(nic_rx_buffer, resume_at_a_release_to_xon_or_at_a_refresh_below_xoff)
{
    nic_ingress_settings s = default_ingress_buffer();
    s.pfc_enable[0] = true;
    nic_rx_buffer b(s);
    EXPECT_TRUE(b.arrive(0, 2'880'000).send_xoff);
    EXPECT_TRUE(b.refresh(0));  // still at Xoff: pause again
    EXPECT_TRUE(b.pause_outstanding(0));
    EXPECT_FALSE(b.release(0, 1'440'000 - 1));  // 1,440,001 B: above Xon
    EXPECT_TRUE(b.release(0, 1));               // 1,440,000 B = Xon: XON now
    EXPECT_FALSE(b.pause_outstanding(0));
    EXPECT_FALSE(b.release(0, 1'000));  // no pause outstanding, no XON

    nic_rx_buffer r(s);
    EXPECT_TRUE(r.arrive(0, 2'880'000).send_xoff);
    r.release(0, 1);             // 2,879,999 B: below Xoff, above Xon
    EXPECT_FALSE(r.refresh(0));  // the refresh sends XON even above Xon
    EXPECT_FALSE(r.pause_outstanding(0));
    EXPECT_TRUE(r.arrive(0, 1).send_xoff);  // back at Xoff: a new pause
}

TEST(nic_rx_buffer, timed_releases_drain_in_order_and_ask_for_xon)
{
    nic_ingress_settings s = default_ingress_buffer();
    s.pfc_enable[0] = true;
    s.total_buffer_bytes = 10'000;  // class 0: 9,000 B, Xoff 7,200, Xon 3,600
    nic_rx_buffer b(s);
    EXPECT_FALSE(b.arrive(0, 4'000).send_xoff);
    EXPECT_TRUE(b.arrive(0, 4'000).send_xoff);
    EXPECT_FALSE(b.arrive(0, 4'000).admitted);  // 12,000 > 9,000: dropped
    EXPECT_EQ(b.drops(0), 1u);
    b.release_at(0, 4'000, 100);
    b.release_at(0, 4'000, 50);  // earlier than the last: waits behind it
    EXPECT_EQ(b.next_release_ps(), 100u);
    EXPECT_EQ(b.drain(99), 0u);
    EXPECT_EQ(b.occupancy(0), 8'000u);
    EXPECT_EQ(b.drain(100), 1u);  // both: 0 B, at or below Xon
    EXPECT_EQ(b.occupancy(0), 0u);
    EXPECT_FALSE(b.releases_pending());
}

TEST(nic_rx_buffer, a_class_without_a_pool_is_not_accounted)
{
    nic_rx_buffer b;
    EXPECT_TRUE(b.arrive(5, 1'000'000'000).admitted);
    EXPECT_EQ(b.occupancy(5), 0u);
    EXPECT_EQ(b.classes(), 2);
}

namespace {
std::vector<int> serve(tx_class_scheduler& s, uint8_t sendable, int n)
{
    std::vector<int> out;
    for (int i = 0; i < n; ++i) out.push_back(s.pick(sendable));
    return out;
}
}  // namespace

TEST(tx_class_scheduler, strict_priority_sends_the_highest_class_waiting)
{
    nic_buffer_settings e = default_egress_buffer();
    e.pool_allocation = {0.5, 0.3, 0.2, 0, 0, 0, 0, 0};
    tx_class_scheduler s(e);
    EXPECT_EQ(s.pick(0b011), 1);
    EXPECT_EQ(s.pick(0b111), 2);
    EXPECT_EQ(s.pick(0b001), 0);
    EXPECT_EQ(s.pick(0b1000), tx_class_scheduler::none);  // class 3 has no pool
    EXPECT_TRUE(s.has_pool(2));
    EXPECT_FALSE(s.has_pool(3));
    EXPECT_EQ(s.pick(0), tx_class_scheduler::none);
}

TEST(tx_class_scheduler, round_robin_one_packet_per_class_after_the_last_served)
{
    nic_buffer_settings e = default_egress_buffer();
    e.pool_allocation = {0.5, 0.3, 0.2, 0, 0, 0, 0, 0};
    e.scheduling = queue_scheduling::round_robin;
    tx_class_scheduler s(e);
    EXPECT_EQ(serve(s, 0b111, 6), (std::vector<int>{2, 0, 1, 2, 0, 1}));
    EXPECT_EQ(serve(s, 0b101, 4), (std::vector<int>{2, 0, 2, 0}));
    EXPECT_EQ(s.pick(0b010), 1);
    EXPECT_EQ(s.pick(0b111), 2);  // after class 1
}

TEST(tx_class_scheduler, wrr_default_weights_five_control_packets_per_data_packet)
{
    nic_buffer_settings e = default_egress_buffer();
    e.scheduling = queue_scheduling::weighted_round_robin;
    tx_class_scheduler s(e);
    // Turns start at the highest-numbered class: class 1 sends five, then class 0 one.
    EXPECT_EQ(serve(s, 0b11, 12), (std::vector<int>{1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0}));
    int count[2] = {0, 0};
    for (int i = 0; i < 600; ++i) ++count[s.pick(0b11)];
    EXPECT_EQ(count[1], 500);
    EXPECT_EQ(count[0], 100);
}

TEST(tx_class_scheduler, wrr_an_empty_or_paused_class_gives_up_its_turn)
{
    nic_buffer_settings e = default_egress_buffer();
    e.scheduling = queue_scheduling::weighted_round_robin;
    e.wrr_weights = {3, 2, 0, 0, 0, 0, 0, 0};
    tx_class_scheduler s(e);
    EXPECT_EQ(s.pick(0b11), 1);
    EXPECT_EQ(s.pick(0b01), 0);  // class 1 empty (or paused): its turn goes to class 0
    EXPECT_EQ(serve(s, 0b11, 7), (std::vector<int>{0, 0, 1, 1, 0, 0, 0}));
    EXPECT_EQ(s.pick(0b00), tx_class_scheduler::none);
    EXPECT_EQ(s.turn(), 1);                                     // none changed no turn
    EXPECT_EQ(serve(s, 0b10, 3), (std::vector<int>{1, 1, 1}));  // class 0 empty: 1 goes on
}
