// Pure-logic tests of one queue pair's rate control loop (hw/nic/roce/dcqcn_rate.*); no SystemC
// kernel. Expected values are worked out by hand in the comments from the RoCE congestion-control
// page's stages and worked example, and the DCQCN choices of docs/roce-nic.md
// (sample = CNPs / packets of the interval, capped at 1, a CNP with no packet = 1; estimate
// starts at 1; cut = current x (1 - estimate / 2)), never by calling the code under test.
//
// Defaults: 400 Gbps line rate, 45 us interval (22.5 us per half), additive step
// 400 x (1 - 0.90) / 10 = 4 Gbps, floor 400 x 0.10 = 40 Gbps, FastRecoveryAttempt 3,
// NumOfControlLoopsPerIncrease 5, CongestionProbabilityWeight 0.5.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "hw/nic/roce/dcqcn_rate.h"

using namespace uetsim;

namespace {

constexpr double G = 1e9;
constexpr double line = 400 * G;
constexpr double tol = 1e-3;      // bps
constexpr double half_us = 22.5;  // ControlIntervalDurationNs 45000 / 2

// Runs `n` halves with no CNP; returns false if the episode ended on one of them.
bool quiet_halves(dcqcn_rate& r, int n)
{
    bool congested = true;
    for (int i = 0; i < n; ++i) congested = r.run_half();
    return congested;
}

// Starts an episode at the defaults (weight given) and brings the queue pair into additive
// increase: 200 after the cut, then 300, 350, 375 (fast recovery), 387.5 (first additive
// increase: target min(400, 404) = 400); recovery count 4. Seven halves, reductions without CNP.
dcqcn_rate into_additive_increase(double weight)
{
    dcqcn_config cfg;
    cfg.congestion_probability_weight = weight;
    dcqcn_rate r(cfg, line);
    EXPECT_TRUE(r.on_cnp());
    EXPECT_TRUE(quiet_halves(r, 7));
    EXPECT_NEAR(r.current_bps(), 387.5 * G, tol);
    EXPECT_NEAR(r.target_bps(), 400 * G, tol);
    EXPECT_EQ(r.recovery_count(), 4u);
    return r;
}

}  // namespace

TEST(dcqcn_rate, worked_example_defaults)
{
    dcqcn_rate r(dcqcn_config{}, line);
    EXPECT_EQ(r.half_interval_ps(), 22'500'000u);  // 22.5 us
    EXPECT_FALSE(r.congested());
    EXPECT_DOUBLE_EQ(r.rate_bps(), line);  // starts at line rate

    // The CNP that begins the episode: target = 400 (the rate then), step 4, floor 40; the
    // estimate is 1 (initial 1, sample 1) so the cut is the deepest, half: 200 Gbps.
    EXPECT_TRUE(r.on_cnp());
    EXPECT_TRUE(r.congested());
    EXPECT_EQ(r.episodes(), 1u);
    EXPECT_NEAR(r.target_bps(), 400 * G, tol);
    EXPECT_NEAR(r.additive_step_bps(), 4 * G, tol);
    EXPECT_NEAR(r.floor_bps(), 40 * G, tol);
    EXPECT_DOUBLE_EQ(r.estimate(), 1.0);
    EXPECT_NEAR(r.current_bps(), 200 * G, tol);
    EXPECT_NEAR(r.rate_bps(), 200 * G, tol);
    EXPECT_EQ(r.recovery_count(), 0u);

    // No further CNPs: halves alternate increase (odd) and reduction (even, no CNP: no change).
    // Increase n (n = 1, 2, ...) comes on half 2n - 1, at 22.5 + 45 (n - 1) us, and leaves a
    // gap of 200 / 2^n Gbps to the 400 Gbps target.
    const double fast[] = {300, 350, 375};
    std::vector<double> increase_times_us;
    int half = 0;
    bool congested = true;
    double before = r.current_bps();
    while (congested) {
        ASSERT_LT(half, 100) << "the episode never ended";
        congested = r.run_half();
        ++half;
        if (r.current_bps() != before) increase_times_us.push_back(half * half_us);
        if (half % 2 == 0) {
            EXPECT_EQ(r.current_bps(), before) << "reduction half " << half;
        }
        const int n = int(increase_times_us.size());
        if (half % 2 == 1 && n <= 3) {
            EXPECT_NEAR(r.current_bps(), fast[n - 1] * G, tol) << "fast recovery " << n;
            EXPECT_NEAR(r.target_bps(), 400 * G, tol);  // fast recovery leaves the target
            EXPECT_EQ(r.recovery_count(), uint32_t(n));
        }
        if (half == 5) {
            // Three fast-recovery increases recovered 7/8 of the 200 Gbps cut.
            EXPECT_NEAR((r.current_bps() - 200 * G) / (200 * G), 7.0 / 8, 1e-12);
        }
        if (half == 7) {
            // The fourth increase is additive: target min(400, 400 + 4) = 400, current 387.5.
            EXPECT_NEAR(r.target_bps(), 400 * G, tol);
            EXPECT_NEAR(r.current_bps(), 387.5 * G, tol);
            EXPECT_EQ(r.recovery_count(), 4u);
        }
        before = r.current_bps();
    }
    // Gap 200 / 2^n < 0.1 Gbps first at n = 11 (0.0977; n = 10 leaves 0.195): half 21, 472.5 us.
    EXPECT_EQ(half, 21);
    ASSERT_EQ(increase_times_us.size(), 11u);
    for (size_t i = 0; i < increase_times_us.size(); ++i)
        EXPECT_DOUBLE_EQ(increase_times_us[i], 22.5 + 45.0 * double(i));  // one per 45 us
    EXPECT_FALSE(r.congested());
    EXPECT_DOUBLE_EQ(r.rate_bps(), line);
    EXPECT_DOUBLE_EQ(r.current_bps(), line);
    EXPECT_EQ(r.increases(), 11u);
    EXPECT_EQ(r.reductions(), 1u);
    EXPECT_FALSE(r.run_half());  // the loop has stopped
}

