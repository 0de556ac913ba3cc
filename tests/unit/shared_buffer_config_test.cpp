// The shared buffer's start-up stages (hw/switch/shared_buffer_config.h) against the numbers of
// the shared-buffer page: the 128-port worked example of the defaults, the fixed-limit variant,
// the lossless sizing rule, the UET policy's pools and limits, and every configuration rule.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/switch/shared_buffer_config.h"

using namespace uetsim;

namespace {

bool any_contains(const std::vector<std::string>& msgs, const std::vector<std::string>& parts)
{
    for (const auto& m : msgs) {
        bool all = true;
        for (const auto& p : parts) all = all && m.find(p) != std::string::npos;
        if (all) return true;
    }
    return false;
}

}  // namespace

// Worked example, stages 1 to 3: 128 connected ports at the defaults.
TEST(shared_buffer_config, default_128_ports_headroom_pools_and_priority_groups)
{
    const shared_buffer_config cfg;
    ASSERT_TRUE(cfg.validate(128).empty());
    const shared_buffer_layout l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.total_bytes, 256'000'000u);
    EXPECT_EQ(l.total_headroom_bytes, 32'768'000u);  // 256,000 x 128
    EXPECT_EQ(l.sizing_total_bytes, 223'232'000u);
    EXPECT_TRUE(l.pools[0].allocated);
    EXPECT_EQ(l.pools[0].bytes, 200'908'800u);  // 0.9 x 223,232,000
    EXPECT_EQ(l.pools[1].bytes, 22'323'200u);   // 0.1 x 223,232,000
    for (int p = 2; p < 8; ++p) {
        EXPECT_FALSE(l.pools[size_t(p)].allocated) << p;
        EXPECT_EQ(l.pools[size_t(p)].bytes, 0u) << p;
    }
    // TC0 lossless in pool 0 with the lossy TC2..TC7; TC1 lossless alone in pool 1.
    const std::array<uint8_t, 8> map{0, 1, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(l.tc_pool, map);
    EXPECT_EQ(l.pools[0].classes, 0b1111'1101);
    EXPECT_EQ(l.pools[0].lossless_classes, 0b01);
    EXPECT_EQ(l.pools[1].classes, 0b10);
    EXPECT_EQ(l.pools[1].lossless_classes, 0b10);
    EXPECT_TRUE(l.lossless(0));
    EXPECT_TRUE(l.lossless(1));
    EXPECT_FALSE(l.lossless(2));
    // 256,000 B of headroom per port in each of the two lossless pools, none elsewhere.
    EXPECT_EQ(l.pools[0].headroom_limit_bytes, 256'000u);
    EXPECT_EQ(l.pools[1].headroom_limit_bytes, 256'000u);
    EXPECT_EQ(l.pools[2].headroom_limit_bytes, 0u);
}

// Worked example, stages 4 and 5: dynamic limits, the ECN band from the whole pool (gaps X3),
// Xoff 700,000 / Xon 300,000, a 400,000 B band.
TEST(shared_buffer_config, default_128_ports_ecn_band_and_pfc_thresholds)
{
    const shared_buffer_layout l = derive_shared_buffer_layout(shared_buffer_config{}, 128);
    EXPECT_EQ(l.admission_name(), "dynamic");
    EXPECT_EQ(l.pools[0].static_egress_limit_bytes, 200'908'800u);
    EXPECT_EQ(l.pools[1].static_egress_limit_bytes, 22'323'200u);
    const ecn_band b0 = l.ecn_thresholds(0, 0.2, 0.8);
    const ecn_band b1 = l.ecn_thresholds(1, 0.2, 0.8);
    EXPECT_EQ(b0.min_bytes, 40'181'760u);
    EXPECT_EQ(b0.max_bytes, 160'727'040u);
    EXPECT_EQ(b1.min_bytes, 4'464'640u);
    EXPECT_EQ(b1.max_bytes, 17'858'560u);
    EXPECT_EQ(l.xoff_bytes, 700'000u);
    EXPECT_EQ(l.xon_bytes, 300'000u);
    EXPECT_EQ(l.xoff_bytes - l.xon_bytes, 400'000u);
    // The dynamic limit is LossyAlpha x the free egress bytes: the whole pool when empty,
    // 100,000,000 B when 100,908,800 B are queued.
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 0, false), 200'908'800.0);
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 100'908'800, false), 100'000'000.0);
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 300'000'000, false), 0.0);
    // No 1.5x for a trimmable retransmission outside the UET policy (gaps X5).
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 0, true), 200'908'800.0);
}

