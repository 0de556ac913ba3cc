// Recycled Entropy Packet Spraying (hw/nic/uet/entropy/reps_policy.*), no SystemC kernel.
// Expected values are written out by hand from the multipath page. Most tests set
// EntropyValueSetSize to 1, so every explored value is 0 and every reused one is a value the
// test recycled itself (1000 and up): the sequence is then known without the generator.
#include <gtest/gtest.h>

#include <vector>

#include "hw/nic/uet/entropy/reps_policy.h"

using namespace uetsim;

namespace {

constexpr double us = 1e-6;

entropy_config reps_config(uint32_t mask_bits = 3, uint32_t value_set_size = 1)
{
    entropy_config c;
    c.type = packet_spraying_type::reps;
    c.reps_buffer_size_mask_bits = mask_bits;
    c.entropy_value_set_size = value_set_size;
    return c;  // 400 Gbps, 6 us, 4,096 B, 100 us: a 71-packet window
}

// Sends `n` packets and returns their values.
std::vector<uint16_t> send(reps_policy& p, int n, double now_s = 0)
{
    std::vector<uint16_t> v;
    for (int i = 0; i < n; ++i) v.push_back(p.next(now_s));
    return v;
}

void ack(reps_policy& p, uint16_t v, double now_s = 0)
{
    p.feedback(v, path_feedback::ack, now_s);
}

// Freezes at t_us and ends freezing with a recycle of `v` at t_us + 100 us.
void freeze_and_thaw(reps_policy& p, double t_us, uint16_t v)
{
    p.feedback(9, path_feedback::timeout, t_us * us);
    ASSERT_TRUE(p.freezing());
    ack(p, v, (t_us + 100) * us);
    ASSERT_FALSE(p.freezing());
}

}  // namespace

// ---- Explore and reuse ----

TEST(reps, explores_until_a_value_is_cached)
{
    reps_policy p(reps_config(3, 65536), 0);
    // The seed's first draws over 0..65,535 (entropy_random_test.cpp).
    EXPECT_EQ(p.next(0), 33912);
    EXPECT_EQ(p.last_choice(), entropy_choice::explored);
    EXPECT_EQ(p.next(0), 21520);
    EXPECT_EQ(p.next(0), 7512);
    EXPECT_EQ(p.stats().explored, 3u);
    EXPECT_EQ(p.stats().reused, 0u);
}

TEST(reps, explored_values_stay_below_the_value_set_size)
{
    reps_policy p(reps_config(3, 1000), 0);
    EXPECT_EQ(send(p, 5), (std::vector<uint16_t>{517, 328, 114, 961, 65}));
    reps_policy q(reps_config(3, 37), 99);
    for (uint16_t v : send(q, 2000)) ASSERT_LT(v, 37);
}

TEST(reps, reuses_the_oldest_and_removes_it)
{
    reps_policy p(reps_config(), 1);
    ack(p, 1000);
    ack(p, 1001);
    ack(p, 1002);
    EXPECT_EQ(p.cache().contents(), (std::vector<uint16_t>{1000, 1001, 1002}));
    EXPECT_EQ(p.next(0), 1000);
    EXPECT_EQ(p.last_choice(), entropy_choice::reused);
    EXPECT_EQ(p.cache().contents(), (std::vector<uint16_t>{1001, 1002}));
    EXPECT_EQ(p.next(0), 1001);
    EXPECT_EQ(p.next(0), 1002);
    EXPECT_TRUE(p.cache().empty());
    EXPECT_EQ(p.next(0), 0);  // empty again: explore
    EXPECT_EQ(p.last_choice(), entropy_choice::explored);
}

TEST(reps, a_value_is_sent_once_per_recycle)
{
    reps_policy p(reps_config(), 1);
    ack(p, 1000);
    ack(p, 1000);
    EXPECT_EQ(send(p, 3), (std::vector<uint16_t>{1000, 1000, 0}));
}

TEST(reps, recycle_interleaved_with_sends)
{
    reps_policy p(reps_config(), 1);
    EXPECT_EQ(p.next(0), 0);  // explored
    ack(p, 1000);
    EXPECT_EQ(p.next(0), 1000);
    ack(p, 1001);
    ack(p, 1002);
    EXPECT_EQ(p.next(0), 1001);
    ack(p, 1003);
    EXPECT_EQ(send(p, 3), (std::vector<uint16_t>{1002, 1003, 0}));
}

// ---- Path feedback table ----