TEST(dcqcn_rate, increase_while_cnps_continue_every_sixth_half)
{
    // A CNP before every half from the start of the episode: every reduction half cuts (the
    // sample stays 1 with no packets, so the estimate stays 1 and each cut halves), and an
    // increase half that saw a CNP increases only on every (5 + 1)-th such half: the first on
    // half 11 (247.5 us), then one per 6 x 45 = 270 us.
    dcqcn_rate r(dcqcn_config{}, line);
    ASSERT_TRUE(r.on_cnp());  // 200
    std::vector<double> increase_times_us;
    for (int half = 1; half <= 132; ++half) {
        r.on_cnp();
        const uint64_t before = r.increases();
        const double rate_before = r.rate_bps();
        ASSERT_TRUE(r.run_half());
        if (r.increases() != before) {
            increase_times_us.push_back(half * half_us);
            // Each increase is fast recovery from the floor toward the unchanged 400 target.
            EXPECT_DOUBLE_EQ(rate_before, 40 * G);
            EXPECT_NEAR(r.current_bps(), 220 * G, tol);  // (40 + 400) / 2
            EXPECT_EQ(r.recovery_count(), 1u);
        }
        EXPECT_GE(r.rate_bps(), 40 * G);
    }
    ASSERT_EQ(increase_times_us.size(), 11u);  // halves 11, 23, ..., 131
    EXPECT_DOUBLE_EQ(increase_times_us[0], 247.5);
    for (size_t i = 1; i < increase_times_us.size(); ++i)
        EXPECT_DOUBLE_EQ(increase_times_us[i] - increase_times_us[i - 1], 270.0);
    // Cuts before the first increase: 200 -> 100 (half 2) -> 50 (4) -> 40, the floor (6).
    EXPECT_EQ(r.reductions(), 1u + 66u);
}

TEST(dcqcn_rate, reduction_in_additive_increase_lowers_target_by_one_step)
{
    dcqcn_rate r = into_additive_increase(0.5);
    r.on_cnp();  // in the window of half 8, a reduction half
    ASSERT_TRUE(r.run_half());
    // Count 4 >= 3: target 400 - 4 = 396, current (387.5 + 396) / 2 = 391.75, count 3.
    EXPECT_NEAR(r.target_bps(), 396 * G, tol);
    EXPECT_NEAR(r.current_bps(), 391.75 * G, tol);
    EXPECT_EQ(r.recovery_count(), 3u);
    EXPECT_EQ(r.reductions(), 2u);
    // Half 9 has no CNP: count 3 is still additive increase: target min(400, 396 + 4) = 400,
    // current (391.75 + 400) / 2 = 395.875, count 4.
    ASSERT_TRUE(r.run_half());
    EXPECT_NEAR(r.target_bps(), 400 * G, tol);
    EXPECT_NEAR(r.current_bps(), 395.875 * G, tol);
    EXPECT_EQ(r.recovery_count(), 4u);
}