// Worked example, the check of the thresholds against the pools with 4,000-byte packets.
TEST(shared_buffer_config, default_128_ports_pause_points_against_the_pools)
{
    const shared_buffer_layout l = derive_shared_buffer_layout(shared_buffer_config{}, 128);
    const uint64_t need = lossless_pool_need_bytes(128, l.xoff_bytes, 4000);
    EXPECT_EQ(need, 90'112'000u);  // 128 x 704,000
    // About 45% of pool 0, which keeps more than half of it free with every port paused.
    EXPECT_EQ((need * 100 + l.pools[0].bytes / 2) / l.pools[0].bytes, 45u);
    EXPECT_GT(l.pools[0].bytes - need, l.pools[0].bytes / 2);
    // Pool 1 holds the pause points of 31 ports.
    EXPECT_EQ(pause_points_in_pool(l.pools[1].bytes, l.xoff_bytes, 4000), 31u);
}

// A partly connected switch reserves less headroom and gives the pools more.
TEST(shared_buffer_config, headroom_counts_connected_ports_only)
{
    const shared_buffer_layout l = derive_shared_buffer_layout(shared_buffer_config{}, 64);
    EXPECT_EQ(l.total_headroom_bytes, 16'384'000u);
    EXPECT_EQ(l.sizing_total_bytes, 239'616'000u);
    EXPECT_EQ(l.pools[0].bytes, 215'654'400u);
    EXPECT_EQ(l.pools[1].bytes, 23'961'600u);
}

// Stage 2: rounding and a map that does not sum to 1 land on the last non-zero entry, whose
// static limit (so its ECN band) stays at its size before the adjustment.
TEST(shared_buffer_config, remainder_goes_to_the_last_allocated_pool)
{
    shared_buffer_config cfg;
    cfg.total_shared_buffer_size_bytes = 1000;
    cfg.head_room_per_port_limit_bytes = 1;
    cfg.pool_allocation_map = {0.333, 0, 0.333, 0.334, 0, 0, 0, 0};
    shared_buffer_layout l = derive_shared_buffer_layout(cfg, 1);  // sizing total 999
    EXPECT_EQ(l.sizing_total_bytes, 999u);
    EXPECT_EQ(l.pools[0].bytes, 333u);  // 332.667 rounds to 333
    EXPECT_FALSE(l.pools[1].allocated);
    EXPECT_EQ(l.pools[2].bytes, 333u);
    EXPECT_EQ(l.pools[3].nominal_bytes, 334u);  // 333.666
    EXPECT_EQ(l.pools[3].bytes, 333u);          // 999 - 666
    EXPECT_EQ(l.pools[3].static_egress_limit_bytes, 334u);

    // Short of 1: [0.5, 0.3] at 128 ports gives pool 1 everything pool 0 does not take.
    cfg = shared_buffer_config{};
    cfg.pool_allocation_map = {0.5, 0.3, 0, 0, 0, 0, 0, 0};
    l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.pools[0].bytes, 111'616'000u);
    EXPECT_EQ(l.pools[1].nominal_bytes, 66'969'600u);
    EXPECT_EQ(l.pools[1].bytes, 111'616'000u);
    EXPECT_EQ(l.ecn_thresholds(1, 0.2, 0.8).min_bytes, 13'393'920u);  // 0.2 x 66,969,600

    // Over 1 by less than the last entry: [0.6, 0.5] takes the excess from pool 1.
    cfg.pool_allocation_map = {0.6, 0.5, 0, 0, 0, 0, 0, 0};
    ASSERT_TRUE(cfg.validate(128).empty());
    l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.pools[0].bytes, 133'939'200u);
    EXPECT_EQ(l.pools[1].nominal_bytes, 111'616'000u);
    EXPECT_EQ(l.pools[1].bytes, 89'292'800u);
}

