// None and Default Packet Spraying, the factory, the configuration checks and the derived
// values `inspect --json` prints (hw/nic/uet/entropy/), no SystemC kernel. Every expected value
// is the multipath page's, written out by hand. REPS has entropy_reps_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "hw/nic/uet/entropy/entropy_factory.h"
#include "hw/nic/uet/entropy/fixed_entropy.h"
#include "hw/nic/uet/entropy/reps_policy.h"
#include "hw/nic/uet/entropy/round_robin_entropy.h"

using namespace uetsim;

namespace {

entropy_config with_type(packet_spraying_type t)
{
    entropy_config c;
    c.type = t;
    return c;
}

void send_every_feedback(entropy_policy& p, uint16_t v, double now_s)
{
    for (path_feedback f : {path_feedback::ack, path_feedback::ack_ecn, path_feedback::nack_trimmed,
                            path_feedback::nack_trimmed_last_hop, path_feedback::timeout,
                            path_feedback::failure_detected}) {
        p.feedback(v, f, now_s);
    }
}

}  // namespace

// ---- Names and defaults ----

TEST(entropy_config, defaults_are_the_pages)
{
    const entropy_config c;
    EXPECT_EQ(c.type, packet_spraying_type::default_spraying);
    EXPECT_EQ(c.entropy_mask_bits, 7u);
    EXPECT_EQ(c.starting_port_offset, 256u);
    EXPECT_EQ(c.reps_buffer_size_mask_bits, 3u);
    EXPECT_EQ(c.entropy_value_set_size, 65536u);
    EXPECT_DOUBLE_EQ(c.freezing_timeout_s, 100e-6);
    EXPECT_EQ(c.failure_detection_rtt_multiplier, 3u);
    EXPECT_DOUBLE_EQ(c.link_rate_bps, 400e9);
    EXPECT_DOUBLE_EQ(c.initial_base_rtt_s, 6e-6);
    EXPECT_EQ(c.rdma_data_mss, 4096u);
    EXPECT_EQ(c.default_port_count(), 128u);
    EXPECT_EQ(c.reps_cache_entries(), 8u);
}

TEST(entropy_config, type_names_are_the_pages_spellings)
{
    EXPECT_STREQ(spraying_type_name(packet_spraying_type::none), "None");
    EXPECT_STREQ(spraying_type_name(packet_spraying_type::default_spraying),
                 "Default Packet Spraying");
    EXPECT_STREQ(spraying_type_name(packet_spraying_type::reps),
                 "Recycled Entropy Packet Spraying");
    EXPECT_EQ(parse_spraying_type("None"), packet_spraying_type::none);
    EXPECT_EQ(parse_spraying_type("Default Packet Spraying"),
              packet_spraying_type::default_spraying);
    EXPECT_EQ(parse_spraying_type("Recycled Entropy Packet Spraying"), packet_spraying_type::reps);
    EXPECT_FALSE(parse_spraying_type("REPS").has_value());
    EXPECT_FALSE(parse_spraying_type("none").has_value());
}

// ---- Ranges ----

TEST(entropy_config, defaults_are_valid_for_every_type)
{
    for (auto t : {packet_spraying_type::none, packet_spraying_type::default_spraying,
                   packet_spraying_type::reps}) {
        EXPECT_FALSE(entropy_config_error(with_type(t)).has_value());
    }
}

TEST(entropy_config, default_spraying_ranges)
{
    auto c = with_type(packet_spraying_type::default_spraying);
    c.entropy_mask_bits = 8;
    c.starting_port_offset = 65535;
    EXPECT_FALSE(entropy_config_error(c).has_value());
    c.entropy_mask_bits = 9;
    ASSERT_TRUE(entropy_config_error(c).has_value());
    EXPECT_EQ(*entropy_config_error(c), "EntropyMaskBits 9 is outside 0 to 8");
    c.entropy_mask_bits = 0;
    c.starting_port_offset = 65536;
    ASSERT_TRUE(entropy_config_error(c).has_value());
    EXPECT_EQ(*entropy_config_error(c), "StartingPortOffset 65536 is outside 0 to 65535");
}

TEST(entropy_config, reps_ranges)
{
    auto c = with_type(packet_spraying_type::reps);
    c.reps_buffer_size_mask_bits = 16;
    c.entropy_value_set_size = 1;
    EXPECT_FALSE(entropy_config_error(c).has_value());
    c.reps_buffer_size_mask_bits = 17;
    EXPECT_EQ(entropy_config_error(c).value_or(""), "REPSBufferSizeMaskBits 17 is outside 0 to 16");
    c.reps_buffer_size_mask_bits = 0;
    c.entropy_value_set_size = 0;
    EXPECT_EQ(entropy_config_error(c).value_or(""), "EntropyValueSetSize 0 is outside 1 to 65536");
    c.entropy_value_set_size = 65537;
    EXPECT_EQ(entropy_config_error(c).value_or(""),
              "EntropyValueSetSize 65537 is outside 1 to 65536");
    c.entropy_value_set_size = 65536;
    c.freezing_timeout_s = -1e-6;
    EXPECT_TRUE(entropy_config_error(c).has_value());
}

