// context_cache: an intrusive doubly linked LRU list over a fixed slot array and a key -> slot map.
#include "hw/nic/common/context_cache.h"

namespace uetsim {

context_cache::context_cache(uint32_t entries) : m_entries(entries)
{
    m_slots.reserve(entries);
    m_slot_of.reserve(entries);
}

void context_cache::unlink(uint32_t s)
{
    slot& x = m_slots[s];
    if (x.prev != k_none)
        m_slots[x.prev].next = x.next;
    else
        m_head = x.next;
    if (x.next != k_none)
        m_slots[x.next].prev = x.prev;
    else
        m_tail = x.prev;
    x.prev = x.next = k_none;
}

void context_cache::push_front(uint32_t s)
{
    slot& x = m_slots[s];
    x.prev = k_none;
    x.next = m_head;
    if (m_head != k_none) m_slots[m_head].prev = s;
    m_head = s;
    if (m_tail == k_none) m_tail = s;
}

context_cache::result context_cache::access(uint64_t key)
{
    result r;
    const auto it = m_slot_of.find(key);
    if (it != m_slot_of.end()) {
        ++m_hits;
        r.hit = true;
        if (it->second != m_head) {
            unlink(it->second);
            push_front(it->second);
        }
        return r;
    }
    ++m_misses;
    uint32_t s;
    if (m_slots.size() < m_entries) {
        s = uint32_t(m_slots.size());
        m_slots.push_back({});
    } else {
        s = m_tail;
        r.evicted = true;
        r.victim = m_slots[s].key;
        ++m_evictions;
        unlink(s);
        m_slot_of.erase(r.victim);
    }
    m_slots[s].key = key;
    m_slot_of.emplace(key, s);
    push_front(s);
    return r;
}

}  // namespace uetsim