// The same switch with LossyAlpha 0: the even split and the QueueDropThreshold x PlaneBDP cap,
// each with its ECN band; headroom, pools and PFC thresholds unchanged.
TEST(shared_buffer_config, fixed_egress_limits_of_the_worked_example)
{
    shared_buffer_config cfg;
    cfg.lossy_alpha = 0;
    shared_buffer_layout l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.admission_name(), "even_split");
    EXPECT_EQ(l.pools[0].bytes, 200'908'800u);
    EXPECT_EQ(l.xoff_bytes, 700'000u);
    EXPECT_EQ(l.pools[0].fixed_egress_limit_bytes, 1'569'600u);
    EXPECT_EQ(l.pools[1].fixed_egress_limit_bytes, 174'400u);
    EXPECT_EQ(128 * l.pools[0].fixed_egress_limit_bytes, l.pools[0].bytes);  // exactly the pool
    EXPECT_EQ(128 * l.pools[1].fixed_egress_limit_bytes, l.pools[1].bytes);
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 150'000'000, false), 1'569'600.0);  // fixed
    EXPECT_EQ(l.ecn_thresholds(0, 0.2, 0.8).min_bytes, 313'920u);
    EXPECT_EQ(l.ecn_thresholds(0, 0.2, 0.8).max_bytes, 1'255'680u);
    EXPECT_EQ(l.ecn_thresholds(1, 0.2, 0.8).min_bytes, 34'880u);
    EXPECT_EQ(l.ecn_thresholds(1, 0.2, 0.8).max_bytes, 139'520u);

    cfg.queue_drop_threshold_enable = true;
    l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.admission_name(), "fixed_cap");
    EXPECT_EQ(l.pools[0].fixed_egress_limit_bytes, 1'500'000u);  // 5 x 300,000
    EXPECT_EQ(l.pools[1].fixed_egress_limit_bytes, 1'500'000u);
    const uint64_t sum = 128 * l.pools[0].fixed_egress_limit_bytes;
    EXPECT_EQ(sum, 192'000'000u);
    EXPECT_EQ((sum * 100 + l.pools[0].bytes / 2) / l.pools[0].bytes, 96u);   // 96% of pool 0
    EXPECT_EQ((sum * 100 + l.pools[1].bytes / 2) / l.pools[1].bytes, 860u);  // 860% of pool 1
    EXPECT_EQ(l.pools[1].bytes / l.pools[1].fixed_egress_limit_bytes, 14u);  // 14 full caps
    for (int p = 0; p < 2; ++p) {
        EXPECT_EQ(l.ecn_thresholds(uint8_t(p), 0.2, 0.8).min_bytes, 300'000u);
        EXPECT_EQ(l.ecn_thresholds(uint8_t(p), 0.2, 0.8).max_bytes, 1'200'000u);
    }
    // A trimmable retransmission gets no allowance outside the UET policy.
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 0, true), 1'500'000.0);

    // With LossyAlpha above 0, QueueDropThresholdEnable is not read.
    cfg.lossy_alpha = 0.5;
    l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.admission_name(), "dynamic");
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 0, false), 100'454'400.0);
}