TEST(dcqcn_rate, count_below_fast_recovery_attempt_returns_to_fast_recovery)
{
    // Weight 1: the estimate is the last sample (1 for a CNP with no packet, 0 for no CNP).
    dcqcn_rate r = into_additive_increase(1.0);
    r.on_cnp();
    ASSERT_TRUE(r.run_half());  // half 8: target 396, current 391.75, count 3
    r.on_cnp();                 // half 9 sees a CNP: no increase (1st such half)
    ASSERT_TRUE(r.run_half());
    EXPECT_NEAR(r.current_bps(), 391.75 * G, tol);
    EXPECT_EQ(r.recovery_count(), 3u);
    ASSERT_TRUE(r.run_half());  // half 10 reduces for half 9's CNP: still additive (3 >= 3)
    // target 396 - 4 = 392, current (391.75 + 392) / 2 = 391.875, count 2: fast recovery again.
    EXPECT_NEAR(r.target_bps(), 392 * G, tol);
    EXPECT_NEAR(r.current_bps(), 391.875 * G, tol);
    EXPECT_EQ(r.recovery_count(), 2u);

    // Copy the state to try both continuations.
    dcqcn_rate up = r;
    // (a) The next increase (half 11, no CNP) is fast recovery: target stays 392,
    // current (391.875 + 392) / 2 = 391.9375, count 3; the one after is additive (target 396).
    ASSERT_TRUE(up.run_half());
    EXPECT_NEAR(up.target_bps(), 392 * G, tol);
    EXPECT_NEAR(up.current_bps(), 391.9375 * G, tol);
    EXPECT_EQ(up.recovery_count(), 3u);
    ASSERT_TRUE(up.run_half());  // half 12, no CNP
    ASSERT_TRUE(up.run_half());  // half 13: target 396, current (391.9375 + 396) / 2
    EXPECT_NEAR(up.target_bps(), 396 * G, tol);
    EXPECT_NEAR(up.current_bps(), 393.96875 * G, tol);
    EXPECT_EQ(up.recovery_count(), 4u);

    // (b) A reduction before the count is back at 3 is a fast-recovery cut: half 11 sees a CNP
    // (no increase), half 12 cuts with estimate 1: 391.875 / 2 = 195.9375, count 0, target 392.
    r.on_cnp();
    ASSERT_TRUE(r.run_half());
    ASSERT_TRUE(r.run_half());
    EXPECT_DOUBLE_EQ(r.estimate(), 1.0);
    EXPECT_NEAR(r.current_bps(), 195.9375 * G, tol);
    EXPECT_NEAR(r.target_bps(), 392 * G, tol);
    EXPECT_EQ(r.recovery_count(), 0u);
}

TEST(dcqcn_rate, estimate_sample_is_cnps_per_packet_capped_at_one)
{
    dcqcn_config cfg;
    cfg.congestion_probability_weight = 1.0;  // the estimate is the last sample
    dcqcn_rate r(cfg, line);
    for (int i = 0; i < 50; ++i) r.on_data_sent();  // before the episode: in no interval
    ASSERT_TRUE(r.on_cnp());
    EXPECT_DOUBLE_EQ(r.estimate(), 1.0);  // 1 CNP, 0 packets of the interval
    EXPECT_NEAR(r.current_bps(), 200 * G, tol);
    ASSERT_TRUE(r.run_half());  // increase half, no CNP: sample 0, current 300
    EXPECT_DOUBLE_EQ(r.estimate(), 0.0);
    EXPECT_NEAR(r.current_bps(), 300 * G, tol);
    // 1 CNP of 4 packets: sample 0.25, cut 300 x (1 - 0.125) = 262.5.
    for (int i = 0; i < 4; ++i) r.on_data_sent();
    r.on_cnp();
    ASSERT_TRUE(r.run_half());
    EXPECT_DOUBLE_EQ(r.estimate(), 0.25);
    EXPECT_NEAR(r.current_bps(), 262.5 * G, tol);
    EXPECT_EQ(r.recovery_count(), 0u);
    EXPECT_EQ(r.interval_cnps(), 0u);  // cleared after the reduction half
    // 3 CNPs of 2 packets: sample capped at 1; the increase half holds, the reduction halves.
    r.on_data_sent();
    r.on_data_sent();
    for (int i = 0; i < 3; ++i) r.on_cnp();
    ASSERT_TRUE(r.run_half());
    EXPECT_DOUBLE_EQ(r.estimate(), 1.0);
    EXPECT_NEAR(r.current_bps(), 262.5 * G, tol);
    ASSERT_TRUE(r.run_half());
    EXPECT_NEAR(r.current_bps(), 131.25 * G, tol);
}

