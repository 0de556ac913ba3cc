// Member selection behind the member_selector interface: ecmp_selector picks exactly what the
// flow hash's select_member picks, for every EcmpHashMethod, and reports each hash to its
// observer. No kernel.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "hw/switch/member_selector.h"

using namespace uetsim;

namespace {

constexpr uint32_t k_salt = 0x9E3779B9u;

// The golden flow of flow_hash_test: UDP 10.0.0.1:0xC000 -> 10.0.1.2:4793.
packet golden_packet()
{
    packet p;
    p.ip.protocol = 17;
    p.ip.src = 0x0A000001u;
    p.ip.dst = 0x0A000102u;
    p.udp.src_port = 0xC000u;
    p.udp.dst_port = 4793;
    return p;
}

size_t pick(ecmp_hash_method m, const packet& p, size_t members)
{
    ecmp_selector s(m, k_salt);
    member_selector& through_interface = s;
    return through_interface.select(p, 0, 0, members, 0);
}

}  // namespace

// The golden hashes (flow_hash_test) modulo 6 members: crc32WithSalt 0x03EC = 1004 -> 2,
// crc32 0x867A = 34426 -> 4, hashWithSalt 0xD344 = 54084 -> 0, hash 0xD3BA = 54202 -> 4,
// dpr 0x101 = 257 -> 5; dprWithFallback: 257 is not a member of 6, so unsalted crc32 -> 4.
TEST(member_selector, ecmp_golden_flow_over_six_members)
{
    const packet p = golden_packet();
    EXPECT_EQ(pick(ecmp_hash_method::crc32_with_salt, p, 6), 2u);
    EXPECT_EQ(pick(ecmp_hash_method::crc32, p, 6), 4u);
    EXPECT_EQ(pick(ecmp_hash_method::hash_with_salt, p, 6), 0u);
    EXPECT_EQ(pick(ecmp_hash_method::hash, p, 6), 4u);
    EXPECT_EQ(pick(ecmp_hash_method::dpr, p, 6), 5u);
    EXPECT_EQ(pick(ecmp_hash_method::dpr_with_fallback, p, 6), 4u);
    // With 300 members destination index 257 is a member: no fallback.
    EXPECT_EQ(pick(ecmp_hash_method::dpr_with_fallback, p, 300), 257u);
}

TEST(member_selector, ecmp_matches_select_member_for_every_method)
{
    std::mt19937 rng(7);
    for (int mi = 0; mi <= 5; ++mi) {
        const auto m = static_cast<ecmp_hash_method>(mi);
        ecmp_selector s(m, k_salt);
        for (int i = 0; i < 2000; ++i) {
            packet p;
            p.ip.protocol = (i % 10 == 0) ? 1 : (i % 2 ? 17 : 6);  // some ICMP: member 0
            p.ip.src = rng();
            p.ip.dst = 0x0A000000u | (rng() & 0x3FF);
            p.udp.src_port = uint16_t(rng());
            p.udp.dst_port = uint16_t(rng());
            const size_t members = 1 + rng() % 16;
            const flow_key k{p.ip.protocol, p.ip.src, p.ip.dst, p.udp.src_port, p.udp.dst_port};
            ASSERT_EQ(s.select(p, 0, 0, members, uint64_t(i)), select_member(m, k, k_salt, members))
                << to_string(m) << " key " << i;
        }
    }
}

// The flow_hasher seam (Rtl.FlowHash rtl|both): the selector takes the member from the hasher's
// answer, asks it again for the dprWithFallback fallback (crc32, salt 0), and asks nothing when
// there is no choice or the packet is not UDP/TCP.
TEST(member_selector, the_hasher_seam_answers_every_hash)
{
    struct fixed_hasher : flow_hasher
    {
        std::vector<std::pair<ecmp_hash_method, uint32_t>> asked;
        uint16_t answer = 0;
        uint16_t hash16(ecmp_hash_method m, const flow_key& k, uint32_t salt) override
        {
            EXPECT_EQ(k.src_port, 0xC000u);
            asked.push_back({m, salt});
            return m == ecmp_hash_method::crc32 ? uint16_t(0x867A) : answer;
        }
    } h;
    ecmp_selector s(ecmp_hash_method::crc32_with_salt, k_salt);
    s.use_hasher(&h);
    packet p = golden_packet();
    EXPECT_EQ(s.select(p, 0, 0, 1, 0), 0u);  // one member: no hash asked
    EXPECT_TRUE(h.asked.empty());
    h.answer = 13;
    EXPECT_EQ(s.select(p, 0, 0, 6, 0), 1u);  // 13 % 6, not the model's 0x03EC % 6 = 2
    ASSERT_EQ(h.asked.size(), 1u);
    EXPECT_EQ(h.asked[0].first, ecmp_hash_method::crc32_with_salt);
    EXPECT_EQ(h.asked[0].second, k_salt);
    p.ip.protocol = 1;  // not UDP/TCP: member 0, no hash
    EXPECT_EQ(s.select(p, 0, 0, 6, 0), 0u);
    EXPECT_EQ(h.asked.size(), 1u);
    p.ip.protocol = 17;

    ecmp_selector f(ecmp_hash_method::dpr_with_fallback, k_salt);
    f.use_hasher(&h);
    h.asked.clear();
    h.answer = 4;  // a member of 6: no fallback
    EXPECT_EQ(f.select(p, 0, 0, 6, 0), 4u);
    EXPECT_EQ(h.asked.size(), 1u);
    h.answer = 9;  // not a member: the fallback hash, crc32 with salt 0, asked of the hasher too
    EXPECT_EQ(f.select(p, 0, 0, 6, 0), 0x867Au % 6);
    ASSERT_EQ(h.asked.size(), 3u);
    EXPECT_EQ(h.asked[2].first, ecmp_hash_method::crc32);
    EXPECT_EQ(h.asked[2].second, 0u);
    f.use_hasher(nullptr);  // back to the model
    EXPECT_EQ(f.select(p, 0, 0, 6, 0),
              select_member(ecmp_hash_method::dpr_with_fallback, flow_key_of(p), k_salt, 6));
}