// Sizing a lossless class: the three conditions at the defaults, and the page's two remedies
// for pool 1.
TEST(shared_buffer_config, lossless_sizing_rule)
{
    // Condition 1: 2 x 400 Gbps x 500 ns / 8 = 50,000 B on the wire, + 2 x 4,000 B frames.
    EXPECT_EQ(headroom_guidance_bytes(400e9, 500e-9, 4000), 58'000u);

    shared_buffer_config cfg;
    shared_buffer_layout l = derive_shared_buffer_layout(cfg, 128);
    std::vector<lossless_class_sizing> s = check_lossless_sizing(l, 4000, 58'000);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].tc, 0);
    EXPECT_FALSE(s[0].own_pool);  // shares pool 0 with TC2..TC7
    EXPECT_TRUE(s[0].pool_holds_pauses);
    EXPECT_TRUE(s[0].headroom_covers);
    EXPECT_FALSE(s[0].no_ingress_drop());
    EXPECT_EQ(s[1].tc, 1);
    EXPECT_TRUE(s[1].own_pool);
    EXPECT_FALSE(s[1].pool_holds_pauses);  // needs 90,112,000 B, has 22,323,200
    EXPECT_TRUE(s[1].headroom_covers);
    EXPECT_FALSE(check_lossless_sizing(l, 4000, 256'001)[1].headroom_covers);

    // Remedy 1: pool 1's entry at least 0.404 (0.403 x 223,232,000 = 89,962,496 is short;
    // 0.404 gives 90,185,728); the page's [0.59, 0.41] gives 91,525,120.
    cfg.pool_allocation_map = {0.597, 0.403, 0, 0, 0, 0, 0, 0};
    EXPECT_FALSE(
        check_lossless_sizing(derive_shared_buffer_layout(cfg, 128), 4000, 0)[1].pool_holds_pauses);
    cfg.pool_allocation_map = {0.596, 0.404, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(
        check_lossless_sizing(derive_shared_buffer_layout(cfg, 128), 4000, 0)[1].pool_holds_pauses);
    cfg.pool_allocation_map = {0.59, 0.41, 0, 0, 0, 0, 0, 0};
    l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.pools[1].bytes, 91'525'120u);
    EXPECT_TRUE(check_lossless_sizing(l, 4000, 58'000)[1].no_ingress_drop());

    // Remedy 2: StaticPoolXoffThreshold at most 22,323,200 / 128 - 4,000 = 170,400 B.
    EXPECT_EQ(largest_xoff_for_pool(22'323'200, 128, 4000), 170'400u);
    cfg = shared_buffer_config{};
    cfg.static_pool_xoff_threshold_bytes = 170'400;
    cfg.static_pool_xon_threshold_bytes = 100'000;
    EXPECT_TRUE(
        check_lossless_sizing(derive_shared_buffer_layout(cfg, 128), 4000, 0)[1].pool_holds_pauses);
    cfg.static_pool_xoff_threshold_bytes = 170'401;
    EXPECT_FALSE(
        check_lossless_sizing(derive_shared_buffer_layout(cfg, 128), 4000, 0)[1].pool_holds_pauses);
}

// The UET policy: three pools 1.5 : 1 : 1 of the sizing total, each class its own pool,
// PoolAllocationMap and TrafficClassPoolMapping not used, fixed limits, 1.5x for a trimmable
// retransmission.
TEST(shared_buffer_config, uet_policy_pools_and_limits)
{
    shared_buffer_config cfg;
    cfg.uet_policy_enabled = true;
    cfg.pool_allocation_map = {0.2, 0.2, 0.2, 0.2, 0.2, 0, 0, 0};
    cfg.traffic_class_pool_mapping = {3, 3, 3, 3, 3, 3, 3, 3};
    shared_buffer_layout l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.sizing_total_bytes, 223'232'000u);  // Stage 1 still applies
    EXPECT_EQ(l.pools[0].bytes, 95'670'857u);       // 1.5/3.5 = 95,670,857.14
    EXPECT_EQ(l.pools[1].bytes, 63'780'571u);       // 1/3.5 = 63,780,571.43
    EXPECT_EQ(l.pools[2].bytes, 63'780'572u);       // the rest
    EXPECT_FALSE(l.pools[3].allocated);
    EXPECT_EQ(l.pool_of(0), 0);
    EXPECT_EQ(l.pool_of(1), 1);
    EXPECT_EQ(l.pool_of(2), 2);
    // EnablePFC still applies: TC0 and TC1 lossless by default.
    EXPECT_EQ(l.pools[0].lossless_classes, 0b01);
    EXPECT_EQ(l.pools[1].lossless_classes, 0b10);
    EXPECT_EQ(l.pools[2].lossless_classes, 0);
    EXPECT_EQ(l.xoff_bytes, 700'000u);  // Stage 5 still applies
    EXPECT_EQ(l.admission_name(), "uet_policy");
    // Trimming off: QueueDropThreshold x PlaneBDP; LossyAlpha is not used.
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 90'000'000, false), 1'500'000.0);
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 0, true), 2'250'000.0);
    EXPECT_EQ(l.ecn_thresholds(0, 0.2, 0.8).max_bytes, 1'200'000u);

    // Trimming on (which needs PFC off): PlaneBDP, 450,000 for a trimmable retransmission.
    cfg.trimming_enabled = true;
    cfg.enable_pfc = {0, 0, 0, 0, 0, 0, 0, 0};
    ASSERT_TRUE(cfg.validate(128).empty());
    l = derive_shared_buffer_layout(cfg, 128);
    EXPECT_EQ(l.lossless_classes, 0);
    EXPECT_EQ(l.pools[0].headroom_limit_bytes, 0u);
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(2, 0, false), 300'000.0);
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(2, 0, true), 450'000.0);
    EXPECT_EQ(l.ecn_thresholds(2, 0.2, 0.8).min_bytes, 60'000u);
    EXPECT_EQ(l.ecn_thresholds(2, 0.2, 0.8).max_bytes, 240'000u);
}

// Configuration rules that stop a simulation: each names the key, the value and what is allowed.
TEST(shared_buffer_config, list_shape_rules)
{
    shared_buffer_config cfg;
    cfg.enable_pfc = {1, 1, 0, 0, 0, 0, 0};
    EXPECT_TRUE(any_contains(
        cfg.validate(), {"Switch.EnablePFC", "[1, 1, 0, 0, 0, 0, 0]", "7 entries", "exactly 8"}));
    cfg.enable_pfc = {1, 1, 0.5, 0, 0, 0, 0, 0};
    EXPECT_TRUE(any_contains(cfg.validate(), {"Switch.EnablePFC", "entry 2 is 0.5", "0", "1"}));
    cfg = shared_buffer_config{};
    cfg.traffic_class_pool_mapping = {0, 1, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(
        any_contains(cfg.validate(), {"Switch.TrafficClassPoolMapping", "9 entries", "exactly 8"}));
    cfg.traffic_class_pool_mapping = {0, 1.5, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(any_contains(cfg.validate(),
                             {"Switch.TrafficClassPoolMapping", "entry 1 is 1.5", "whole"}));
    cfg.traffic_class_pool_mapping = {0, 8, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(
        any_contains(cfg.validate(), {"Switch.TrafficClassPoolMapping", "entry 1 is 8", "0 to 7"}));
    cfg = shared_buffer_config{};
    cfg.pool_allocation_map = {1};
    EXPECT_TRUE(any_contains(cfg.validate(), {"Switch.PoolAllocationMap", "1 entries", "pool"}));
    cfg.pool_allocation_map = {0.9, 0.1, 0, 0, 0, 0, 0, std::nan("")};
    EXPECT_TRUE(any_contains(cfg.validate(), {"Switch.PoolAllocationMap", "entry 7 is nan"}));
    EXPECT_EQ(shared_buffer_config{}.validate().size(), 0u);
}

TEST(shared_buffer_config, pool_allocation_map_value_rules)
{
    shared_buffer_config cfg;
    cfg.pool_allocation_map = {0, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(any_contains(cfg.validate(), {"Switch.PoolAllocationMap", "no non-zero entry"}));
    // Over 1 by more than the last non-zero entry: 0.7 + 0.6 + 0.1 = 1.4, excess 0.4 > 0.1.
    cfg.pool_allocation_map = {0.7, 0.6, 0.1, 0, 0, 0, 0, 0};
    const auto errs = cfg.validate();
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_TRUE(any_contains(errs, {"Switch.PoolAllocationMap", "sums to 1.4", "(0.1)"}));
    EXPECT_THROW(derive_shared_buffer_layout(cfg, 128), std::invalid_argument);
    // Over by no more than the last entry is accepted (the last pool absorbs it), as is a map
    // whose earlier entries reach exactly 1.
    cfg.pool_allocation_map = {0.9, 0.2, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(cfg.validate().empty());
    cfg.pool_allocation_map = {0.5, 0.5, 0.1, 0, 0, 0, 0, 0};
    EXPECT_TRUE(cfg.validate().empty());
    EXPECT_EQ(derive_shared_buffer_layout(cfg, 128).pools[2].bytes, 0u);
    cfg.pool_allocation_map = {0.9, 1.1, 0, 0, 0, 0, 0, 0};
    EXPECT_TRUE(any_contains(cfg.validate(), {"Switch.PoolAllocationMap", "entry 1 is 1.1"}));
}

TEST(shared_buffer_config, headroom_larger_than_the_buffer_stops)
{
    const shared_buffer_config cfg;
    // 256,000 x 1,000 = 256,000,000 is not larger than the buffer; 1,001 ports are.
    EXPECT_TRUE(cfg.validate(1000).empty());
    EXPECT_EQ(derive_shared_buffer_layout(cfg, 1000).sizing_total_bytes, 0u);
    const auto errs = cfg.validate(1001);
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_TRUE(
        any_contains(errs, {"Switch.HeadRoomPerPortLimit 256000 B", "1001 connected", "256256000 B",
                            "Switch.TotalSharedBufferSize 256000000 B", "at most", "255744 B"}));
    EXPECT_TRUE(cfg.validate().empty());  // the port-free form cannot apply it
    EXPECT_THROW(derive_shared_buffer_layout(cfg, 1001), std::invalid_argument);
}

TEST(shared_buffer_config, trimming_excludes_pfc_and_ranges)
{
    shared_buffer_config cfg;
    cfg.uet_policy_enabled = true;
    cfg.trimming_enabled = true;
    EXPECT_TRUE(any_contains(cfg.validate(),
                             {"Switch.EnablePFC", "Switch.TrimmingEnabled", "all entries 0"}));
    cfg = shared_buffer_config{};
    cfg.lossy_alpha = -0.5;
    EXPECT_TRUE(any_contains(cfg.validate(), {"Switch.LossyAlpha -0.5", "outside 0"}));
    cfg = shared_buffer_config{};
    cfg.total_shared_buffer_size_bytes = 4'294'967'296ull;
    EXPECT_TRUE(
        any_contains(cfg.validate(), {"Switch.TotalSharedBufferSize 4294967296 B", "4294967295"}));
    cfg = shared_buffer_config{};
    cfg.queue_drop_threshold = 0;
    EXPECT_TRUE(any_contains(cfg.validate(), {"Switch.QueueDropThreshold 0", "1 to 1000"}));
    // Xon at or above Xoff is allowed (it only removes the hysteresis band).
    cfg = shared_buffer_config{};
    cfg.static_pool_xon_threshold_bytes = cfg.static_pool_xoff_threshold_bytes;
    EXPECT_TRUE(cfg.validate(128).empty());
}

TEST(shared_buffer_config, parses_list_attributes_with_or_without_brackets)
{
    std::vector<double> v;
    std::string err;
    ASSERT_TRUE(parse_shared_buffer_list("Switch.PoolAllocationMap", "[0.9, 0.1, 0, 0, 0, 0, 0, 0]",
                                         v, err));
    EXPECT_EQ(v, (std::vector<double>{0.9, 0.1, 0, 0, 0, 0, 0, 0}));
    ASSERT_TRUE(parse_shared_buffer_list("Switch.EnablePFC", "1,1,0,0,0,0,0,0", v, err));
    EXPECT_EQ(v.size(), 8u);
    EXPECT_FALSE(parse_shared_buffer_list("Switch.PoolAllocationMap", "0.9, x, 0", v, err));
    EXPECT_NE(err.find("Switch.PoolAllocationMap entry 1 \"x\" is not a number"),
              std::string::npos);
    EXPECT_FALSE(parse_shared_buffer_list("Switch.EnablePFC", "1,,0", v, err));
    EXPECT_NE(err.find("entry 1"), std::string::npos);
}
