// Pure-logic tests of the switch's flow hash (hw/switch/flow_hash.*); no SystemC kernel.
// Golden values were computed independently (Python: zlib.crc32 and a murmur3 fmix32).
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>

#include "hw/switch/flow_hash.h"

using namespace uetsim;

namespace {

// A UET/RoCE-like flow: UDP to port 4793, the source port carries the entropy.
flow_key udp_key(uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport = 4793)
{
    flow_key k;
    k.protocol = 17;
    k.src_ip = sip;
    k.dst_ip = dip;
    k.src_port = sport;
    k.dst_port = dport;
    return k;
}

}  // namespace

TEST(flow_hash, crc32_check_value)
{
    const char* s = "123456789";
    EXPECT_EQ(crc32_ieee(reinterpret_cast<const uint8_t*>(s), std::strlen(s)), 0xCBF43926u);
}

TEST(flow_hash, crc32_of_empty_is_zero)
{
    EXPECT_EQ(crc32_ieee(nullptr, 0), 0u);
}

TEST(flow_hash, crc32_update_chains)
{
    const uint8_t* p = reinterpret_cast<const uint8_t*>("123456789");
    uint32_t st = crc32_update(0xFFFFFFFFu, p, 4);
    st = crc32_update(st, p + 4, 5);
    EXPECT_EQ(st ^ 0xFFFFFFFFu, 0xCBF43926u);
}

// The table-sliced CRC against the bit-serial definition: every length from 0 to 40 (every mix
// of 8-byte, 4-byte and single-byte steps) from random registers.
TEST(flow_hash, crc32_update_equals_the_bit_serial_crc)
{
    auto bitwise = [](uint32_t c, const uint8_t* d, size_t n) {
        for (size_t i = 0; i < n; ++i) {
            c ^= d[i];
            for (int b = 0; b < 8; ++b) c = (c & 1u) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
        }
        return c;
    };
    std::mt19937 rng(7);
    uint8_t data[40];
    for (int round = 0; round < 50; ++round) {
        for (uint8_t& b : data) b = uint8_t(rng());
        const uint32_t state = rng();
        for (size_t n = 0; n <= sizeof data; ++n)
            ASSERT_EQ(crc32_update(state, data, n), bitwise(state, data, n)) << n << " bytes";
    }
}

TEST(flow_hash, fmix32_known_values)
{
    EXPECT_EQ(fmix32(0u), 0u);
    EXPECT_EQ(fmix32(1u), 0x514E28B7u);
    EXPECT_EQ(fmix32(0xDEADBEEFu), 0x0DE5C6A9u);
    EXPECT_EQ(fmix32(0xFFFFFFFFu), 0x81F16F39u);
    EXPECT_EQ(fmix32(0x12345678u), 0xE37CD1BCu);
}

TEST(flow_hash, key_bytes_are_protocol_ports_addresses_big_endian)
{
    const flow_key k = udp_key(0x0A000001u, 0x0A000102u, 0xC000u);
    uint8_t b[13];
    flow_key_bytes(k, b);
    const std::array<uint8_t, 13> want{0x11, 0xC0, 0x00, 0x12, 0xB9, 0x0A, 0x00,
                                       0x00, 0x01, 0x0A, 0x00, 0x01, 0x02};
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(b[i], want[i]) << "byte " << i;
    EXPECT_EQ(crc32_ieee(b, sizeof b), 0xC5D543AFu);
}

TEST(flow_hash, golden_vector_every_method)
{
    const flow_key k = udp_key(0x0A000001u, 0x0A000102u, 0xC000u);
    const uint32_t salt = 0x9E3779B9u;
    EXPECT_EQ(flow_hash16(ecmp_hash_method::crc32_with_salt, k, salt), 0x03ECu);
    EXPECT_EQ(flow_hash16(ecmp_hash_method::crc32, k, salt), 0x867Au);  // 0xC5D5 ^ 0x43AF
    EXPECT_EQ(flow_hash16(ecmp_hash_method::hash_with_salt, k, salt), 0xD344u);
    EXPECT_EQ(flow_hash16(ecmp_hash_method::hash, k, salt), 0xD3BAu);
    EXPECT_EQ(flow_hash16(ecmp_hash_method::dpr, k, salt), 0x101u);
    EXPECT_EQ(flow_hash16(ecmp_hash_method::dpr_with_fallback, k, salt), 0x101u);
}