TEST(reps, ack_without_ecn_recycles)
{
    reps_policy p(reps_config(), 1);
    p.feedback(1234, path_feedback::ack, 0);
    EXPECT_EQ(p.cache().contents(), std::vector<uint16_t>{1234});
}

TEST(reps, ack_with_ecn_discards)
{
    reps_policy p(reps_config(), 1);
    p.feedback(1234, path_feedback::ack_ecn, 0);
    EXPECT_TRUE(p.cache().empty());
    EXPECT_EQ(p.stats().discarded, 1u);
    EXPECT_FALSE(p.freezing());
}

TEST(reps, nack_trimmed_on_the_way_discards)
{
    reps_policy p(reps_config(), 1);
    p.feedback(1234, path_feedback::nack_trimmed, 0);
    EXPECT_TRUE(p.cache().empty());
    EXPECT_FALSE(p.freezing());
}

TEST(reps, nack_trimmed_on_the_last_hop_recycles)
{
    reps_policy p(reps_config(), 1);
    p.feedback(1234, path_feedback::nack_trimmed_last_hop, 0);
    EXPECT_EQ(p.cache().contents(), std::vector<uint16_t>{1234});
    EXPECT_EQ(p.next(0), 1234);
}

TEST(reps, timeout_is_a_path_failure)
{
    reps_policy p(reps_config(), 1);
    p.feedback(1234, path_feedback::timeout, 5 * us);
    EXPECT_TRUE(p.freezing());
    EXPECT_TRUE(p.cache().empty());  // the value is not recycled
    EXPECT_DOUBLE_EQ(p.freezing_started_s(), 5 * us);
    EXPECT_EQ(p.stats().freezes, 1u);
}

TEST(reps, early_failure_detection_is_a_path_failure)
{
    reps_policy p(reps_config(), 1);
    p.feedback(1234, path_feedback::failure_detected, 5 * us);
    EXPECT_TRUE(p.freezing());
    EXPECT_TRUE(p.cache().empty());
}

TEST(reps, discarding_leaves_a_cached_copy_in_place)
{
    reps_policy p(reps_config(), 1);
    ack(p, 1000);
    p.feedback(1000, path_feedback::ack_ecn, 0);
    p.feedback(1000, path_feedback::nack_trimmed, 0);
    EXPECT_EQ(p.cache().contents(), std::vector<uint16_t>{1000});
}

TEST(reps, feedback_for_values_never_sent_or_not_cached_still_counts)
{
    reps_policy p(reps_config(), 1);
    ack(p, 4242);  // never sent by this group: still recycled
    EXPECT_EQ(p.cache().contents(), std::vector<uint16_t>{4242});
    p.feedback(777, path_feedback::timeout, 1 * us);  // not in the cache: still a failure
    EXPECT_TRUE(p.freezing());
}

// ---- The circular cache ----

TEST(reps, full_cache_overwrites_the_oldest)
{
    reps_policy p(reps_config(), 1);  // 8 entries
    for (uint16_t v = 1000; v < 1010; ++v) ack(p, v);
    EXPECT_EQ(p.cache().available(), 8u);
    EXPECT_EQ(p.cache().contents(),
              (std::vector<uint16_t>{1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009}));
    EXPECT_EQ(send(p, 9),
              (std::vector<uint16_t>{1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 0}));
}

TEST(reps, cache_of_1_entry)
{
    reps_policy p(reps_config(0), 1);
    EXPECT_EQ(p.cache().capacity(), 1u);
    ack(p, 1000);
    ack(p, 1001);  // takes the place of 1000
    EXPECT_EQ(p.cache().contents(), std::vector<uint16_t>{1001});
    EXPECT_EQ(send(p, 2), (std::vector<uint16_t>{1001, 0}));
}

TEST(reps, cache_of_65536_entries)
{
    reps_policy p(reps_config(16), 1);
    EXPECT_EQ(p.cache().capacity(), 65536u);
    for (uint32_t v = 0; v < 65536; ++v) ack(p, uint16_t(v));
    EXPECT_EQ(p.cache().available(), 65536u);
    ack(p, 40000);  // full: takes the place of the oldest, value 0
    EXPECT_EQ(p.cache().available(), 65536u);
    const auto c = p.cache().contents();
    EXPECT_EQ(c.front(), 1);
    EXPECT_EQ(c.back(), 40000);
    EXPECT_EQ(p.next(0), 1);
    EXPECT_EQ(p.next(0), 2);
    EXPECT_EQ(p.cache().available(), 65534u);
}

// ---- Freezing ----

