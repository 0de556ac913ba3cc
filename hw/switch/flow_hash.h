// Flow identity for equal-cost path selection: the six EcmpHashMethods of the switch pages.
// Pure logic (no SystemC) so that it is unit-testable and an RTL block (rtl/flow_hash) can be
// checked against it bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace uetsim {

enum class ecmp_hash_method : uint8_t {
    crc32_with_salt = 0,  // default
    crc32 = 1,
    hash_with_salt = 2,
    hash = 3,
    dpr = 4,
    dpr_with_fallback = 5,
};

// The scenario spelling of each method (crc32WithSalt, ...); nullptr-free, never fails.
std::string_view to_string(ecmp_hash_method m);
bool parse_ecmp_hash_method(std::string_view s, ecmp_hash_method& out);

// The header fields the flow hash reads.
struct flow_key
{
    uint8_t protocol = 17;
    uint32_t src_ip = 0;
    uint32_t dst_ip = 0;
    uint16_t src_port = 0;
    uint16_t dst_port = 0;
};

// Standard IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320), `state` is the running register
// before the final inversion; crc32_ieee("123456789") == 0xCBF43926.
uint32_t crc32_update(uint32_t state, const uint8_t* data, size_t n);
uint32_t crc32_ieee(const uint8_t* data, size_t n);

// The 13 bytes the CRC covers, in order: protocol, source port, destination port, source
// address, destination address (network byte order).
void flow_key_bytes(const flow_key& k, uint8_t out[13]);

// murmur3's fmix32: the non-linear finalizer of crc32WithSalt.
uint32_t fmix32(uint32_t x);

// The 16-bit flow hash of a UDP/TCP packet under `m`. For dpr and dprWithFallback it is the
// destination index, the low 9 bits of (destination address - 1).
uint16_t flow_hash16(ecmp_hash_method m, const flow_key& k, uint32_t salt);

// The equal-cost member (0..members-1) a packet takes. Packets that are neither TCP nor UDP all
// share one flow identity (hash 0).
size_t select_member(ecmp_hash_method m, const flow_key& k, uint32_t salt, size_t members);

// select_member with the hash taken from `hash(method, key, salt)` (an RTL block through the
// switch's flow_hasher seam); the dprWithFallback fallback asks it for crc32 with salt 0.
template <class Hash>
size_t select_member_by(ecmp_hash_method m, const flow_key& k, uint32_t salt, size_t members,
                        Hash&& hash)
{
    if (members <= 1) return 0;
    if (k.protocol != 17 && k.protocol != 6) return 0;  // only UDP and TCP carry ports
    uint16_t h = hash(m, k, salt);
    if (m == ecmp_hash_method::dpr_with_fallback && h >= members)
        h = hash(ecmp_hash_method::crc32, k, 0);
    return h % members;
}

// The per-switch salt, derived from the switch's node id and the run's RandomSeed.
uint32_t switch_salt(uint32_t node_id, uint64_t random_seed);

}  // namespace uetsim
