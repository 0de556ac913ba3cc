// The NIC's on-chip PDC context store when it is a cache (UetNic.PdcContextCacheEntries): the
// contexts of at most `entries` PDCs on chip, the rest in host memory. LRU bookkeeping only, by
// key; the NIC turns a miss into a DMA read of the context and an eviction into a DMA write of the
// one it replaces (docs/nic-pipeline.md). Plain class, O(1) per access.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace uetsim {

class context_cache
{
public:
    // What one access did.
    struct result
    {
        bool hit = false;
        bool evicted = false;  // a miss with the cache full replaced the least recently used
        uint64_t victim = 0;   // its key (when evicted)
    };

    // `entries` > 0 contexts on chip.
    explicit context_cache(uint32_t entries);

    // The context `key` is needed now: a hit makes it the most recently used; a miss installs it
    // as the most recently used, evicting the least recently used when full.
    result access(uint64_t key);
    // Whether `key` is on chip (no change to the LRU order).
    bool holds(uint64_t key) const { return m_slot_of.count(key) != 0; }

    uint32_t entries() const { return m_entries; }
    uint32_t size() const { return uint32_t(m_slot_of.size()); }
    uint64_t hits() const { return m_hits; }
    uint64_t misses() const { return m_misses; }
    uint64_t evictions() const { return m_evictions; }

private:
    static constexpr uint32_t k_none = UINT32_MAX;
    struct slot
    {
        uint64_t key = 0;
        uint32_t prev = k_none;  // towards the most recently used
        uint32_t next = k_none;  // towards the least recently used
    };
    void unlink(uint32_t s);
    void push_front(uint32_t s);

    uint32_t m_entries;
    std::vector<slot> m_slots;
    std::unordered_map<uint64_t, uint32_t> m_slot_of;
    uint32_t m_head = k_none;  // most recently used
    uint32_t m_tail = k_none;  // least recently used
    uint64_t m_hits = 0, m_misses = 0, m_evictions = 0;
};

}  // namespace uetsim
