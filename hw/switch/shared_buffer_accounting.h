// Run-time accounting of the switch's shared buffer, the shared-buffer page's table row by row:
// ingress occupancy and headroom per (ingress port, pool), the pools' ingress and egress totals,
// egress queues per (egress port, pool). It decides and counts; it sends nothing: each call
// returns what the switch must do (admit, drop with a reason, send a pause or a resume for a
// port's priority group), and the switch acts on it through buffer_manager.
// Pure logic over flat arrays, one per switch; each call is a few adds and compares (inline).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hw/switch/shared_buffer_config.h"

namespace uetsim {

enum class buffer_drop : uint8_t {
    none,
    headroom,      // ingress: a paused port's headroom for the pool would be exceeded
    ingress_pool,  // ingress: the pool's occupancy would be above its size (any class)
    egress_limit,  // egress, lossy: over the port's egress queue limit for the pool
    egress_pool,   // egress, lossy: over the pool's free egress bytes
};
const char* to_string(buffer_drop d);

// A PFC signal for one ingress port and pool: one frame per class of `classes`, the pool's
// priority group (bit t: TCt).
struct pfc_signal
{
    bool send = false;
    uint16_t port = 0;
    uint8_t pool = 0;
    uint8_t classes = 0;
};

// What the switch carries with an admitted packet (page, ingress step 7) to release its ingress
// charge later: where it arrived, its class and pool, and the bytes it was charged.
struct switch_tag
{
    uint16_t in_port = 0;
    uint8_t tc = 0;
    uint8_t pool = 0;
    uint32_t bytes = 0;
    bool headroom = false;  // charged to headroom (the port was paused) rather than to the pool
    // Arrived on a CBFC virtual channel: 1 + the VC (0: not), charged to the port's credit space
    // rather than to the pool, and the credits its release returns to the sender.
    uint8_t credit_vc = 0;
    uint16_t credits = 0;
};
static_assert(sizeof(switch_tag) == 12, "the tag travels with every packet in the switch");

struct ingress_decision
{
    buffer_drop drop = buffer_drop::none;
    pfc_signal xoff;  // send a pause: set even when the packet then overflows the pool
    switch_tag tag;   // valid when admitted
    bool admitted() const { return drop == buffer_drop::none; }
};

// What the egress side holds for a queued packet, released when its transmission completes.
struct egress_charge
{
    uint16_t out_port = 0;
    uint8_t pool = 0;
    uint32_t bytes = 0;
};

struct egress_decision
{
    buffer_drop drop = buffer_drop::none;
    egress_charge charge;  // valid when admitted
    bool admitted() const { return drop == buffer_drop::none; }
};

class shared_buffer_accounting
{
public:
    // `ports`: the switch's port count (ports without a link hold nothing).
    shared_buffer_accounting(const shared_buffer_layout& layout, size_t ports);

    // A packet of `bytes` (as the buffer counts them) in class `tc` arrives on `port`.
    ingress_decision on_ingress(uint16_t port, uint8_t tc, uint32_t bytes);
    // An admission promised ahead of the arrival (fabric_switch::take_ahead): true when a
    // packet of class `tc` charging `bytes` on `port` will be admitted, without a pause,
    // whatever arrives before it; it then counts as promised until on_ingress() takes it
    // (keep_promise) or it is lost (break_promise). The pool holds it if it holds every packet
    // promised, the margin (set_arrival_margin: at most what all ports can bring in before a
    // packet taken now arrives) and this one. A lossless class must also stay short of Xoff on
    // its port, whose occupancy grows only by its own arrivals, which come in order: those
    // promised before it and `bytes_before` (what the port's link carries ahead of it).
    bool promise_admission(uint16_t port, uint8_t tc, uint32_t bytes, uint64_t bytes_before)
    {
        const uint8_t pool = m_layout.pool_of(tc);
        if (m_pool_ingress[pool] + m_promised_pool[pool] + m_arrival_margin + bytes >
            m_layout.pools[pool].bytes)
            return false;
        const size_t s = slot(port, pool);
        if (m_layout.lossless(tc) &&
            (m_paused[s] ||
             m_occupancy[s] + m_promised[s] + bytes_before + bytes > m_layout.xoff_bytes))
            return false;
        m_promised[s] += bytes;
        m_promised_pool[pool] += bytes;
        return true;
    }
    void keep_promise(uint16_t port, uint8_t tc, uint32_t bytes)
    {
        const uint8_t pool = m_layout.pool_of(tc);
        m_promised[slot(port, pool)] -= bytes;
        m_promised_pool[pool] -= bytes;
    }
    void break_promise(uint16_t port, uint8_t tc, uint32_t bytes) { keep_promise(port, tc, bytes); }
    void set_arrival_margin(uint64_t bytes) { m_arrival_margin = bytes; }