TEST(dcqcn_rate, estimate_is_a_moving_average_with_the_weight)
{
    // Weight 0.5: start 1 (sample 1), half 1 no CNP: 0.5, current 300; half 2, 1 CNP of 4
    // packets: 0.5 x 0.5 + 0.5 x 0.25 = 0.375, cut 300 x (1 - 0.1875) = 243.75.
    dcqcn_rate r(dcqcn_config{}, line);
    ASSERT_TRUE(r.on_cnp());
    ASSERT_TRUE(r.run_half());
    EXPECT_DOUBLE_EQ(r.estimate(), 0.5);
    for (int i = 0; i < 4; ++i) r.on_data_sent();
    r.on_cnp();
    ASSERT_TRUE(r.run_half());
    EXPECT_DOUBLE_EQ(r.estimate(), 0.375);
    EXPECT_NEAR(r.current_bps(), 243.75 * G, tol);
}

TEST(dcqcn_rate, floor_holds_under_repeated_cnps)
{
    dcqcn_rate r(dcqcn_config{}, line);
    ASSERT_TRUE(r.on_cnp());                          // 200
    const double expected[] = {100, 50, 40, 40, 40};  // halves 2, 4, 6, 8, 10: 25 -> floor 40
    for (int half = 1; half <= 10; ++half) {
        r.on_cnp();
        ASSERT_TRUE(r.run_half());
        if (half % 2 == 0) {
            EXPECT_NEAR(r.current_bps(), expected[half / 2 - 1] * G, tol);
        }
        EXPECT_GE(r.rate_bps(), 40 * G);
    }
    EXPECT_DOUBLE_EQ(r.rate_bps(), 40 * G);

    // A higher floor: 25% of 400 = 100 Gbps holds after the first cut to 200 and one to 100.
    dcqcn_config cfg;
    cfg.minimum_rate_percentage = 0.25;
    dcqcn_rate h(cfg, line);
    ASSERT_TRUE(h.on_cnp());
    for (int half = 1; half <= 20; ++half) {
        h.on_cnp();
        h.run_half();
        EXPECT_GE(h.rate_bps(), 100 * G);
    }
    EXPECT_DOUBLE_EQ(h.rate_bps(), 100 * G);
}

TEST(dcqcn_rate, reduction_half_without_cnp_leaves_the_rate)
{
    dcqcn_rate r(dcqcn_config{}, line);
    ASSERT_TRUE(r.on_cnp());
    for (int i = 0; i < 10; ++i) r.on_data_sent();
    ASSERT_TRUE(r.run_half());  // increase: 300
    for (int i = 0; i < 10; ++i) r.on_data_sent();
    ASSERT_TRUE(r.run_half());  // reduction half, packets but no CNP
    EXPECT_NEAR(r.current_bps(), 300 * G, tol);
    EXPECT_NEAR(r.target_bps(), 400 * G, tol);
    EXPECT_EQ(r.recovery_count(), 1u);
    EXPECT_EQ(r.reductions(), 1u);
}

TEST(dcqcn_rate, cnps_during_the_episode_do_not_restart_it)
{
    dcqcn_rate r(dcqcn_config{}, line);
    EXPECT_TRUE(r.on_cnp());
    EXPECT_FALSE(r.on_cnp());  // counted for the loop, not a new episode
    EXPECT_NEAR(r.current_bps(), 200 * G, tol);
    EXPECT_EQ(r.episodes(), 1u);
    EXPECT_EQ(r.interval_cnps(), 1u);
}