TEST(reps, freezing_reuses_available_values_then_cycles_the_held_ones)
{
    reps_policy p(reps_config(), 1);
    ack(p, 1000);
    ack(p, 1001);
    ack(p, 1002);
    p.feedback(1002, path_feedback::timeout, 1 * us);
    // As usual first, removing them...
    EXPECT_EQ(send(p, 3, 2 * us), (std::vector<uint16_t>{1000, 1001, 1002}));
    EXPECT_EQ(p.last_choice(), entropy_choice::reused);
    // ...then the held entries in turn, none removed and nothing explored.
    EXPECT_EQ(send(p, 7, 3 * us),
              (std::vector<uint16_t>{1000, 1001, 1002, 1000, 1001, 1002, 1000}));
    EXPECT_EQ(p.last_choice(), entropy_choice::frozen);
    EXPECT_EQ(p.stats().explored, 0u);
    EXPECT_EQ(p.stats().frozen_reused, 7u);
    EXPECT_TRUE(p.cache().empty());
    EXPECT_EQ(p.cache().held(), 3u);
}

TEST(reps, freezing_with_a_full_cache_cycles_from_the_oldest)
{
    reps_policy p(reps_config(), 1);
    // 10 recycles into 8 slots: 1002 is the oldest held, 1009 the newest.
    for (uint16_t v = 1000; v < 1010; ++v) ack(p, v);
    p.feedback(5, path_feedback::failure_detected, 1 * us);
    EXPECT_EQ(send(p, 8), (std::vector<uint16_t>{1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009}));
    EXPECT_EQ(send(p, 9),
              (std::vector<uint16_t>{1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1002}));
    EXPECT_EQ(p.stats().explored, 0u);
}

TEST(reps, freezing_before_anything_is_cached_explores)
{
    reps_policy p(reps_config(), 1);
    p.feedback(5, path_feedback::timeout, 1 * us);
    EXPECT_EQ(p.next(2 * us), 0);
    EXPECT_EQ(p.last_choice(), entropy_choice::explored);
    ack(p, 1000, 3 * us);  // before FreezingTimeout: cached, freezing goes on
    EXPECT_TRUE(p.freezing());
    EXPECT_EQ(send(p, 3, 4 * us), (std::vector<uint16_t>{1000, 1000, 1000}));
    EXPECT_EQ(p.stats().explored, 1u);
}

TEST(reps, freezing_with_a_cache_of_1_repeats_the_one_value)
{
    reps_policy p(reps_config(0), 1);
    ack(p, 1000);
    ack(p, 1001);
    p.feedback(5, path_feedback::timeout, 1 * us);
    EXPECT_EQ(send(p, 4), (std::vector<uint16_t>{1001, 1001, 1001, 1001}));
    EXPECT_EQ(p.stats().explored, 0u);
}

TEST(reps, recycles_while_freezing_are_reused_first)
{
    reps_policy p(reps_config(), 1);
    ack(p, 1000);
    EXPECT_EQ(p.next(0), 1000);
    p.feedback(1000, path_feedback::timeout, 10 * us);
    EXPECT_EQ(p.next(20 * us), 1000);  // held, in turn
    ack(p, 1005, 50 * us);             // 40 us into freezing: cached, no end
    EXPECT_TRUE(p.freezing());
    EXPECT_EQ(p.next(60 * us), 1005);
    EXPECT_EQ(p.last_choice(), entropy_choice::reused);
    EXPECT_EQ(send(p, 3, 70 * us), (std::vector<uint16_t>{1000, 1005, 1000}));
}

TEST(reps, freezing_ends_at_the_first_recycle_after_the_timeout)
{
    reps_policy p(reps_config(), 1);
    p.feedback(5, path_feedback::timeout, 10 * us);
    ack(p, 1000, 60 * us);
    EXPECT_TRUE(p.freezing());
    ack(p, 1001, 109.999 * us);  // 99.999 us in: not yet
    EXPECT_TRUE(p.freezing());
    ack(p, 1002, 110 * us);  // exactly FreezingTimeout
    EXPECT_FALSE(p.freezing());
    EXPECT_TRUE(p.in_exploration_window());
    // The recycle that ended freezing is cached like any other.
    EXPECT_EQ(p.cache().contents(), (std::vector<uint16_t>{1000, 1001, 1002}));
}

TEST(reps, freezing_lasts_until_a_recycle_arrives)
{
    reps_policy p(reps_config(), 1);
    ack(p, 1000);
    p.feedback(5, path_feedback::timeout, 10 * us);
    // Long past FreezingTimeout, sends alone do not end freezing.
    EXPECT_EQ(send(p, 3, 500 * us), (std::vector<uint16_t>{1000, 1000, 1000}));
    EXPECT_TRUE(p.freezing());
    ack(p, 1001, 900 * us);
    EXPECT_FALSE(p.freezing());
}