    // A packet that arrived on CBFC virtual channel `vc` with `credits`: its sender had credit
    // for it, so it is charged to the port's credit space (reserved at start, outside the pools)
    // and always admitted; it never pauses the port.
    ingress_decision on_credit_ingress(uint16_t port, uint8_t tc, uint32_t bytes, uint8_t vc,
                                       uint16_t credits);

    // The admitted packet `tag` is offered to `out_port`'s queue in class `tc` with `bytes`
    // (its ingress class and size unless trimmed). Lossless classes are never refused; a lossy
    // packet over a bound is refused and its ingress charge released here.
    egress_decision on_egress(const switch_tag& tag, uint16_t out_port, uint8_t tc, uint32_t bytes,
                              bool trimmable_rtx);

    // What on_egress would refuse the packet for (none: it fits), without charging anything:
    // the trimmer asks before it cuts a packet down.
    buffer_drop egress_refusal(uint16_t out_port, uint8_t tc, uint32_t bytes,
                               bool trimmable_rtx) const;

    // A trimmed packet keeps only its headers: its ingress charge shrinks to `bytes`.
    void shrink_ingress(switch_tag& tag, uint32_t bytes);

    // An admitted packet that leaves without egress (no route): its ingress charge is released.
    void release_ingress(const switch_tag& tag);

    // Its transmission has completed: both charges are released, a lossless one headroom first;
    // returns the resume to send when the port's headroom is empty and its occupancy at or below
    // Xon while paused.
    pfc_signal on_transmit_complete(const switch_tag& tag, const egress_charge& charge);

    const shared_buffer_layout& layout() const { return m_layout; }
    size_t ports() const { return m_paused.size() / shared_buffer_pools; }
    bool paused(uint16_t port, uint8_t pool) const { return m_paused[slot(port, pool)] != 0; }
    // Whether any (port, pool) has a pause out (a release may then send its resume).
    bool any_paused() const { return m_stats.xoff_sent != m_stats.xon_sent; }
    uint64_t ingress_occupancy(uint16_t port, uint8_t pool) const
    {
        return m_occupancy[slot(port, pool)];
    }
    uint64_t headroom(uint16_t port, uint8_t pool) const { return m_headroom[slot(port, pool)]; }
    // Bytes held against CBFC credit on the port, and on the whole switch, in the pool's classes.
    uint64_t credit_held(uint16_t port, uint8_t pool) const
    {
        return m_credit.empty() ? 0 : m_credit[slot(port, pool)];
    }
    uint64_t pool_credit_bytes(uint8_t pool) const { return m_pool_credit[pool]; }
    uint64_t pool_ingress_bytes(uint8_t pool) const { return m_pool_ingress[pool]; }
    uint64_t egress_queue_bytes(uint16_t port, uint8_t pool) const
    {
        return m_egress[slot(port, pool)];
    }
    uint64_t pool_egress_bytes(uint8_t pool) const { return m_pool_egress[pool]; }