TEST(entropy_config, each_type_checks_only_its_own_attributes)
{
    auto c = with_type(packet_spraying_type::default_spraying);
    c.reps_buffer_size_mask_bits = 40;  // not read by Default Packet Spraying
    EXPECT_FALSE(entropy_config_error(c).has_value());
    c.type = packet_spraying_type::reps;
    c.reps_buffer_size_mask_bits = 3;
    c.entropy_mask_bits = 12;  // not read by REPS
    EXPECT_FALSE(entropy_config_error(c).has_value());
    c.type = packet_spraying_type::none;
    c.reps_buffer_size_mask_bits = 40;
    EXPECT_FALSE(entropy_config_error(c).has_value());
}

TEST(entropy_factory, refuses_an_invalid_configuration)
{
    auto c = with_type(packet_spraying_type::default_spraying);
    c.entropy_mask_bits = 9;
    EXPECT_THROW(make_entropy_policy(c, 1), std::invalid_argument);
    EXPECT_THROW(derive_spraying(c), std::invalid_argument);
}

// ---- Early failure detection ----

TEST(failure_detection, deadline_is_the_multiplier_times_the_base_rtt)
{
    auto c = with_type(packet_spraying_type::reps);
    EXPECT_NEAR(failure_detection_deadline_s(c, 6e-6), 18e-6, 1e-15);  // 3 x 6 us
    EXPECT_NEAR(failure_detection_deadline_s(c, 4e-6), 12e-6, 1e-15);  // a lower base RTT
    c.failure_detection_rtt_multiplier = 5;
    EXPECT_NEAR(failure_detection_deadline_s(c, 6e-6), 30e-6, 1e-15);
}

TEST(failure_detection, multiplier_0_turns_it_off)
{
    auto c = with_type(packet_spraying_type::reps);
    c.failure_detection_rtt_multiplier = 0;
    EXPECT_EQ(failure_detection_deadline_s(c, 6e-6), 0.0);
}

TEST(failure_detection, only_under_reps)
{
    EXPECT_EQ(failure_detection_deadline_s(with_type(packet_spraying_type::none), 6e-6), 0.0);
    EXPECT_EQ(failure_detection_deadline_s(with_type(packet_spraying_type::default_spraying), 6e-6),
              0.0);
}

// ---- None ----

TEST(entropy_none, one_fixed_value_the_local_udp_port)
{
    auto c = with_type(packet_spraying_type::none);
    c.local_udp_port = 49152;
    auto p = make_entropy_policy(c, 1);
    EXPECT_EQ(p->type(), packet_spraying_type::none);
    EXPECT_EQ(p->last_choice(), entropy_choice::none_yet);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(p->next(i * 1e-6), 49152);
    EXPECT_EQ(p->last_choice(), entropy_choice::fixed);
}

TEST(entropy_none, ignores_feedback)
{
    fixed_entropy_policy p(4500);
    EXPECT_EQ(p.next(0), 4500);
    send_every_feedback(p, 4500, 1e-6);
    send_every_feedback(p, 7, 1e-3);
    EXPECT_FALSE(p.freezing());
    EXPECT_EQ(p.next(2e-3), 4500);
    EXPECT_EQ(p.next(3e-3), 4500);
}

TEST(entropy_none, a_later_group_uses_its_own_first_pdcs_port)
{
    auto c = with_type(packet_spraying_type::none);
    c.local_udp_port = 1000;
    auto first = make_entropy_policy(c, 1);
    c.local_udp_port = 1001;
    auto second = make_entropy_policy(c, 2);
    EXPECT_EQ(first->next(0), 1000);
    EXPECT_EQ(second->next(0), 1001);
}

// ---- Default Packet Spraying ----

TEST(entropy_default, worked_example_ports_256_to_383_in_turn)
{
    auto p = make_entropy_policy(entropy_config{}, 1);
    EXPECT_EQ(p->type(), packet_spraying_type::default_spraying);
    EXPECT_EQ(p->next(0), 256);
    EXPECT_EQ(p->last_choice(), entropy_choice::round_robin);
    EXPECT_EQ(p->next(0), 257);
    EXPECT_EQ(p->next(0), 258);
    for (int i = 4; i < 128; ++i) p->next(0);
    EXPECT_EQ(p->next(0), 383);  // 128th
    EXPECT_EQ(p->next(0), 256);  // 129th: the round robin starts over
    EXPECT_EQ(p->next(0), 257);
}