TEST(reps, discards_after_the_timeout_do_not_end_freezing)
{
    reps_policy p(reps_config(), 1);
    p.feedback(5, path_feedback::timeout, 10 * us);
    p.feedback(1000, path_feedback::ack_ecn, 200 * us);
    p.feedback(1001, path_feedback::nack_trimmed, 210 * us);
    EXPECT_TRUE(p.freezing());
    p.feedback(1002, path_feedback::nack_trimmed_last_hop, 220 * us);  // a recycle: ends it
    EXPECT_FALSE(p.freezing());
}

TEST(reps, failures_while_freezing_do_not_restart_it)
{
    reps_policy p(reps_config(), 1);
    p.feedback(5, path_feedback::timeout, 10 * us);
    p.feedback(6, path_feedback::failure_detected, 60 * us);
    p.feedback(7, path_feedback::timeout, 100 * us);
    EXPECT_DOUBLE_EQ(p.freezing_started_s(), 10 * us);
    EXPECT_EQ(p.stats().freezes, 1u);
    EXPECT_EQ(p.stats().failures_ignored, 2u);
    ack(p, 1000, 110 * us);  // 100 us after the first failure, 10 us after the last
    EXPECT_FALSE(p.freezing());
}

TEST(reps, freezing_timeout_0_ends_at_the_next_recycle)
{
    auto c = reps_config();
    c.freezing_timeout_s = 0;
    reps_policy p(c, 1);
    p.feedback(5, path_feedback::timeout, 10 * us);
    EXPECT_TRUE(p.freezing());
    ack(p, 1000, 10 * us);
    EXPECT_FALSE(p.freezing());
}

// ---- The exploration window ----

TEST(reps, worked_example_window_of_71_explores_packets_7_15_to_71)
{
    reps_policy p(reps_config(3, 65536), 1);  // all defaults
    EXPECT_EQ(p.exploration_window_packets(), 71u);
    freeze_and_thaw(p, 10, 1000);
    std::vector<int> exploring;
    for (int k = 1; k <= 71; ++k) {
        ack(p, uint16_t(2000 + k), 200 * us);  // never empty: only the window explores
        ASSERT_TRUE(p.in_exploration_window());
        const uint16_t v = p.next(200 * us);
        if (p.last_choice() == entropy_choice::explored) {
            exploring.push_back(k);
        } else {
            ASSERT_EQ(p.last_choice(), entropy_choice::reused);
            ASSERT_GE(v, 1000);
        }
    }
    EXPECT_EQ(exploring, (std::vector<int>{7, 15, 23, 31, 39, 47, 55, 63, 71}));
    EXPECT_EQ(p.stats().window_explored, 9u);
    EXPECT_FALSE(p.in_exploration_window());
    // Packet 72 is past the window: reuse as usual.
    p.next(200 * us);
    EXPECT_EQ(p.last_choice(), entropy_choice::reused);
}

TEST(reps, window_packets_reuse_as_usual_in_order)
{
    reps_policy p(reps_config(), 1);  // set size 1: explored = 0
    for (uint16_t v = 1000; v < 1008; ++v) ack(p, v);
    freeze_and_thaw(p, 0, 1008);  // 9 recycles in 8 slots: 1001..1008 available
    // Packets 1..6 reuse, 7 explores, 8 reuses the next oldest.
    EXPECT_EQ(send(p, 8), (std::vector<uint16_t>{1001, 1002, 1003, 1004, 1005, 1006, 0, 1007}));
}

TEST(reps, window_with_an_empty_cache_explores_every_packet)
{
    reps_policy p(reps_config(3, 65536), 1);
    freeze_and_thaw(p, 0, 1000);
    EXPECT_EQ(p.next(0), 1000);
    send(p, 70);
    EXPECT_EQ(p.stats().explored, 70u);
    EXPECT_EQ(p.stats().window_explored, 9u);  // 7th..71st; the others found the cache empty
    EXPECT_FALSE(p.in_exploration_window());
}

TEST(reps, window_with_a_cache_of_1_explores_every_packet)
{
    reps_policy p(reps_config(0), 1);
    freeze_and_thaw(p, 0, 1000);
    for (int k = 1; k <= 71; ++k) {
        ack(p, 1000, 200 * us);
        ASSERT_EQ(p.next(200 * us), 0) << k;
        ASSERT_EQ(p.last_choice(), entropy_choice::explored);
    }
    ack(p, 1000, 200 * us);
    EXPECT_EQ(p.next(200 * us), 1000);  // after the window
}

