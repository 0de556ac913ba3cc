// Pending wake-ups ordered by (time, phase, sequence number): wake-ups due at the same
// picosecond come out in the order they were scheduled, whatever else is or was pending, the
// late phase (samplers: records, waveforms) after every early one. SystemC's own timed
// queue gives same-time events in an order set by its whole history, so any event added or
// removed anywhere (a trace, a progress line) reordered the model (docs/performance.md).
// Plain logic: no kernel, unit-tested alone.
#pragma once

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

// A 4-ary min-heap: half the depth of a binary one, and a node's four children share a cache
// line or two, which matters at 140 pending entries (a 16-host fabric) and more at scale.
class wakeup_queue
{
public:
    static constexpr uint64_t late_phase = uint64_t(1) << 63;

    void push(uint64_t at_ps, uint32_t target, uint32_t gen, bool late = false)
    {
        const wakeup_entry e{at_ps, (late ? late_phase : 0) | m_next_seq++, target, gen};
        size_t i = m_heap.size();
        m_heap.push_back(e);
        while (i > 0) {
            const size_t parent = (i - 1) / 4;
            if (!before(e, m_heap[parent])) break;
            m_heap[i] = m_heap[parent];
            i = parent;
        }
        m_heap[i] = e;
    }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }
    const wakeup_entry& top() const { return m_heap.front(); }
    wakeup_entry pop()
    {
        const wakeup_entry out = m_heap.front();
        const wakeup_entry last = m_heap.back();
        m_heap.pop_back();
        const size_t n = m_heap.size();
        if (n == 0) return out;
        size_t i = 0;
        for (;;) {
            const size_t first = 4 * i + 1;
            if (first >= n) break;
            size_t best = first;
            const size_t end = first + 4 < n ? first + 4 : n;
            for (size_t c = first + 1; c < end; ++c)
                if (before(m_heap[c], m_heap[best])) best = c;
            if (!before(m_heap[best], last)) break;
            m_heap[i] = m_heap[best];
            i = best;
        }
        m_heap[i] = last;
        return out;
    }

private:
    static bool before(const wakeup_entry& a, const wakeup_entry& b)
    {
        return a.at_ps != b.at_ps ? a.at_ps < b.at_ps : a.seq < b.seq;
    }

    std::vector<wakeup_entry> m_heap;
    uint64_t m_next_seq = 0;
};

}  // namespace uetsim