TEST(dcqcn_rate, next_episode_after_the_end_cuts_by_the_remembered_estimate)
{
    // The first episode ends on half 21 (worked example), each of its 21 halves a sample of 0:
    // estimate 2^-21. The next CNP starts episode 2: estimate 0.5 x 2^-21 + 0.5, cut by half of it.
    dcqcn_rate r(dcqcn_config{}, line);
    ASSERT_TRUE(r.on_cnp());
    EXPECT_FALSE(quiet_halves(r, 21));
    EXPECT_DOUBLE_EQ(r.estimate(), std::ldexp(1.0, -21));
    EXPECT_TRUE(r.on_cnp());
    EXPECT_EQ(r.episodes(), 2u);
    const double alpha = 0.5 * std::ldexp(1.0, -21) + 0.5;
    EXPECT_DOUBLE_EQ(r.estimate(), alpha);
    EXPECT_NEAR(r.current_bps(), 400 * G * (1 - alpha / 2), tol);
    EXPECT_NEAR(r.target_bps(), 400 * G, tol);
    EXPECT_EQ(r.recovery_count(), 0u);
}

TEST(dcqcn_rate, loops_per_increase_zero_increases_on_every_increase_half)
{
    dcqcn_config cfg;
    cfg.num_of_control_loops_per_increase = 0;
    dcqcn_rate r(cfg, line);
    ASSERT_TRUE(r.on_cnp());
    r.on_cnp();
    ASSERT_TRUE(r.run_half());  // CNP seen, but every (0 + 1)-th such half increases: 300
    EXPECT_NEAR(r.current_bps(), 300 * G, tol);
    EXPECT_EQ(r.increases(), 1u);
}

TEST(dcqcn_rate, enable_ecn_false_ignores_cnps)
{
    dcqcn_config cfg;
    cfg.enable_ecn = false;
    dcqcn_rate r(cfg, line);
    for (int i = 0; i < 10; ++i) {
        r.on_data_sent();
        EXPECT_FALSE(r.on_cnp());
        EXPECT_FALSE(r.run_half());
        EXPECT_FALSE(r.congested());
        EXPECT_DOUBLE_EQ(r.rate_bps(), line);
    }
    EXPECT_EQ(r.episodes(), 0u);
    EXPECT_EQ(r.reductions(), 0u);
    EXPECT_EQ(r.interval_cnps(), 0u);
}

TEST(dcqcn_rate, rate_stays_between_floor_and_line_for_random_cnp_patterns)
{
    std::mt19937_64 rng(14);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    uint64_t episodes = 0, ended = 0;
    for (int pattern = 0; pattern < 300; ++pattern) {
        dcqcn_config cfg;
        cfg.minimum_rate_percentage = 0.01 + 0.5 * u(rng);
        cfg.fast_recovery_attempt = uint32_t(rng() % 6);
        cfg.initial_target_rate_percentage = 0.5 + 0.5 * u(rng);
        cfg.number_active_increase_steps = 1 + uint32_t(rng() % 20);
        cfg.congestion_probability_weight = u(rng);
        cfg.num_of_control_loops_per_increase = uint32_t(rng() % 8);
        const double rate = (10 + 790 * u(rng)) * G;
        const double p_cnp = u(rng);  // per half
        dcqcn_rate r(cfg, rate);
        const double floor = cfg.minimum_rate_percentage * rate;
        for (int half = 0; half < 2000; ++half) {
            for (uint64_t k = rng() % 12; k > 0; --k) r.on_data_sent();
            if (u(rng) < p_cnp)
                for (uint64_t k = 1 + rng() % 3; k > 0; --k) r.on_cnp();
            if (r.congested()) r.run_half();
            ASSERT_GE(r.rate_bps(), floor - 1e-6) << "pattern " << pattern << " half " << half;
            ASSERT_LE(r.rate_bps(), rate + 1e-6) << "pattern " << pattern << " half " << half;
            ASSERT_GE(r.estimate(), 0.0);
            ASSERT_LE(r.estimate(), 1.0);
            if (r.congested()) {
                ASSERT_GE(r.target_bps(), floor - 1e-6);
                ASSERT_LE(r.target_bps(), rate + 1e-6);
            } else {
                ASSERT_DOUBLE_EQ(r.rate_bps(), rate);
            }
        }
        episodes += r.episodes();
        if (!r.congested() && r.episodes() > 0) ++ended;
    }
    EXPECT_GT(episodes, 300u);  // the patterns exercised many episodes
    EXPECT_GT(ended, 10u);      // and many ended back at line rate
}