TEST(flow_hash, unsalted_methods_ignore_the_salt)
{
    const flow_key k = udp_key(0x0A000003u, 0x0A000207u, 0x1234u);
    for (auto m : {ecmp_hash_method::crc32, ecmp_hash_method::hash, ecmp_hash_method::dpr,
                   ecmp_hash_method::dpr_with_fallback})
        EXPECT_EQ(flow_hash16(m, k, 1u), flow_hash16(m, k, 0xABCDEF01u)) << to_string(m);
    EXPECT_NE(flow_hash16(ecmp_hash_method::crc32_with_salt, k, 1u),
              flow_hash16(ecmp_hash_method::crc32_with_salt, k, 0xABCDEF01u));
}

TEST(flow_hash, method_names_round_trip)
{
    for (int i = 0; i <= 5; ++i) {
        const auto m = static_cast<ecmp_hash_method>(i);
        ecmp_hash_method back = ecmp_hash_method::crc32;
        ASSERT_TRUE(parse_ecmp_hash_method(to_string(m), back)) << to_string(m);
        EXPECT_EQ(back, m);
    }
    ecmp_hash_method out;
    EXPECT_FALSE(parse_ecmp_hash_method("crc64", out));
    EXPECT_EQ(to_string(ecmp_hash_method::crc32_with_salt), "crc32WithSalt");
    EXPECT_EQ(to_string(ecmp_hash_method::dpr_with_fallback), "dprWithFallback");
}

TEST(flow_hash, dpr_is_low_nine_bits_of_destination_minus_one)
{
    flow_key k = udp_key(0x0A000001u, 0x0A000001u, 7);
    EXPECT_EQ(flow_hash16(ecmp_hash_method::dpr, k, 0), 0u);
    k.dst_ip = 0x0A000000u;  // wraps within the 9 bits
    EXPECT_EQ(flow_hash16(ecmp_hash_method::dpr, k, 0), 0x1FFu);
    k.dst_ip = 0u;
    EXPECT_EQ(flow_hash16(ecmp_hash_method::dpr, k, 0), 0x1FFu);
    k.dst_ip = 0x0A0003FFu;  // (..3FE) & 0x1FF
    EXPECT_EQ(flow_hash16(ecmp_hash_method::dpr, k, 0), 0x1FEu);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 1000; ++i) {
        k.dst_ip = static_cast<uint32_t>(rng());
        k.src_port = static_cast<uint16_t>(rng());
        EXPECT_EQ(flow_hash16(ecmp_hash_method::dpr, k, static_cast<uint32_t>(rng())),
                  (k.dst_ip - 1u) & 0x1FFu);
        EXPECT_EQ(select_member(ecmp_hash_method::dpr, k, 0, 64), ((k.dst_ip - 1u) & 0x1FFu) % 64);
    }
}

TEST(flow_hash, dpr_with_fallback_uses_crc32_when_index_is_not_a_member)
{
    const size_t members = 8;
    std::mt19937_64 rng(11);
    int fell_back = 0, direct = 0;
    for (int i = 0; i < 2000; ++i) {
        flow_key k = udp_key(static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()),
                             static_cast<uint16_t>(rng()));
        const uint32_t salt = static_cast<uint32_t>(rng());
        const uint32_t index = (k.dst_ip - 1u) & 0x1FFu;
        const size_t got = select_member(ecmp_hash_method::dpr_with_fallback, k, salt, members);
        if (index < members) {
            ++direct;
            EXPECT_EQ(got, index);
        } else {
            ++fell_back;
            EXPECT_EQ(got, flow_hash16(ecmp_hash_method::crc32, k, 0) % members);
        }
    }
    // And a destination whose index is a member, explicitly.
    flow_key k = udp_key(0x0A000001u, 0x0A000004u, 99);  // index 3
    EXPECT_EQ(select_member(ecmp_hash_method::dpr_with_fallback, k, 5, members), 3u);
    k.dst_ip = 0x0A000010u;  // index 15 >= 8: crc32 of the tuple
    EXPECT_EQ(select_member(ecmp_hash_method::dpr_with_fallback, k, 5, members),
              flow_hash16(ecmp_hash_method::crc32, k, 0) % members);
    EXPECT_GT(fell_back, 0);
    EXPECT_GT(direct, 0);
}

