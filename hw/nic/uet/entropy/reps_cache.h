// The REPS entropy cache: 2^REPSBufferSizeMaskBits slots written in a circle. A recycled value
// is "available" until the load balancer reuses it; a reused value stays in its slot until a
// later recycle overwrites it, which is what freezing cycles through when nothing is available.
// Available values are always the most recently written ones, so the oldest available is
// `available()` slots behind the write pointer: a FIFO with no per-slot flags (cheap in RTL).
#pragma once

#include <cstdint>
#include <vector>

namespace uetsim {

class reps_cache
{
public:
    explicit reps_cache(uint32_t entries);  // a power of two, 1 to 65,536

    uint32_t capacity() const { return m_mask + 1; }
    // Values waiting to be reused: the cache's size in the page's sense.
    uint32_t available() const { return m_available; }
    bool empty() const { return m_available == 0; }
    // Slots holding a value, reused or not: at most capacity(); 0 until the first recycle.
    uint32_t held() const { return uint32_t(m_slots.size()); }

    // Adds a value; when every slot is available, it takes the place of the oldest.
    void recycle(uint16_t value);
    // Removes and returns the oldest available value. Requires !empty().
    uint16_t take_oldest();

    // Freezing's turn over the held slots, from the oldest written; next_in_turn() requires
    // held() > 0.
    void restart_turn();
    uint16_t next_in_turn();

    // Available values, oldest first.
    std::vector<uint16_t> contents() const;

private:
    uint32_t m_mask;
    // Grows to capacity() with the first recycles (a 65,536-entry cache costs nothing until
    // used); while it is not full the write pointer equals its size.
    std::vector<uint16_t> m_slots;
    uint32_t m_write = 0;
    uint32_t m_available = 0;
    uint32_t m_turn = 0;
};

}  // namespace uetsim
