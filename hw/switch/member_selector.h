// Member selection: which member of an equal-cost set a packet leaves on. An interface so that
// a selector with state (flowlets: a flow table, a gap timer; flowlet_selector.h) is a class
// beside the stateless ECMP hash. The switch holds its ecmp_selector by value and calls it
// directly (the class is final), so the hash path costs no virtual call per packet.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hw/switch/flow_hash.h"
#include "hw/switch/flow_hasher.h"
#include "tlm/packet.h"

namespace uetsim {

class member_selector
{
public:
    virtual ~member_selector() = default;
    // The member (0..members-1) of equal-cost set `set` that `p`, classified in traffic class
    // `tc`, takes at time `now_ps`.
    virtual size_t select(const packet& p, uint8_t tc, int32_t set, size_t members,
                          uint64_t now_ps) = 0;
    // The packet of the last select() was admitted to that member's egress queue at `now_ps`.
    // A selector with state commits its decision here; a packet dropped at admission is never
    // reported, so it leaves the state as it was (the switch pages' flowlet rule).
    virtual void admitted(uint64_t /*now_ps*/) {}
};

// What a selector with state may ask the switch about an egress port (a member).
class member_view
{
public:
    virtual ~member_view() = default;
    // Bytes the port holds in its egress queues, all pools, the frame serialising included.
    virtual uint64_t egress_bytes(uint16_t port) const = 0;
    // Whether PFC has paused traffic class `tc` on the port. The default, never: a view without
    // PFC. fabric_switch answers from the port's scheduler, which PFC pauses and resumes.
    virtual bool paused(uint16_t /*port*/, uint8_t /*tc*/) const { return false; }
};

// The header fields the flow hash reads.
inline flow_key flow_key_of(const packet& p)
{
    return {p.ip.protocol, p.ip.src, p.ip.dst, p.udp.src_port, p.udp.dst_port};
}

// ECMP: the flow hash of the EcmpHashMethod with the switch's salt, modulo the set size.
class ecmp_selector final : public member_selector
{
public:
    ecmp_selector(ecmp_hash_method method, uint32_t salt) : m_method(method), m_salt(salt) {}

    size_t select(const packet& p, uint8_t /*tc*/, int32_t /*set*/, size_t members,
                  uint64_t /*now_ps*/) override
    {
        if (members <= 1) return 0;  // no choice, no hash
        const flow_key k = flow_key_of(p);
        if (!m_hasher) return select_member(m_method, k, m_salt, members);
        return select_member_by(m_method, k, m_salt, members,
                                [this](ecmp_hash_method m, const flow_key& key, uint32_t salt) {
                                    return m_hasher->hash16(m, key, salt);
                                });
    }

    // The seam for an RTL flow-hash block (Rtl.FlowHash rtl|both): the hashes come from `h`
    // (not owned; null: the C++ model flow_hash16).
    void use_hasher(flow_hasher* h) { m_hasher = h; }
    // A pure function of the packet (no RTL block answering in its own time).
    bool pure() const { return m_hasher == nullptr; }
    ecmp_hash_method method() const { return m_method; }
    uint32_t salt() const { return m_salt; }

private:
    ecmp_hash_method m_method;
    uint32_t m_salt;
    flow_hasher* m_hasher = nullptr;
};

}  // namespace uetsim