TEST(entropy_default, worked_example_1_mib_uses_each_port_twice)
{
    // 1 MiB / 4096 B = 256 packets over 128 values.
    round_robin_entropy_policy p(7, 256);
    std::map<uint16_t, int> uses;
    for (int i = 0; i < 256; ++i) ++uses[p.next(0)];
    ASSERT_EQ(uses.size(), 128u);
    EXPECT_EQ(uses.begin()->first, 256);
    EXPECT_EQ(uses.rbegin()->first, 383);
    for (const auto& [port, n] : uses) EXPECT_EQ(n, 2) << port;
    EXPECT_EQ(p.steps(), 256u);
}

TEST(entropy_default, range_wraps_modulo_65536)
{
    // StartingPortOffset 65,535 with 8 bits: 65,535, then 0 to 254.
    round_robin_entropy_policy p(8, 65535);
    EXPECT_EQ(p.next(0), 65535);
    EXPECT_EQ(p.next(0), 0);
    EXPECT_EQ(p.next(0), 1);
    for (int i = 4; i < 256; ++i) p.next(0);
    EXPECT_EQ(p.next(0), 254);    // 256th
    EXPECT_EQ(p.next(0), 65535);  // 257th
    EXPECT_EQ(p.next(0), 0);
}

TEST(entropy_default, mask_bits_0_is_one_port)
{
    round_robin_entropy_policy p(0, 5000);
    for (int i = 0; i < 300; ++i) ASSERT_EQ(p.next(0), 5000);
}

TEST(entropy_default, mask_bits_8_is_256_ports)
{
    round_robin_entropy_policy p(8, 256);
    EXPECT_EQ(p.next(0), 256);
    for (int i = 2; i < 256; ++i) p.next(0);
    EXPECT_EQ(p.next(0), 511);  // 256th
    EXPECT_EQ(p.next(0), 256);
}

TEST(entropy_default, feedback_does_not_move_the_round_robin)
{
    round_robin_entropy_policy p(7, 256);
    EXPECT_EQ(p.next(0), 256);
    send_every_feedback(p, 256, 1e-6);
    EXPECT_FALSE(p.freezing());
    EXPECT_EQ(p.next(1e-3), 257);
}

TEST(entropy_default, one_sequence_shared_by_every_packet_of_the_group)
{
    // New packets and retransmissions of any message in flight each take the next step.
    round_robin_entropy_policy p(2, 100);
    const std::vector<uint16_t> expected{100, 101, 102, 103, 100, 101};
    for (uint16_t e : expected) EXPECT_EQ(p.next(0), e);
}

// ---- Factory ----

TEST(entropy_factory, builds_the_selected_type)
{
    EXPECT_NE(dynamic_cast<fixed_entropy_policy*>(
                  make_entropy_policy(with_type(packet_spraying_type::none), 1).get()),
              nullptr);
    EXPECT_NE(dynamic_cast<round_robin_entropy_policy*>(
                  make_entropy_policy(with_type(packet_spraying_type::default_spraying), 1).get()),
              nullptr);
    auto reps = make_entropy_policy(with_type(packet_spraying_type::reps), 1);
    ASSERT_NE(dynamic_cast<reps_policy*>(reps.get()), nullptr);
    EXPECT_EQ(reps->type(), packet_spraying_type::reps);
}

TEST(entropy_factory, reps_uses_the_seed)
{
    // seed 0's first draw over 0..65,535 is 33,912 (entropy_random_test.cpp).
    auto reps = make_entropy_policy(with_type(packet_spraying_type::reps), 0);
    EXPECT_EQ(reps->next(0), 33912);
    EXPECT_EQ(reps->last_choice(), entropy_choice::explored);
}

// ---- Derived values (inspect --json `spraying`) ----

TEST(derive_spraying, default_worked_example)
{
    const auto d = derive_spraying(entropy_config{});
    EXPECT_EQ(d.type, packet_spraying_type::default_spraying);
    ASSERT_EQ(d.ports.size(), 128u);
    for (size_t i = 0; i < 128; ++i) EXPECT_EQ(d.ports[i], 256 + i);
    EXPECT_FALSE(d.reps.has_value());
}

TEST(derive_spraying, default_wrap)
{
    auto c = with_type(packet_spraying_type::default_spraying);
    c.entropy_mask_bits = 8;
    c.starting_port_offset = 65535;
    const auto d = derive_spraying(c);
    ASSERT_EQ(d.ports.size(), 256u);
    EXPECT_EQ(d.ports[0], 65535);
    for (size_t i = 1; i < 256; ++i) EXPECT_EQ(d.ports[i], i - 1);
    EXPECT_EQ(d.ports[255], 254);
}

