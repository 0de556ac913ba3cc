// Run-time accounting of the switch's shared buffer, the shared-buffer page's table row by row:
// ingress occupancy and headroom per (ingress port, pool), the pools' ingress and egress totals,
// egress queues per (egress port, pool). It decides and counts; it sends nothing: each call
// returns what the switch must do (admit, drop with a reason, send a pause or a resume for a
// port's priority group), and the switch acts on it through buffer_manager.
// Pure logic over flat arrays, one per switch; each call is a few adds and compares.
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
};

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
    bool paused(uint16_t port, uint8_t pool) const { return m_paused[slot(port, pool)]; }
    uint64_t ingress_occupancy(uint16_t port, uint8_t pool) const
    {
        return m_occupancy[slot(port, pool)];
    }
    uint64_t headroom(uint16_t port, uint8_t pool) const { return m_headroom[slot(port, pool)]; }
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
    std::vector<bool> m_paused;
    std::array<uint64_t, shared_buffer_pools> m_pool_ingress{};  // sum of the ports' occupancy
    std::array<uint64_t, shared_buffer_pools> m_pool_egress{};
    counters m_stats;
};

}  // namespace uetsim
