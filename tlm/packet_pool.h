// A free list of packets: no heap allocation per packet in steady state, and packets made in
// slabs of 256 (no allocator header or owning pointer each: a large fabric holds millions).
// One pool per simulation; a packet has one owner at a time (the module holding it),
// and the last owner (a receiver, or a switch that drops it) releases it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tlm/packet.h"

namespace uetsim {

class packet_pool
{
public:
    packet_pool() = default;
    packet_pool(const packet_pool&) = delete;
    packet_pool& operator=(const packet_pool&) = delete;

    packet* acquire()
    {
        packet* p;
        if (m_free.empty()) {
            if (m_slab_used == k_slab) {
                m_slabs.push_back(std::make_unique<packet[]>(k_slab));
                m_slab_used = 0;
            }
            p = &m_slabs.back()[m_slab_used++];
            ++m_allocated;
        } else {
            p = m_free.back();
            m_free.pop_back();
            p->reset();
        }
        p->id = ++m_next_id;
        return p;
    }

    // A second copy of `p` with its id (LLR's replay buffer): no new id is issued, so a run with
    // copies numbers its packets as one without.
    packet* copy_of(const packet& p)
    {
        packet* c;
        if (m_free.empty()) {
            if (m_slab_used == k_slab) {
                m_slabs.push_back(std::make_unique<packet[]>(k_slab));
                m_slab_used = 0;
            }
            c = &m_slabs.back()[m_slab_used++];
            ++m_allocated;
        } else {
            c = m_free.back();
            m_free.pop_back();
        }
        *c = p;
        return c;
    }

    void release(packet* p) { m_free.push_back(p); }

    size_t allocated() const { return m_allocated; }
    size_t in_use() const { return m_allocated - m_free.size(); }
    uint64_t issued() const { return m_next_id; }

private:
    static constexpr size_t k_slab = 256;
    std::vector<std::unique_ptr<packet[]>> m_slabs;
    size_t m_slab_used = k_slab;  // packets handed out of the last slab
    size_t m_allocated = 0;
    std::vector<packet*> m_free;
    uint64_t m_next_id = 0;
};

}  // namespace uetsim
