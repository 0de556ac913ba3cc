#include "hw/switch/flow_hash.h"

#include <array>
#include <cstddef>

namespace uetsim {

namespace {

// Slicing-by-8 tables: table[0] is the byte-wise CRC-32 table; table[k][i] is the register
// after byte i followed by k zero bytes, so eight bytes fold in one step of independent lookups.
constexpr std::array<std::array<uint32_t, 256>, 8> make_crc_tables()
{
    std::array<std::array<uint32_t, 256>, 8> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int b = 0; b < 8; ++b) c = (c & 1u) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
        t[0][i] = c;
    }
    for (size_t k = 1; k < 8; ++k)
        for (uint32_t i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFu];
    return t;
}
constexpr auto crc_tables = make_crc_tables();

constexpr uint32_t load_le32(const uint8_t* p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

constexpr uint16_t fold16(uint32_t x)
{
    return static_cast<uint16_t>((x >> 16) ^ (x & 0xFFFFu));
}

}  // namespace

std::string_view to_string(ecmp_hash_method m)
{
    switch (m) {
        case ecmp_hash_method::crc32_with_salt:
            return "crc32WithSalt";
        case ecmp_hash_method::crc32:
            return "crc32";
        case ecmp_hash_method::hash_with_salt:
            return "hashWithSalt";
        case ecmp_hash_method::hash:
            return "hash";
        case ecmp_hash_method::dpr:
            return "dpr";
        case ecmp_hash_method::dpr_with_fallback:
            return "dprWithFallback";
    }
    return "crc32WithSalt";
}

bool parse_ecmp_hash_method(std::string_view s, ecmp_hash_method& out)
{
    for (int i = 0; i <= 5; ++i) {
        auto m = static_cast<ecmp_hash_method>(i);
        if (to_string(m) == s) {
            out = m;
            return true;
        }
    }
    return false;
}

uint32_t crc32_update(uint32_t state, const uint8_t* data, size_t n)
{
    const auto& t = crc_tables;
    for (; n >= 8; n -= 8, data += 8) {
        const uint32_t a = load_le32(data) ^ state;
        const uint32_t b = load_le32(data + 4);
        state = t[7][a & 0xFFu] ^ t[6][(a >> 8) & 0xFFu] ^ t[5][(a >> 16) & 0xFFu] ^ t[4][a >> 24] ^
                t[3][b & 0xFFu] ^ t[2][(b >> 8) & 0xFFu] ^ t[1][(b >> 16) & 0xFFu] ^ t[0][b >> 24];
    }
    if (n >= 4) {
        const uint32_t a = load_le32(data) ^ state;
        state = t[3][a & 0xFFu] ^ t[2][(a >> 8) & 0xFFu] ^ t[1][(a >> 16) & 0xFFu] ^ t[0][a >> 24];
        n -= 4;
        data += 4;
    }
    for (; n > 0; --n, ++data) state = t[0][(state ^ *data) & 0xFFu] ^ (state >> 8);
    return state;
}

uint32_t crc32_ieee(const uint8_t* data, size_t n)
{
    return crc32_update(0xFFFFFFFFu, data, n) ^ 0xFFFFFFFFu;
}

void flow_key_bytes(const flow_key& k, uint8_t out[13])
{
    out[0] = k.protocol;
    out[1] = static_cast<uint8_t>(k.src_port >> 8);
    out[2] = static_cast<uint8_t>(k.src_port);
    out[3] = static_cast<uint8_t>(k.dst_port >> 8);
    out[4] = static_cast<uint8_t>(k.dst_port);
    for (int i = 0; i < 4; ++i) {
        out[5 + i] = static_cast<uint8_t>(k.src_ip >> (24 - 8 * i));
        out[9 + i] = static_cast<uint8_t>(k.dst_ip >> (24 - 8 * i));
    }
}

uint32_t fmix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    return x;
}

uint16_t flow_hash16(ecmp_hash_method m, const flow_key& k, uint32_t salt)
{
    uint8_t bytes[13];
    switch (m) {
        case ecmp_hash_method::crc32: {
            flow_key_bytes(k, bytes);
            return fold16(crc32_ieee(bytes, sizeof bytes));
        }
        case ecmp_hash_method::crc32_with_salt: {
            // The salt seeds the CRC register, and the finalizer mixes it in again so that
            // adjacent tiers with different salts decorrelate.
            flow_key_bytes(k, bytes);
            uint32_t crc = crc32_update(0xFFFFFFFFu ^ salt, bytes, sizeof bytes) ^ 0xFFFFFFFFu;
            return fold16(fmix32(crc ^ salt));
        }
        case ecmp_hash_method::hash:
            return fold16(k.src_ip ^ k.dst_ip ^ ((uint32_t(k.src_port) << 16) | k.dst_port));
        case ecmp_hash_method::hash_with_salt:
            return fold16((k.src_ip ^ k.dst_ip ^ ((uint32_t(k.src_port) << 16) | k.dst_port)) +
                          salt);
        case ecmp_hash_method::dpr:
        case ecmp_hash_method::dpr_with_fallback:
            return static_cast<uint16_t>((k.dst_ip - 1u) & 0x1FFu);
    }
    return 0;
}

size_t select_member(ecmp_hash_method m, const flow_key& k, uint32_t salt, size_t members)
{
    return select_member_by(m, k, salt, members, flow_hash16);
}

uint32_t switch_salt(uint32_t node_id, uint64_t random_seed)
{
    // splitmix64 step over (seed, node id): distinct, well-mixed salts per switch and per run.
    uint64_t z =
        random_seed * 0x9E3779B97F4A7C15ull + (uint64_t(node_id) + 1) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<uint32_t>(z);
}

}  // namespace uetsim
