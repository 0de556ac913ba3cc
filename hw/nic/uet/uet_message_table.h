// The UET NIC's transmit-side messages, by slot: a message holds its slot while a PDC refers to
// it (a PDC closed at its message's completion, or a queue pair's PDC until its next message),
// then the slot is free for the next message. So the table holds what is in flight, not every
// message of the run. Pure logic.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/nic/uet/uet_message.h"

namespace uetsim {

class uet_message_table
{
public:
    // A slot for `m`: the most recently freed one, else a new one.
    uint64_t add(const uet_message& m)
    {
        ++m_live;
        if (m_free.empty()) {
            m_slots.push_back(m);
            return m_slots.size() - 1;
        }
        const uint64_t i = m_free.back();
        m_free.pop_back();
        m_slots[i] = m;
        return i;
    }
    // Slot `i` is not referred to any more.
    void release(uint64_t i)
    {
        --m_live;
        m_free.push_back(uint32_t(i));
    }

    uet_message& operator[](uint64_t i) { return m_slots[i]; }
    const uet_message& operator[](uint64_t i) const { return m_slots[i]; }
    // Messages holding a slot, and slots ever used: both bounded by what is in flight.
    uint64_t live() const { return m_live; }
    size_t slots() const { return m_slots.size(); }

private:
    std::vector<uet_message> m_slots;
    std::vector<uint32_t> m_free;
    uint64_t m_live = 0;
};

}  // namespace uetsim
