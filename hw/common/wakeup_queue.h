// Pending wake-ups ordered by (time, phase, sequence number): wake-ups due at the same
// picosecond come out in the order they were scheduled, whatever else is or was pending, the
// late phase (samplers: records, waveforms) after every early one. SystemC's own timed
// queue gives same-time events in an order set by its whole history, so any event added or
// removed anywhere (a trace, a progress line) reordered the model (docs/performance.md).
// Plain logic: no kernel, unit-tested alone.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace uetsim {

struct wakeup_entry
{
    uint64_t at_ps;
    uint64_t seq;     // the late phase's top bit, then the order of scheduling
    uint32_t target;  // whose wake-up (an index the owner gives)
    uint32_t gen;     // the target's generation when scheduled: a later one makes this stale
};

class wakeup_queue
{
public:
    static constexpr uint64_t late_phase = uint64_t(1) << 63;

    void push(uint64_t at_ps, uint32_t target, uint32_t gen, bool late = false)
    {
        m_heap.push_back({at_ps, (late ? late_phase : 0) | m_next_seq++, target, gen});
        std::push_heap(m_heap.begin(), m_heap.end(), later);
    }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }
    const wakeup_entry& top() const { return m_heap.front(); }
    wakeup_entry pop()
    {
        std::pop_heap(m_heap.begin(), m_heap.end(), later);
        wakeup_entry e = m_heap.back();
        m_heap.pop_back();
        return e;
    }

private:
    static bool later(const wakeup_entry& a, const wakeup_entry& b)
    {
        return a.at_ps != b.at_ps ? a.at_ps > b.at_ps : a.seq > b.seq;
    }

    std::vector<wakeup_entry> m_heap;
    uint64_t m_next_seq = 0;
};

}  // namespace uetsim