TEST(flow_hash, non_udp_tcp_protocols_always_take_member_zero)
{
    std::mt19937_64 rng(3);
    for (int i = 0; i < 2000; ++i) {
        flow_key k = udp_key(static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()),
                             static_cast<uint16_t>(rng()), static_cast<uint16_t>(rng()));
        do k.protocol = static_cast<uint8_t>(rng());
        while (k.protocol == 6 || k.protocol == 17);
        for (int m = 0; m <= 5; ++m)
            EXPECT_EQ(select_member(static_cast<ecmp_hash_method>(m), k,
                                    static_cast<uint32_t>(rng()), 16),
                      0u);
    }
    // TCP is hashed like UDP.
    flow_key k = udp_key(0x0A000001u, 0x0A000102u, 0xC000u);
    k.protocol = 6;
    int nonzero = 0;
    for (uint16_t sp = 0; sp < 64; ++sp) {
        k.src_port = sp;
        nonzero += select_member(ecmp_hash_method::crc32, k, 0, 16) != 0;
    }
    EXPECT_GT(nonzero, 0);
}

TEST(flow_hash, one_member_is_always_member_zero)
{
    const flow_key k = udp_key(1, 2, 3);
    for (int m = 0; m <= 5; ++m) {
        EXPECT_EQ(select_member(static_cast<ecmp_hash_method>(m), k, 77, 1), 0u);
        EXPECT_EQ(select_member(static_cast<ecmp_hash_method>(m), k, 77, 0), 0u);
    }
}

TEST(flow_hash, crc32_with_salt_spreads_evenly_over_eight_members)
{
    const size_t members = 8, n = 100000;
    std::mt19937_64 rng(2024);
    const uint32_t salt = switch_salt(5, 42);
    std::array<size_t, members> count{};
    for (size_t i = 0; i < n; ++i) {
        // Hosts in 10.0.0.0/16 and a random source port (the entropy value).
        const flow_key k = udp_key(0x0A000000u | static_cast<uint32_t>(rng() & 0xFFFFu),
                                   0x0A000000u | static_cast<uint32_t>(rng() & 0xFFFFu),
                                   static_cast<uint16_t>(rng()));
        ++count[select_member(ecmp_hash_method::crc32_with_salt, k, salt, members)];
    }
    const double expected = double(n) / members;
    for (size_t m = 0; m < members; ++m)
        EXPECT_NEAR(double(count[m]), expected, 0.03 * expected) << "member " << m;
}

TEST(flow_hash, different_salts_decorrelate_tiers_and_crc32_does_not)
{
    // Two switches (e.g. a leaf and a spine) pick among 8 members for the same flows. With
    // crc32WithSalt and their own salts the two choices are nearly independent (agreement close
    // to 1/8); with plain crc32 both pick the same member for every flow (polarization).
    const size_t members = 8, n = 100000;
    const uint32_t salt_a = switch_salt(1, 42), salt_b = switch_salt(2, 42);
    ASSERT_NE(salt_a, salt_b);
    std::mt19937_64 rng(99);
    size_t agree_salted = 0, agree_plain = 0;
    for (size_t i = 0; i < n; ++i) {
        const flow_key k = udp_key(0x0A000000u | static_cast<uint32_t>(rng() & 0xFFFFu),
                                   0x0A000000u | static_cast<uint32_t>(rng() & 0xFFFFu),
                                   static_cast<uint16_t>(rng()));
        agree_salted += select_member(ecmp_hash_method::crc32_with_salt, k, salt_a, members) ==
                        select_member(ecmp_hash_method::crc32_with_salt, k, salt_b, members);
        agree_plain += select_member(ecmp_hash_method::crc32, k, salt_a, members) ==
                       select_member(ecmp_hash_method::crc32, k, salt_b, members);
    }
    EXPECT_NEAR(double(agree_salted) / n, 1.0 / members, 0.01);
    EXPECT_EQ(agree_plain, n);
}

TEST(flow_hash, switch_salt_is_deterministic_and_distinct)
{
    EXPECT_EQ(switch_salt(3, 42), switch_salt(3, 42));
    EXPECT_NE(switch_salt(3, 42), switch_salt(4, 42));
    EXPECT_NE(switch_salt(3, 42), switch_salt(3, 43));
}
