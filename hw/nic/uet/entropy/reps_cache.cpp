#include "hw/nic/uet/entropy/reps_cache.h"

#include <cassert>

namespace uetsim {

reps_cache::reps_cache(uint32_t entries) : m_mask(entries - 1)
{
    assert(entries >= 1 && entries <= 65536 && (entries & (entries - 1)) == 0);
}

void reps_cache::recycle(uint16_t value)
{
    if (m_slots.size() < capacity()) {
        assert(m_write == m_slots.size());
        m_slots.push_back(value);
    } else {
        m_slots[m_write] = value;
    }
    m_write = (m_write + 1) & m_mask;
    if (m_available < capacity()) ++m_available;
}

uint16_t reps_cache::take_oldest()
{
    assert(!empty());
    const uint32_t slot = (m_write + capacity() - m_available) & m_mask;
    --m_available;
    return m_slots[slot];
}

void reps_cache::restart_turn()
{
    // Once the slots are all written the oldest is the next to be overwritten; before that,
    // slot 0.
    m_turn = held() == capacity() ? m_write : 0;
}

uint16_t reps_cache::next_in_turn()
{
    assert(held() > 0);
    if (m_turn >= held()) m_turn = 0;
    const uint16_t v = m_slots[m_turn];
    m_turn = m_turn + 1 == held() ? 0 : m_turn + 1;
    return v;
}

std::vector<uint16_t> reps_cache::contents() const
{
    std::vector<uint16_t> out;
    out.reserve(m_available);
    for (uint32_t i = m_available; i > 0; --i)
        out.push_back(m_slots[(m_write + capacity() - i) & m_mask]);
    return out;
}

}  // namespace uetsim