TEST(derive_spraying, default_mask_0)
{
    auto c = with_type(packet_spraying_type::default_spraying);
    c.entropy_mask_bits = 0;
    c.starting_port_offset = 7000;
    EXPECT_EQ(derive_spraying(c).ports, std::vector<uint16_t>{7000});
}

TEST(derive_spraying, none_is_the_fixed_value)
{
    auto c = with_type(packet_spraying_type::none);
    c.local_udp_port = 4500;
    const auto d = derive_spraying(c);
    EXPECT_EQ(d.type, packet_spraying_type::none);
    EXPECT_EQ(d.ports, std::vector<uint16_t>{4500});
    EXPECT_FALSE(d.reps.has_value());
}

TEST(derive_spraying, reps_worked_example)
{
    const auto d = derive_spraying(with_type(packet_spraying_type::reps));
    EXPECT_EQ(d.type, packet_spraying_type::reps);
    EXPECT_TRUE(d.ports.empty());
    ASSERT_TRUE(d.reps.has_value());
    const reps_derived& r = *d.reps;
    EXPECT_EQ(r.cache_entries, 8u);
    EXPECT_EQ(r.explore_lo, 0u);
    EXPECT_EQ(r.explore_hi, 65535u);
    EXPECT_DOUBLE_EQ(r.freezing_timeout_s, 100e-6);
    EXPECT_NEAR(r.failure_detection_deadline_s, 18e-6, 1e-15);
    EXPECT_EQ(r.bdp_bytes, 300000u);
    EXPECT_EQ(r.nominal_packet_bytes, 4184u);
    EXPECT_EQ(r.exploration_window_packets, 71u);
    EXPECT_EQ(r.exploring_packets, (std::vector<uint64_t>{7, 15, 23, 31, 39, 47, 55, 63, 71}));
}

TEST(derive_spraying, reps_cache_of_1_explores_every_window_packet)
{
    auto c = with_type(packet_spraying_type::reps);
    c.reps_buffer_size_mask_bits = 0;
    const auto r = *derive_spraying(c).reps;
    EXPECT_EQ(r.cache_entries, 1u);
    ASSERT_EQ(r.exploring_packets.size(), 71u);
    EXPECT_EQ(r.exploring_packets.front(), 1u);
    EXPECT_EQ(r.exploring_packets.back(), 71u);
}

TEST(derive_spraying, reps_cache_of_65536_explores_only_the_last)
{
    auto c = with_type(packet_spraying_type::reps);
    c.reps_buffer_size_mask_bits = 16;
    const auto r = *derive_spraying(c).reps;
    EXPECT_EQ(r.cache_entries, 65536u);
    EXPECT_EQ(r.exploring_packets, std::vector<uint64_t>{71});
}

TEST(derive_spraying, reps_other_inputs)
{
    // 100 Gbps x 12 us / 8 = 150,000 B; 1,024 + 88 = 1,112 B; 150,000 / 1,112 = 134.89 -> 134.
    // 16 entries: 134, 118, ..., 6 -> 6, 22, ..., 134 (9 packets). Set size 1,000: 0..999.
    auto c = with_type(packet_spraying_type::reps);
    c.link_rate_bps = 100e9;
    c.initial_base_rtt_s = 12e-6;
    c.rdma_data_mss = 1024;
    c.reps_buffer_size_mask_bits = 4;
    c.entropy_value_set_size = 1000;
    c.freezing_timeout_s = 200e-6;
    c.failure_detection_rtt_multiplier = 0;
    const auto r = *derive_spraying(c).reps;
    EXPECT_EQ(r.bdp_bytes, 150000u);
    EXPECT_EQ(r.nominal_packet_bytes, 1112u);
    EXPECT_EQ(r.exploration_window_packets, 134u);
    EXPECT_EQ(r.exploring_packets, (std::vector<uint64_t>{6, 22, 38, 54, 70, 86, 102, 118, 134}));
    EXPECT_EQ(r.explore_hi, 999u);
    EXPECT_DOUBLE_EQ(r.freezing_timeout_s, 200e-6);
    EXPECT_EQ(r.failure_detection_deadline_s, 0.0);
}

TEST(derive_spraying, reps_window_shorter_than_one_packet_is_empty)
{
    // 400 Gbps x 80 ns / 8 = 4,000 B < 4,184 B.
    auto c = with_type(packet_spraying_type::reps);
    c.initial_base_rtt_s = 80e-9;
    const auto r = *derive_spraying(c).reps;
    EXPECT_EQ(r.bdp_bytes, 4000u);
    EXPECT_EQ(r.exploration_window_packets, 0u);
    EXPECT_TRUE(r.exploring_packets.empty());
}
