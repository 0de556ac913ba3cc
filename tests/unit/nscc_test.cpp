// Pure-logic tests of NSCC (hw/nic/uet/nscc.*); no SystemC kernel. Expected values are worked
// out by hand in the comments from the congestion control page's rules and the htsim gain
// formulas (docs/nscc.md), never by calling the code under test.
//
// Defaults used throughout: 400 Gbps, InitialBaseRTT 6 us, nominal packet 4,184 B, BDP
// 300,000 B, max window 450,000 B, target 6 us, DelayAlpha 0.25, Gamma 0.8, gains
// fair = 5 x 4096 = 20,480 B, eta = 0.15 x 4096 = 614.4 B, alpha = 4 x 4096 / 6 us,
// fast = 0.25, adjust after 8 x 4,184 = 33,472 acked bytes or one InitialBaseRTT.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "hw/nic/uet/nscc.h"

using namespace uetsim;

namespace {

constexpr double us = 1e-6;
constexpr uint32_t pkt = 4184;  // nominal packet at RdmaDataMSS 4096
constexpr double tol = 1e-6;    // bytes

nscc_ack_info ack(uint64_t acked, std::optional<double> rtt_s, bool ecn = false,
                  uint64_t inflight = 200'000)
{
    nscc_ack_info a;
    a.acked_bytes = acked;
    a.rtt_s = rtt_s;
    a.ecn_echo = ecn;
    a.inflight_bytes = inflight;
    return a;
}

// Lowers the window by `n` timer expiries of one nominal packet each.
void timeouts(nscc& cc, int n)
{
    for (int i = 0; i < n; ++i) cc.on_timeout(pkt);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The page's "Worked example: the defaults".

TEST(nscc, worked_example_defaults)
{
    nscc_config cfg;
    // nominal packet = 4,096 + 44 + 16 + 8 + 20 = 4,184 B
    EXPECT_EQ(cfg.nominal_packet_bytes(), 4184u);

    nscc cc(cfg);
    // BDP = 400 Gbps x 6 us / 8 = 300,000 B; max = 1.5 x BDP = 450,000 B; start at max.
    EXPECT_NEAR(cc.bdp_bytes(), 300'000.0, tol);
    EXPECT_DOUBLE_EQ(cc.max_cwnd_bytes(), 450'000.0);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 450'000.0);
    // 450,000 / 4,184 = 107.55 packets; the default MaxCongestionWindow is that rounded down.
    EXPECT_NEAR(cc.max_cwnd_bytes() / pkt, 107.55, 0.005);
    EXPECT_EQ(uint32_t(cc.max_cwnd_bytes() / pkt), cfg.max_congestion_window);

    // Target 6 us; Quick Adapt: threshold 24 us, window 6 + 6 = 12 us, gate 450,000 / 2^3 =
    // 56,250 B (about 13.4 packets).
    EXPECT_DOUBLE_EQ(cc.target_delay_s(), 6 * us);
    EXPECT_DOUBLE_EQ(cfg.quick_adapt_threshold_s, 24 * us);
    EXPECT_DOUBLE_EQ(cfg.quick_adapt_threshold_s, 4 * cc.target_delay_s());
    EXPECT_NEAR(cc.quick_adapt_window_s(), 12 * us, 1e-15);
    EXPECT_DOUBLE_EQ(cc.quick_adapt_gate_bytes(), 56'250.0);
    EXPECT_NEAR(cc.quick_adapt_gate_bytes() / pkt, 13.4, 0.05);

    // With OverrideUetSpecMaxCWind: 107 x 4,184 = 447,688 B, also the starting window.
    nscc_config ov = cfg;
    ov.override_uet_spec_max_cwnd = true;
    nscc cc_ov(ov);
    EXPECT_DOUBLE_EQ(cc_ov.max_cwnd_bytes(), 447'688.0);
    EXPECT_DOUBLE_EQ(cc_ov.cwnd_bytes(), 447'688.0);

    // With trimming: target 0.75 x 6 = 4.5 us, window 6 + 4.5 = 10.5 us.
    nscc_config tr = cfg;
    tr.trimming_enabled = true;
    nscc cc_tr(tr);
    EXPECT_NEAR(cc_tr.target_delay_s(), 4.5 * us, 1e-15);
    EXPECT_NEAR(cc_tr.quick_adapt_window_s(), 10.5 * us, 1e-15);

    // Receiver penalty band on the default 0.9 x 4,000,000 = 3,600,000 B data pool:
    // 900,000 B = 25 % -> 0 (penalty starts), 2,700,000 B = 75 % -> 127 (full).
    const double pool = 0.9 * 4'000'000;
    EXPECT_EQ(receiver_penalty(100.0 * 900'000 / pool, cfg.receiver_congestion_low_threshold,
                               cfg.receiver_congestion_high_threshold),
              0);
    EXPECT_EQ(receiver_penalty(100.0 * 2'700'000 / pool, cfg.receiver_congestion_low_threshold,
                               cfg.receiver_congestion_high_threshold),
              127);
    // Between the two, linear: 26 % -> 127 x 1 / 50 = 2.54 -> 2.
    EXPECT_EQ(receiver_penalty(26.0, 25.0, 75.0), 2);
}

TEST(nscc, defaults_and_gains)
{
    nscc_config cfg;
    EXPECT_FALSE(cfg.pass_through);
    EXPECT_TRUE(cfg.nscc_enable);
    EXPECT_DOUBLE_EQ(cfg.reference_network_rtt_s, 6 * us);
    EXPECT_DOUBLE_EQ(cfg.reference_network_link_speed_bps, 400e9);
    EXPECT_DOUBLE_EQ(cfg.target_queue_delay_s, 4.5 * us);
    EXPECT_DOUBLE_EQ(cfg.target_queue_delay_margin_s, 1 * us);
    EXPECT_EQ(cfg.quick_adapt_gate, 3u);
    EXPECT_DOUBLE_EQ(cfg.max_multiplicative_decrease_jump, 0.5);
    EXPECT_DOUBLE_EQ(cfg.alpha_multiplier, 4.0);
    EXPECT_DOUBLE_EQ(cfg.fair_increase_multiplier, 5.0);
    EXPECT_DOUBLE_EQ(cfg.fast_increase_multiplier, 1.0);
    EXPECT_DOUBLE_EQ(cfg.eta_multiplier, 0.15);
    EXPECT_DOUBLE_EQ(cfg.gamma, 0.8);
    EXPECT_DOUBLE_EQ(cfg.delay_alpha, 0.25);
    EXPECT_FALSE(cfg.restore_cwnd_enable);

    // Reference BDP = own BDP: a = 1, b = 6/6 = 1.
    nscc cc(cfg);
    EXPECT_DOUBLE_EQ(cc.gains().scale_a, 1.0);
    EXPECT_DOUBLE_EQ(cc.gains().scale_b, 1.0);
    EXPECT_DOUBLE_EQ(cc.gains().fair, 20'480.0);               // 5 x 4096
    EXPECT_NEAR(cc.gains().eta, 614.4, 1e-9);                  // 0.15 x 4096
    EXPECT_NEAR(cc.gains().alpha, 16'384.0 / (6 * us), 1e-3);  // 4 x 4096 / 6 us
    EXPECT_DOUBLE_EQ(cc.gains().fast, 0.25);
    EXPECT_DOUBLE_EQ(cc.gains().adjust_bytes, 33'472.0);  // 8 x 4,184

    // Reference 100 Gbps x 12 us = 150,000 B: a = 300,000 / 150,000 = 2, b = 6 / 12 = 0.5;
    // fair = 5 x 4096 x 2 = 40,960; eta = 0.15 x 4096 x 2 = 1,228.8;
    // alpha = 4 x 4096 x 2 x 0.5 / 6 us (unchanged); fast is not normalized: 0.25.
    nscc_config ref = cfg;
    ref.reference_network_rtt_s = 12 * us;
    ref.reference_network_link_speed_bps = 100e9;
    nscc cr(ref);
    EXPECT_NEAR(cr.gains().scale_a, 2.0, 1e-12);
    EXPECT_NEAR(cr.gains().scale_b, 0.5, 1e-12);
    EXPECT_NEAR(cr.gains().fair, 40'960.0, 1e-6);
    EXPECT_NEAR(cr.gains().eta, 1'228.8, 1e-6);
    EXPECT_NEAR(cr.gains().alpha, 16'384.0 / (6 * us), 1e-3);
    EXPECT_DOUBLE_EQ(cr.gains().fast, 0.25);
    // The reference changes neither the target nor the max window.
    EXPECT_DOUBLE_EQ(cr.target_delay_s(), 6 * us);
    EXPECT_DOUBLE_EQ(cr.max_cwnd_bytes(), 450'000.0);

    // The link rate counts in whole Gbps: 400.7 Gbps -> 400 Gbps -> 450,000 B.
    nscc_config odd = cfg;
    odd.link_rate_bps = 400.7e9;
    EXPECT_DOUBLE_EQ(nscc(odd).max_cwnd_bytes(), 450'000.0);
}

// ---------------------------------------------------------------------------------------------
// Target queue delay table.

TEST(nscc, target_table)
{
    nscc_config cfg;
    cfg.initial_base_rtt_s = 8 * us;
    cfg.target_queue_delay_s = 3 * us;
    // trimming off, no override -> InitialBaseRTT = 8 us
    EXPECT_DOUBLE_EQ(nscc(cfg).target_delay_s(), 8 * us);
    // trimming on, no override -> 0.75 x 8 = 6 us
    cfg.trimming_enabled = true;
    EXPECT_DOUBLE_EQ(nscc(cfg).target_delay_s(), 6 * us);
    // override, either trimming -> TargetQueueDelay = 3 us
    cfg.override_spec_target_queue_delay = true;
    EXPECT_DOUBLE_EQ(nscc(cfg).target_delay_s(), 3 * us);
    cfg.trimming_enabled = false;
    EXPECT_DOUBLE_EQ(nscc(cfg).target_delay_s(), 3 * us);
}

// ---------------------------------------------------------------------------------------------
// The four routines, each on one ACK. Window first lowered by 10 timeouts to
// 450,000 - 10 x 4,184 = 408,160 B. The ACK acks 10 packets = 41,840 B, more than the
// 33,472-byte adjust threshold, so its increase is applied on the same ACK; the adjust clock
// starts with this first ACK, so no eta is added.

TEST(nscc, routine_fair_increase)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 10);
    ASSERT_DOUBLE_EQ(cc.cwnd_bytes(), 408'160.0);
    // Unmarked, RTT 14 us: delay 14 - 6 = 8 us >= target 6 us -> fair increase.
    // inc = 20,480 x 41,840 = 856,883,200; cwnd += 856,883,200 / 408,160 = 2,099.3806...
    cc.on_ack(ack(41'840, 14 * us), 10 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::fair_increase);
    EXPECT_NEAR(cc.last_delay_sample_s(), 8 * us, 1e-15);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 2 * us, 1e-15);  // 0.25 x 8 + 0.75 x 0
    EXPECT_NEAR(cc.cwnd_bytes(), 408'160.0 + 856'883'200.0 / 408'160.0, tol);
    EXPECT_NEAR(cc.cwnd_bytes(), 410'259.3806, 1e-3);
    EXPECT_EQ(cc.counters().fair_increases, 1u);
}

TEST(nscc, routine_proportional_increase)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 10);
    // Unmarked, RTT 8 us: delay 2 us, below target and not below the 1 us margin.
    // inc = (4 x 4096 / 6 us) x 41,840 x (6 - 2) us = 16,384 x 41,840 x 4/6 = 457,004,373.33
    // cwnd += 457,004,373.33 / 408,160 = 1,119.6697
    cc.on_ack(ack(41'840, 8 * us), 10 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::proportional_increase);
    EXPECT_NEAR(cc.cwnd_bytes(), 408'160.0 + 16'384.0 * 41'840.0 * 4.0 / 6.0 / 408'160.0, tol);
    EXPECT_NEAR(cc.cwnd_bytes(), 409'279.6697, 1e-3);
    EXPECT_FALSE(cc.fast_increase_active());
}

TEST(nscc, routine_multiplicative_decrease)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 10);
    // ECN, RTT 46 us: delay 40 us >= target; average 0.25 x 40 = 10 us > 6 us.
    // factor = max(1 - 0.8 x (10 - 6) / 10, 0.5) = 0.68; cwnd = 408,160 x 0.68 = 277,548.8
    cc.on_ack(ack(41'840, 46 * us, true), 10 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::multiplicative_decrease);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 10 * us, 1e-15);
    EXPECT_NEAR(cc.cwnd_bytes(), 277'548.8, tol);
    EXPECT_EQ(cc.multiplicative_decrease_count(), 1u);
}

TEST(nscc, routine_none_for_ecn_below_target)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 10);
    // ECN, RTT 8 us: delay 2 us < target -> no routine; window unchanged.
    cc.on_ack(ack(41'840, 8 * us, true), 10 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::none);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 408'160.0);
    EXPECT_EQ(cc.multiplicative_decrease_count(), 0u);
}

TEST(nscc, delay_alone_does_not_shrink_the_window)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 10);
    // Unmarked ACKs with a 20 us delay (average stays below 24 us: 5, 8.75, 11.56 us): fair
    // increase every time, never a decrease.
    double before = cc.cwnd_bytes();
    for (int i = 0; i < 3; ++i) {
        cc.on_ack(ack(41'840, 26 * us), (10 + i) * us);
        EXPECT_EQ(cc.last_action(), nscc_action::fair_increase);
        EXPECT_GT(cc.cwnd_bytes(), before);
        before = cc.cwnd_bytes();
    }
}

// ---------------------------------------------------------------------------------------------
// Multiplicative decrease: only with average > target, at most once per base RTT, floor 0.5.

TEST(nscc, multiplicative_decrease_spacing_and_floor)
{
    nscc_config cfg;
    cfg.eta_multiplier = 0.0;  // isolate the decrease from the additive term
    nscc cc(cfg);
    // ECN ACKs, RTT 36 us: delay 30 us each.
    // t=10 us: avg = 0.25 x 30 = 7.5 us; factor = 1 - 0.8 x 1.5 / 7.5 = 0.84
    //          -> 450,000 x 0.84 = 378,000
    cc.on_ack(ack(pkt, 36 * us, true), 10 * us);
    EXPECT_NEAR(cc.cwnd_bytes(), 378'000.0, tol);
    EXPECT_EQ(cc.multiplicative_decrease_count(), 1u);
    // t=12 us: 2 us after the last decrease (< base RTT 6 us): no cut.
    //          avg = 7.5 + 0.75 x 7.5 = 13.125 us
    cc.on_ack(ack(pkt, 36 * us, true), 12 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::multiplicative_decrease);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 13.125 * us, 1e-15);
    EXPECT_NEAR(cc.cwnd_bytes(), 378'000.0, tol);
    EXPECT_EQ(cc.multiplicative_decrease_count(), 1u);
    // t=16.5 us: 6.5 us later (> 6 us): avg = 7.5 + 0.75 x 13.125 = 17.34375 us;
    //          1 - 0.8 x 11.34375 / 17.34375 = 0.4768 < 0.5 -> floor 0.5 -> 189,000
    cc.on_ack(ack(pkt, 36 * us, true), 16.5 * us);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 17.34375 * us, 1e-15);
    EXPECT_NEAR(cc.cwnd_bytes(), 189'000.0, tol);
    EXPECT_EQ(cc.multiplicative_decrease_count(), 2u);
}

TEST(nscc, multiplicative_decrease_needs_average_above_target)
{
    nscc cc{nscc_config{}};
    // ECN, RTT 20 us: delay 14 us >= target, but avg = 0.25 x 14 = 3.5 us <= 6 us: no cut.
    cc.on_ack(ack(pkt, 20 * us, true), 10 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::multiplicative_decrease);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 450'000.0);
    EXPECT_EQ(cc.multiplicative_decrease_count(), 0u);
}

TEST(nscc, max_multiplicative_decrease_jump_sets_the_floor)
{
    nscc_config cfg;
    cfg.max_multiplicative_decrease_jump = 0.9;
    cfg.eta_multiplier = 0.0;
    nscc cc(cfg);
    // avg 10 us as in routine_multiplicative_decrease: 0.68 < 0.9 -> 450,000 x 0.9 = 405,000
    cc.on_ack(ack(pkt, 46 * us, true), 10 * us);
    EXPECT_NEAR(cc.cwnd_bytes(), 405'000.0, tol);
}

// ---------------------------------------------------------------------------------------------
// Fast increase.

TEST(nscc, fast_increase_engages_and_ends)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 50);  // 450,000 - 209,200 = 240,800
    ASSERT_DOUBLE_EQ(cc.cwnd_bytes(), 240'800.0);
    // ACK1, delay 0.5 us (< 1 us margin), 200,000 B: count 200,000 <= 240,800 -> proportional:
    // inc = 16,384 / 6 us x 200,000 x 5.5 us = 3,003,733,333.33; / 240,800 = 12,473.9756
    cc.on_ack(ack(200'000, 6.5 * us), 10 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::proportional_increase);
    const double w1 = 240'800.0 + 16'384.0 * 200'000.0 * 5.5 / 6.0 / 240'800.0;
    EXPECT_NEAR(cc.cwnd_bytes(), w1, tol);
    EXPECT_NEAR(w1, 253'273.9756, 1e-3);
    // ACK2, delay 0.5 us, 60,000 B: count 260,000 > 253,273.98 -> fast: += 60,000 x 0.25
    cc.on_ack(ack(60'000, 6.5 * us), 11 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::fast_increase);
    EXPECT_TRUE(cc.fast_increase_active());
    EXPECT_NEAR(cc.cwnd_bytes(), w1 + 15'000.0, tol);
    // ACK3, unmarked, delay 8 us >= target: fair increase; fast increase stays engaged.
    cc.on_ack(ack(pkt, 14 * us), 12 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::fair_increase);
    EXPECT_TRUE(cc.fast_increase_active());
    // ACK4, delay 0.5 us: fast again, += 4,184 x 0.25 = 1,046. ACK3's fair increase is still
    // pending: 8,368 B acked since the last adjustment, 3 us into the 6 us period (the period
    // clock started at ACK1 and only eta restarts it).
    cc.on_ack(ack(pkt, 6.5 * us), 13 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::fast_increase);
    EXPECT_NEAR(cc.cwnd_bytes(), w1 + 15'000.0 + 1'046.0, tol);
    // ACK5, delay 2 us (between the margin and the target): fast ends, proportional instead.
    cc.on_ack(ack(pkt, 8 * us), 14 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::proportional_increase);
    EXPECT_FALSE(cc.fast_increase_active());
    EXPECT_EQ(cc.counters().fast_increases, 2u);
}

TEST(nscc, fast_increase_ends_on_ecn_at_or_above_target_and_never_passes_max)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 50);
    cc.on_ack(ack(200'000, 6.5 * us), 10 * us);
    cc.on_ack(ack(60'000, 6.5 * us), 11 * us);
    ASSERT_TRUE(cc.fast_increase_active());
    // ECN, delay 8 us >= target -> multiplicative decrease routine ends fast increase (the
    // average, about 2.2 us, is below the target, so there is no cut).
    const double w = cc.cwnd_bytes();
    cc.on_ack(ack(pkt, 14 * us, true), 12 * us);
    EXPECT_FALSE(cc.fast_increase_active());
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), w);
    // The count restarted: 4,184 B below the margin is far from a window -> proportional.
    cc.on_ack(ack(pkt, 6.5 * us), 13 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::proportional_increase);

    // From near the max: fast increase stops at 450,000.
    nscc top{nscc_config{}};
    timeouts(top, 1);                             // 445,816
    top.on_ack(ack(446'000, 6.5 * us), 10 * us);  // count 446,000 > 445,816 -> fast
    EXPECT_EQ(top.last_action(), nscc_action::fast_increase);
    EXPECT_DOUBLE_EQ(top.cwnd_bytes(), 450'000.0);
}

// ---------------------------------------------------------------------------------------------
// Additive term.

TEST(nscc, eta_once_per_adjust_period)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 10);  // 408,160
    // Two ACKs of one packet, delay 2 us: proportional, each inc = 16,384 x 4,184 x 4/6
    // = 45,700,437.33. ACK1 (t=10 us) starts the adjust clock and applies nothing.
    cc.on_ack(ack(pkt, 8 * us), 10 * us);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 408'160.0);
    // ACK2 at 16.5 us: 6.5 us > 6 us since the last adjustment -> cwnd += 2 x inc / 408,160
    // = 223.9339, plus eta 614.4 -> 408,998.3339
    cc.on_ack(ack(pkt, 8 * us), 16.5 * us);
    EXPECT_NEAR(cc.cwnd_bytes(),
                408'160.0 + 2.0 * 16'384.0 * 4'184.0 * 4.0 / 6.0 / 408'160.0 + 614.4, tol);
    EXPECT_NEAR(cc.cwnd_bytes(), 408'998.3339, 1e-3);
    // ACK3 1 us later: one packet, period not elapsed -> nothing applied.
    const double w = cc.cwnd_bytes();
    cc.on_ack(ack(pkt, 8 * us), 17.5 * us);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), w);
}

// ---------------------------------------------------------------------------------------------
// Base RTT.

TEST(nscc, base_rtt_lowers_only_by_more_than_the_margin)
{
    nscc cc{nscc_config{}};
    // 5.5 us is only 0.5 us below 6 us: base unchanged, delay sample max(0, 5.5 - 6) = 0.
    cc.on_ack(ack(pkt, 5.5 * us), 1 * us);
    EXPECT_DOUBLE_EQ(cc.base_rtt_s(), 6 * us);
    EXPECT_DOUBLE_EQ(cc.last_delay_sample_s(), 0.0);
    // Probe 4 us < 6 - 1 us: base = 4 + 1 = 5 us; max = 1.5 x 400 Gbps x 5 us / 8 = 375,000;
    // the window 450,000 comes down to it.
    cc.on_probe_rtt(4 * us);
    EXPECT_NEAR(cc.base_rtt_s(), 5 * us, 1e-15);
    EXPECT_DOUBLE_EQ(cc.delay_reference_s(), 4 * us);
    EXPECT_DOUBLE_EQ(cc.max_cwnd_bytes(), 375'000.0);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 375'000.0);
    // Target and gains keep their InitialBaseRTT values; the Quick Adapt window (5 + 6 = 11 us)
    // and gate (375,000 / 8 = 46,875) follow the new base.
    EXPECT_DOUBLE_EQ(cc.target_delay_s(), 6 * us);
    EXPECT_DOUBLE_EQ(cc.gains().fair, 20'480.0);
    EXPECT_NEAR(cc.quick_adapt_window_s(), 11 * us, 1e-15);
    EXPECT_DOUBLE_EQ(cc.quick_adapt_gate_bytes(), 46'875.0);
    // ACK RTT 3.5 us < 5 - 1 = 4 us: base 4.5 us, max 1.5 x 400 Gbps x 4.5 us / 8 = 337,500.
    cc.on_ack(ack(pkt, 3.5 * us), 2 * us);
    EXPECT_NEAR(cc.base_rtt_s(), 4.5 * us, 1e-15);
    EXPECT_DOUBLE_EQ(cc.max_cwnd_bytes(), 337'500.0);
    EXPECT_DOUBLE_EQ(cc.last_delay_sample_s(), 0.0);
    // Probe 3.6 us is not below 4.5 - 1 = 3.5 us: no change. The base never rises.
    cc.on_probe_rtt(3.6 * us);
    cc.on_probe_rtt(50 * us);
    EXPECT_NEAR(cc.base_rtt_s(), 4.5 * us, 1e-15);
    EXPECT_EQ(cc.counters().base_rtt_updates, 2u);
    // Delay samples are measured from the RTT that lowered the base (3.5 us), not from the base
    // (4.5 us): RTT 4 us -> 0.5 us.
    cc.on_ack(ack(pkt, 4 * us), 3 * us);
    EXPECT_NEAR(cc.last_delay_sample_s(), 0.5 * us, 1e-15);
}

TEST(nscc, base_rtt_rederives_max_window_over_the_override)
{
    nscc_config cfg;
    cfg.override_uet_spec_max_cwnd = true;
    cfg.max_congestion_window = 10;  // 41,840 B
    nscc cc(cfg);
    EXPECT_DOUBLE_EQ(cc.max_cwnd_bytes(), 41'840.0);
    // Probe 4 us: max = 1.5 x 400 Gbps x 5 us / 8 = 375,000; the override no longer applies;
    // the window is only ever lowered by this, so it stays at 41,840.
    cc.on_probe_rtt(4 * us);
    EXPECT_DOUBLE_EQ(cc.max_cwnd_bytes(), 375'000.0);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 41'840.0);
}

TEST(nscc, trim_nack_rtt_sample_feeds_the_base_rtt)
{
    nscc cc{nscc_config{}};
    cc.on_trim_nack(1 * us, 4 * us, pkt, 100'000);
    EXPECT_NEAR(cc.base_rtt_s(), 5 * us, 1e-15);
    // max 375,000; then the trim takes one packet: 375,000 - 4,184 = 370,816
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 370'816.0);
}

// ---------------------------------------------------------------------------------------------
// Quick Adapt. Unmarked ACKs with RTT 106 us: delay 100 us. Averages: 25, 43.75, 57.8125 us.

TEST(nscc, quick_adapt_fires_on_delay)
{
    nscc cc{nscc_config{}};
    // t=1 us opens the first observation window, to 1 + 12 = 13 us.
    cc.on_ack(ack(pkt, 106 * us), 1 * us);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 25 * us, 1e-15);
    cc.on_ack(ack(2 * pkt, 106 * us), 5 * us);
    // t=12.9 us: still inside the window: no check, although avg 43.75 us > 24 us.
    cc.on_ack(ack(0, 106 * us), 12.9 * us);
    EXPECT_EQ(cc.quick_adapt_count(), 0u);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 450'000.0);
    // t=14 us: window over; acked in it 8,368 + 0 + 4,184 = 12,552 < 56,250 and the average
    // is above 24 us -> window = 12,552.
    cc.on_ack(ack(pkt, 106 * us, false, 150'000), 14 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::quick_adapt);
    EXPECT_EQ(cc.quick_adapt_count(), 1u);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 12'552.0);
    EXPECT_TRUE(cc.ignoring_signals());

    // Until 150,000 bytes (in flight at the cut) are acked or trimmed, ECN ACKs and trims are
    // ignored.
    cc.on_ack(ack(pkt, 106 * us, true), 15 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::signal_ignored);
    cc.on_trim_nack(16 * us, std::nullopt, pkt, 140'000);
    EXPECT_EQ(cc.last_action(), nscc_action::signal_ignored);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 12'552.0);
    EXPECT_EQ(cc.counters().trim_decreases, 0u);

    // An unmarked ACK still increases: fair, inc = 20,480 x 4,184 = 85,688,320 (the cut threw
    // away what was pending). The last adjustment was at 12.9 us (more than 6 us after the
    // clock started at 1 us); at 19 us, 6.1 us later, the increase is applied with eta:
    // 12,552 + 85,688,320 / 12,552 + 614.4 = 12,552 + 6,826.667 + 614.4 = 19,993.067
    cc.on_ack(ack(pkt, 106 * us), 19 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::fair_increase);
    EXPECT_NEAR(cc.cwnd_bytes(), 12'552.0 + 85'688'320.0 / 12'552.0 + 614.4, tol);

    // Two ACKs and one trim of 4,184 B have counted 12,552 B toward the 150,000; 140,000 more
    // complete it, and ECN is heard again.
    cc.on_ack(ack(140'000, 106 * us), 20 * us);
    EXPECT_FALSE(cc.ignoring_signals());
}

TEST(nscc, quick_adapt_gate_blocks_firing)
{
    // Acked in the window exactly 56,250 B: not below the gate -> no firing.
    nscc cc{nscc_config{}};
    cc.on_ack(ack(pkt, 106 * us), 1 * us);
    cc.on_ack(ack(56'250 - pkt, 106 * us), 5 * us);
    cc.on_ack(ack(pkt, 106 * us), 14 * us);
    EXPECT_EQ(cc.quick_adapt_count(), 0u);
    EXPECT_NE(cc.last_action(), nscc_action::quick_adapt);
    EXPECT_GT(cc.avg_queue_delay_s(), 24 * us);

    // One byte less: 56,249 < 56,250 -> fires, window 56,249.
    nscc c2{nscc_config{}};
    c2.on_ack(ack(pkt, 106 * us), 1 * us);
    c2.on_ack(ack(56'249 - pkt, 106 * us), 5 * us);
    c2.on_ack(ack(pkt, 106 * us), 14 * us);
    EXPECT_EQ(c2.quick_adapt_count(), 1u);
    EXPECT_DOUBLE_EQ(c2.cwnd_bytes(), 56'249.0);
}

TEST(nscc, quick_adapt_needs_a_trigger)
{
    // Delay 24 us each: average 6, 10.5, 13.875 us, never above 24 us; no trim -> no firing
    // although only 12,552 B were acked.
    nscc cc{nscc_config{}};
    cc.on_ack(ack(pkt, 30 * us), 1 * us);
    cc.on_ack(ack(2 * pkt, 30 * us), 5 * us);
    cc.on_ack(ack(pkt, 30 * us), 14 * us);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 13.875 * us, 1e-15);
    EXPECT_EQ(cc.quick_adapt_count(), 0u);

    // DisableQuickAdapt: the delay trigger of quick_adapt_fires_on_delay does nothing.
    nscc_config off;
    off.disable_quick_adapt = true;
    nscc c2(off);
    c2.on_ack(ack(pkt, 106 * us), 1 * us);
    c2.on_ack(ack(2 * pkt, 106 * us), 5 * us);
    c2.on_ack(ack(pkt, 106 * us), 14 * us);
    EXPECT_EQ(c2.quick_adapt_count(), 0u);
    EXPECT_DOUBLE_EQ(c2.cwnd_bytes(), 450'000.0);
}

TEST(nscc, quick_adapt_with_trimming_only_trims_trigger)
{
    nscc_config cfg;
    cfg.trimming_enabled = true;  // target 4.5 us, window 6 + 4.5 = 10.5 us
    nscc cc(cfg);
    // Opens at 1 us, ends 11.5 us. Average far above 24 us, but the delay trigger is off.
    cc.on_ack(ack(pkt, 106 * us), 1 * us);
    cc.on_ack(ack(pkt, 106 * us), 12 * us);
    EXPECT_EQ(cc.quick_adapt_count(), 0u);
    // The next window runs to 12 + 10.5 = 22.5 us. A trim NACK at 23 us triggers it: acked in
    // the window 0 -> window max(0, 4,184) = 4,184, and the trim takes nothing more off.
    cc.on_trim_nack(23 * us, std::nullopt, pkt, 100'000);
    EXPECT_EQ(cc.quick_adapt_count(), 1u);
    EXPECT_EQ(cc.last_action(), nscc_action::quick_adapt);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 4'184.0);
}

// ---------------------------------------------------------------------------------------------
// Loss reactions.

TEST(nscc, trim_nack_reduces_then_triggers_quick_adapt)
{
    nscc cc{nscc_config{}};
    // t=1 us: first event opens the window (to 13 us). avg = 0.25 x 6 us = 1.5 us;
    // window 450,000 - 4,184 = 445,816.
    cc.on_trim_nack(1 * us, std::nullopt, pkt, 100'000);
    EXPECT_EQ(cc.last_action(), nscc_action::trim_decrease);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 1.5 * us, 1e-15);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 445'816.0);
    // t=5 us: inside the window: another 4,184 off -> 441,632; avg 1.5 + 0.75 x 1.5 = 2.625 us
    cc.on_trim_nack(5 * us, std::nullopt, pkt, 100'000);
    EXPECT_NEAR(cc.avg_queue_delay_s(), 2.625 * us, 1e-15);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 441'632.0);
    // t=14 us: window over, trims seen, 0 B acked < 56,250 -> Quick Adapt to one packet (even
    // with TrimmingEnabled false), no further trim reduction.
    cc.on_trim_nack(14 * us, std::nullopt, pkt, 100'000);
    EXPECT_EQ(cc.last_action(), nscc_action::quick_adapt);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 4'184.0);
    EXPECT_EQ(cc.counters().trim_decreases, 2u);

    nscc_config off;
    off.disable_quick_adapt = true;
    nscc c2(off);
    c2.on_trim_nack(1 * us, std::nullopt, pkt, 100'000);
    c2.on_trim_nack(14 * us, std::nullopt, pkt, 100'000);
    EXPECT_DOUBLE_EQ(c2.cwnd_bytes(), 441'632.0);  // 450,000 - 2 x 4,184
}

TEST(nscc, timeout_takes_one_nominal_packet)
{
    nscc cc{nscc_config{}};
    cc.on_timeout(pkt);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 445'816.0);
    cc.on_timeout(1'000);  // a short last packet: 1,000 B nominal
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 444'816.0);
    EXPECT_EQ(cc.last_action(), nscc_action::timeout_decrease);
    EXPECT_EQ(cc.counters().timeout_decreases, 2u);
    EXPECT_EQ(cc.quick_adapt_count(), 0u);
}

TEST(nscc, window_never_below_one_nominal_packet)
{
    nscc cc{nscc_config{}};
    timeouts(cc, 200);  // 450,000 - 836,800 < 4,184 -> 4,184
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 4'184.0);
    cc.on_trim_nack(1 * us, std::nullopt, pkt, 0);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 4'184.0);
    // Halving by multiplicative decrease stays at one packet.
    cc.on_ack(ack(pkt, 106 * us, true), 2 * us);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 4'184.0);
    // One packet always fits in an empty window, never with anything in flight.
    EXPECT_TRUE(cc.window_allows(0, pkt));
    EXPECT_FALSE(cc.window_allows(1, pkt));
}

// ---------------------------------------------------------------------------------------------
// Enforcement, PassThrough and NSCCEnable.

TEST(nscc, window_allows_in_flight_plus_packet_up_to_the_window)
{
    nscc cc{nscc_config{}};
    EXPECT_TRUE(cc.enforced());
    EXPECT_TRUE(cc.window_allows(450'000 - pkt, pkt));  // exactly fits
    EXPECT_FALSE(cc.window_allows(450'000 - pkt + 1, pkt));
    EXPECT_TRUE(cc.fetch_allows(450'000));  // at most the window
    EXPECT_FALSE(cc.fetch_allows(450'001));
}

TEST(nscc, pass_through_computes_but_does_not_enforce)
{
    nscc_config cfg;
    cfg.pass_through = true;
    nscc cc(cfg);
    EXPECT_FALSE(cc.enforced());
    EXPECT_TRUE(cc.window_allows(10'000'000, pkt));
    EXPECT_TRUE(cc.fetch_allows(10'000'000));
    cc.on_timeout(pkt);  // the window still moves
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 445'816.0);
}

TEST(nscc, nscc_disabled_fixes_the_window_at_max)
{
    nscc_config cfg;
    cfg.nscc_enable = false;
    nscc cc(cfg);
    timeouts(cc, 5);
    cc.on_trim_nack(1 * us, std::nullopt, pkt, 100'000);
    for (int i = 0; i < 5; ++i) cc.on_ack(ack(pkt, 106 * us, true), (2 + 13 * i) * us);
    nscc_ack_info pen = ack(pkt, 106 * us);
    pen.receiver_penalty = 127;
    cc.on_ack(pen, 80 * us);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 450'000.0);
    EXPECT_EQ(cc.quick_adapt_count(), 0u);
    EXPECT_DOUBLE_EQ(cc.avg_queue_delay_s(), 0.0);  // not computed
    // Still enforced at the max window.
    EXPECT_TRUE(cc.enforced());
    EXPECT_TRUE(cc.window_allows(450'000 - pkt, pkt));
    EXPECT_FALSE(cc.window_allows(450'000 - pkt + 1, pkt));
    // A lower measured RTT still lowers the max window and the window with it: 375,000.
    cc.on_ack(ack(pkt, 4 * us), 90 * us);
    EXPECT_DOUBLE_EQ(cc.max_cwnd_bytes(), 375'000.0);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 375'000.0);

    // Both off: recorded, not enforced, not moved.
    cfg.pass_through = true;
    nscc both(cfg);
    timeouts(both, 5);
    EXPECT_DOUBLE_EQ(both.cwnd_bytes(), 450'000.0);
    EXPECT_TRUE(both.window_allows(10'000'000, pkt));
}

// ---------------------------------------------------------------------------------------------
// Receiver penalty.

TEST(nscc, receiver_penalty_mapping)
{
    // Below 25 % -> 0; at or above 75 % -> 127; linear, truncated, between.
    EXPECT_EQ(receiver_penalty(0.0, 25.0, 75.0), 0);
    EXPECT_EQ(receiver_penalty(24.9, 25.0, 75.0), 0);
    EXPECT_EQ(receiver_penalty(25.0, 25.0, 75.0), 0);
    EXPECT_EQ(receiver_penalty(30.0, 25.0, 75.0), 12);   // 127 x 5 / 50 = 12.7
    EXPECT_EQ(receiver_penalty(50.0, 25.0, 75.0), 63);   // 127 x 25 / 50 = 63.5
    EXPECT_EQ(receiver_penalty(74.9, 25.0, 75.0), 126);  // 127 x 49.9 / 50 = 126.746
    EXPECT_EQ(receiver_penalty(75.0, 25.0, 75.0), 127);
    EXPECT_EQ(receiver_penalty(100.0, 25.0, 75.0), 127);
    EXPECT_EQ(receiver_penalty(-5.0, 25.0, 75.0), 0);
    EXPECT_EQ(receiver_penalty(150.0, 25.0, 75.0), 127);
    // Other thresholds: 0..100 -> 127 x 40 / 100 = 50.8 at 40 %.
    EXPECT_EQ(receiver_penalty(40.0, 0.0, 100.0), 50);
    // Equal thresholds: a step at the threshold.
    EXPECT_EQ(receiver_penalty(49.0, 50.0, 50.0), 0);
    EXPECT_EQ(receiver_penalty(50.0, 50.0, 50.0), 127);
}

TEST(nscc, receiver_penalty_caps_reduces_and_restores)
{
    nscc cc{nscc_config{}};
    // Penalty 127, 41,840 B acked, 300,000 B still in flight: cap at 300,000, then minus
    // 41,840 x 127 / 127 -> 258,160. The window at the start (450,000) is saved.
    nscc_ack_info a = ack(41'840, std::nullopt, false, 300'000);
    a.receiver_penalty = 127;
    cc.on_ack(a, 1 * us);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 258'160.0);
    // Penalty 64, 12,700 B acked, 250,000 in flight: cap 250,000, minus 12,700 x 64 / 127
    // = 6,400 -> 243,600.
    a = ack(12'700, std::nullopt, false, 250'000);
    a.receiver_penalty = 64;
    cc.on_ack(a, 2 * us);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 243'600.0);
    EXPECT_EQ(cc.counters().penalized_acks, 2u);
    // Penalty back to 0 with the receiver's restore flag: the saved 450,000 comes back.
    a = ack(pkt, std::nullopt, false, 100'000);
    a.restore_cwnd = true;
    cc.on_ack(a, 3 * us);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 450'000.0);
    EXPECT_EQ(cc.counters().cwnd_restores, 1u);

    // Without the restore flag the window stays where the penalty left it.
    nscc c2{nscc_config{}};
    a = ack(41'840, std::nullopt, false, 300'000);
    a.receiver_penalty = 127;
    c2.on_ack(a, 1 * us);
    c2.on_ack(ack(pkt, std::nullopt, false, 100'000), 2 * us);
    EXPECT_DOUBLE_EQ(c2.cwnd_bytes(), 258'160.0);
    // ... and a restore flag after the episode ended has nothing to restore.
    a = ack(pkt, std::nullopt, false, 100'000);
    a.restore_cwnd = true;
    c2.on_ack(a, 3 * us);
    EXPECT_DOUBLE_EQ(c2.cwnd_bytes(), 258'160.0);

    // Never below one packet: 1 in flight, penalty 127.
    nscc c3{nscc_config{}};
    a = ack(41'840, std::nullopt, false, 1);
    a.receiver_penalty = 127;
    c3.on_ack(a, 1 * us);
    EXPECT_DOUBLE_EQ(c3.cwnd_bytes(), 4'184.0);
}

TEST(nscc, receiver_limited_ack_takes_no_increase)
{
    nscc cc{nscc_config{}};
    // Penalty 1 with 400,000 in flight and nothing acked: the window is capped to 400,000.
    // Unmarked, delay 8 us >= target: fair increase is blocked -> no routine.
    nscc_ack_info a = ack(0, 14 * us, false, 400'000);
    a.receiver_penalty = 1;
    cc.on_ack(a, 1 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::none);
    EXPECT_DOUBLE_EQ(cc.cwnd_bytes(), 400'000.0);
    EXPECT_EQ(cc.counters().fair_increases, 0u);
    // ECN-marked receiver-limited ACKs still take multiplicative decrease. The first ACK left
    // avg = 0.25 x 8 = 2 us; delay 40 us -> avg = 0.25 x 40 + 0.75 x 2 = 11.5 us;
    // factor 1 - 0.8 x 5.5 / 11.5 = 0.617391 -> 400,000 x 0.617391 = 246,956.52
    a = ack(0, 46 * us, true, 400'000);
    a.receiver_penalty = 1;
    cc.on_ack(a, 2 * us);
    EXPECT_EQ(cc.last_action(), nscc_action::multiplicative_decrease);
    EXPECT_NEAR(cc.cwnd_bytes(), 400'000.0 * (1.0 - 0.8 * 5.5 / 11.5), tol);
}

// ---------------------------------------------------------------------------------------------
// Configuration checks.

TEST(nscc, config_errors)
{
    nscc_config cfg;
    EXPECT_TRUE(nscc_config_errors(cfg).empty());

    nscc_config bad = cfg;
    bad.quick_adapt_gate = 40;
    auto errs = nscc_config_errors(bad);
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_EQ(errs[0], "QuickAdaptGate: 40 is out of range 0..31");

    bad = cfg;
    bad.initial_base_rtt_s = 0.0;  // target 0, and max window below one packet
    EXPECT_EQ(nscc_config_errors(bad).size(), 2u);
    bad.override_spec_target_queue_delay = true;  // target 4.5 us now; max window still 0
    EXPECT_EQ(nscc_config_errors(bad).size(), 1u);
    bad.override_uet_spec_max_cwnd = true;  // the max window comes from MaxCongestionWindow
    EXPECT_TRUE(nscc_config_errors(bad).empty());

    // 1.5 x 400 Gbps x 50 ns / 8 = 3,750 B < 4,184 B; 60 ns gives 4,500 B.
    bad = cfg;
    bad.initial_base_rtt_s = 50e-9;
    EXPECT_EQ(nscc_config_errors(bad).size(), 1u);
    bad.initial_base_rtt_s = 60e-9;
    EXPECT_TRUE(nscc_config_errors(bad).empty());

    bad = cfg;
    bad.reference_network_link_speed_bps = 0.5e9;
    bad.link_rate_bps = 0.9e9;
    bad.gamma = 0.0;
    bad.delay_alpha = 1.5;
    // Five: the two ranges, both rates below 1 Gbps, and a 0 Gbps link (0.9 Gbps counted in
    // whole Gbps) gives a max window below one packet.
    EXPECT_EQ(nscc_config_errors(bad).size(), 5u);
}