TEST(reps, window_with_a_cache_of_65536_explores_only_the_last)
{
    reps_policy p(reps_config(16), 1);
    freeze_and_thaw(p, 0, 1000);
    for (uint16_t v = 1001; v <= 1100; ++v) ack(p, v, 200 * us);
    const auto v = send(p, 72);
    for (int k = 1; k <= 70; ++k) ASSERT_EQ(v[size_t(k - 1)], 999 + k) << k;
    EXPECT_EQ(v[70], 0);     // 71st explores
    EXPECT_EQ(v[71], 1070);  // 72nd: past the window, the next oldest
    EXPECT_EQ(p.stats().window_explored, 1u);
}

TEST(reps, failure_in_the_window_is_ignored)
{
    reps_policy p(reps_config(), 1);
    freeze_and_thaw(p, 0, 1000);
    send(p, 10);
    p.feedback(5, path_feedback::timeout, 300 * us);
    EXPECT_FALSE(p.freezing());
    EXPECT_EQ(p.stats().failures_ignored, 1u);
    EXPECT_EQ(p.window_packets_sent(), 10u);
    // After the window a failure freezes again.
    send(p, 61);
    EXPECT_FALSE(p.in_exploration_window());
    p.feedback(5, path_feedback::timeout, 400 * us);
    EXPECT_TRUE(p.freezing());
    EXPECT_EQ(p.stats().freezes, 2u);
}

TEST(reps, no_window_when_the_bdp_is_under_one_packet)
{
    auto c = reps_config();
    c.initial_base_rtt_s = 80e-9;  // 4,000 B < 4,184 B
    reps_policy p(c, 1);
    EXPECT_EQ(p.exploration_window_packets(), 0u);
    freeze_and_thaw(p, 0, 1000);
    EXPECT_FALSE(p.in_exploration_window());
    EXPECT_EQ(p.next(0), 1000);
    p.feedback(5, path_feedback::timeout, 200 * us);
    EXPECT_TRUE(p.freezing());
}

TEST(reps, window_helpers)
{
    // The last packet and every 8th before it, in a 71-packet window.
    EXPECT_TRUE(reps_window_packet_explores(71, 71, 8));
    EXPECT_TRUE(reps_window_packet_explores(63, 71, 8));
    EXPECT_TRUE(reps_window_packet_explores(7, 71, 8));
    EXPECT_FALSE(reps_window_packet_explores(8, 71, 8));
    EXPECT_FALSE(reps_window_packet_explores(70, 71, 8));
    EXPECT_FALSE(reps_window_packet_explores(72, 71, 8));
    EXPECT_FALSE(reps_window_packet_explores(0, 71, 8));
    EXPECT_TRUE(reps_window_packet_explores(1, 71, 1));
    EXPECT_FALSE(reps_window_packet_explores(1, 71, 65536));
    EXPECT_EQ(reps_bdp_bytes(reps_config()), 300000u);
    EXPECT_EQ(reps_nominal_packet_bytes(reps_config()), 4184u);
    EXPECT_EQ(reps_exploration_window_packets(reps_config()), 71u);
}

// ---- Determinism ----

TEST(reps, same_seed_same_choices)
{
    reps_policy a(reps_config(3, 65536), 0x5EED), b(reps_config(3, 65536), 0x5EED);
    for (int i = 0; i < 200; ++i) {
        ASSERT_EQ(a.next(0), b.next(0));
        if (i % 3 == 0) {
            ack(a, uint16_t(i));
            ack(b, uint16_t(i));
        }
    }
}

TEST(reps, different_seeds_different_draws)
{
    reps_policy a(reps_config(3, 65536), 1), b(reps_config(3, 65536), 2);
    // Seeds 1 and 2 (entropy_random_test.cpp).
    EXPECT_EQ(send(a, 3), (std::vector<uint16_t>{54166, 1922, 60132}));
    EXPECT_EQ(send(b, 3), (std::vector<uint16_t>{37383, 7153, 20962}));
    int same = 0;
    for (int i = 0; i < 1000; ++i) same += a.next(0) == b.next(0);
    EXPECT_LT(same, 5);
}

TEST(reps, groups_of_one_nic_explore_differently)
{
    reps_policy g0(reps_config(3, 65536), entropy_seed(1, "host0", 0));
    reps_policy g1(reps_config(3, 65536), entropy_seed(1, "host0", 1));
    EXPECT_NE(send(g0, 8), send(g1, 8));
}