    struct counters
    {
        uint64_t admitted = 0;  // at ingress
        uint64_t dropped_headroom = 0;
        uint64_t dropped_ingress_pool = 0;
        uint64_t dropped_egress_limit = 0;
        uint64_t dropped_egress_pool = 0;
        uint64_t xoff_sent = 0;
        uint64_t xon_sent = 0;
    };
    const counters& stats() const { return m_stats; }

private:
    static size_t slot(uint16_t port, uint8_t pool)
    {
        return size_t(port) * shared_buffer_pools + pool;
    }
    shared_buffer_layout m_layout;
    std::vector<uint64_t> m_occupancy;  // [port * pools + pool]: bytes brought in, not headroom
    std::vector<uint64_t> m_headroom;
    std::vector<uint64_t> m_egress;
    std::vector<uint64_t> m_credit;    // bytes held against CBFC credit (made at the first)
    std::vector<uint8_t> m_paused;     // bytes, not bits: read on every lossless arrival
    std::vector<uint64_t> m_promised;  // [slot]: bytes of promised arrivals
    std::array<uint64_t, shared_buffer_pools> m_promised_pool{};
    uint64_t m_arrival_margin = UINT64_MAX / 4;                  // none promised until set
    std::array<uint64_t, shared_buffer_pools> m_pool_ingress{};  // sum of the ports' occupancy
    std::array<uint64_t, shared_buffer_pools> m_pool_egress{};
    std::array<uint64_t, shared_buffer_pools> m_pool_credit{};
    counters m_stats;
};

// The per-packet calls, inline: they run for every packet at every switch.

inline ingress_decision shared_buffer_accounting::on_ingress(uint16_t port, uint8_t tc,
                                                             uint32_t bytes)
{
    ingress_decision d;
    const uint8_t pool = m_layout.pool_of(tc);
    const size_t s = slot(port, pool);
    d.tag = {port, tc, pool, bytes, false};

    if (m_layout.lossless(tc)) {
        if (m_paused[s]) {
            // The port has paused its sender: what is still in flight goes to headroom, which
            // is not part of the pool and is not checked against it.
            if (m_headroom[s] + bytes > m_layout.pools[pool].headroom_limit_bytes) {
                d.drop = buffer_drop::headroom;
                ++m_stats.dropped_headroom;
                return d;
            }
            m_headroom[s] += bytes;
            d.tag.headroom = true;
            ++m_stats.admitted;
            return d;
        }
        // Xoff is checked before the charge: the packet that crosses it is still admitted.
        if (m_occupancy[s] + bytes > m_layout.xoff_bytes) {
            m_paused[s] = 1;
            d.xoff = {true, port, pool, m_layout.pools[pool].lossless_classes};
            ++m_stats.xoff_sent;
        }
    }
    // Lossless (not paused) and lossy alike: the pool and the port's occupancy; over the pool's
    // size the charge is rolled back and the packet dropped, whatever its class.
    if (m_pool_ingress[pool] + bytes > m_layout.pools[pool].bytes) {
        d.drop = buffer_drop::ingress_pool;
        ++m_stats.dropped_ingress_pool;
        return d;
    }
    m_pool_ingress[pool] += bytes;
    m_occupancy[s] += bytes;
    ++m_stats.admitted;
    return d;
}

inline ingress_decision shared_buffer_accounting::on_credit_ingress(uint16_t port, uint8_t tc,
                                                                    uint32_t bytes, uint8_t vc,
                                                                    uint16_t credits)
{
    ingress_decision d;
    const uint8_t pool = m_layout.pool_of(tc);
    d.tag = {port, tc, pool, bytes, false, uint8_t(vc + 1), credits};
    if (m_credit.empty()) m_credit.assign(m_occupancy.size(), 0);
    m_credit[slot(port, pool)] += bytes;
    m_pool_credit[pool] += bytes;
    ++m_stats.admitted;
    return d;
}

inline buffer_drop shared_buffer_accounting::egress_refusal(uint16_t out_port, uint8_t tc,
                                                            uint32_t bytes,
                                                            bool trimmable_rtx) const
{
    if (m_layout.lossless(tc)) return buffer_drop::none;
    // Two bounds: the port's queue limit for the pool, and the pool's size at egress.
    const uint8_t pool = m_layout.pool_of(tc);
    const double limit = m_layout.egress_queue_limit(pool, m_pool_egress[pool], trimmable_rtx);
    if (double(m_egress[slot(out_port, pool)] + bytes) > limit) return buffer_drop::egress_limit;
    if (m_pool_egress[pool] + bytes > m_layout.pools[pool].bytes) return buffer_drop::egress_pool;
    return buffer_drop::none;
}

inline egress_decision shared_buffer_accounting::on_egress(const switch_tag& tag, uint16_t out_port,
                                                           uint8_t tc, uint32_t bytes,
                                                           bool trimmable_rtx)
{
    egress_decision d;
    d.drop = egress_refusal(out_port, tc, bytes, trimmable_rtx);
    if (!d.admitted()) {
        ++(d.drop == buffer_drop::egress_limit ? m_stats.dropped_egress_limit
                                               : m_stats.dropped_egress_pool);
        release_ingress(tag);
        return d;
    }
    const uint8_t pool = m_layout.pool_of(tc);
    m_egress[slot(out_port, pool)] += bytes;
    m_pool_egress[pool] += bytes;
    d.charge = {out_port, pool, bytes};
    return d;
}

inline void shared_buffer_accounting::shrink_ingress(switch_tag& tag, uint32_t bytes)
{
    // Only lossy packets are trimmed (trimming excludes PFC), so the cut comes off the occupancy.
    const uint32_t cut = tag.bytes - bytes;
    const size_t s = slot(tag.in_port, tag.pool);
    if (tag.credit_vc) {
        m_credit[s] -= cut;
        m_pool_credit[tag.pool] -= cut;
    } else if (tag.headroom) {
        m_headroom[s] -= cut;
    } else {
        m_occupancy[s] -= cut;
        m_pool_ingress[tag.pool] -= cut;
    }
    tag.bytes = bytes;
}

inline void shared_buffer_accounting::release_ingress(const switch_tag& tag)
{
    const size_t s = slot(tag.in_port, tag.pool);
    uint64_t rest = tag.bytes;
    if (__builtin_expect(tag.credit_vc != 0, 0)) {
        m_credit[s] -= rest;
        m_pool_credit[tag.pool] -= rest;
        return;
    }
    if (m_layout.lossless(tag.tc)) {
        // Headroom is given back first, whichever bucket this packet was charged to, so it is
        // ready for the next pause; only the remainder lowers the occupancy (and the pool).
        const uint64_t h = rest < m_headroom[s] ? rest : m_headroom[s];
        m_headroom[s] -= h;
        rest -= h;
    }
    m_occupancy[s] -= rest;
    m_pool_ingress[tag.pool] -= rest;
}

inline pfc_signal shared_buffer_accounting::on_transmit_complete(const switch_tag& tag,
                                                                 const egress_charge& charge)
{
    const size_t e = slot(charge.out_port, charge.pool);
    m_egress[e] -= charge.bytes;
    m_pool_egress[charge.pool] -= charge.bytes;
    release_ingress(tag);

    pfc_signal xon;
    const size_t s = slot(tag.in_port, tag.pool);
    if (m_layout.lossless(tag.tc) && m_paused[s] && m_headroom[s] == 0 &&
        m_occupancy[s] <= m_layout.xon_bytes) {
        m_paused[s] = 0;
        xon = {true, tag.in_port, tag.pool, m_layout.pools[tag.pool].lossless_classes};
        ++m_stats.xon_sent;
    }
    return xon;
}

}  // namespace uetsim
