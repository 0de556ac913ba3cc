// Pending wake-ups ordered by (time, phase, sequence number): wake-ups due at the same
// picosecond come out in the order they were scheduled, whatever else is or was pending, the
// late phase (samplers: records, waveforms) after every early one. SystemC's own timed
// queue gives same-time events in an order set by its whole history, so any event added or
// removed anywhere (a trace, a progress line) reordered the model (docs/performance.md).
// Plain logic: no kernel, unit-tested alone.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace uetsim {

// 16 bytes, so that the heap moves two words per step.
struct wakeup_entry
{
    static constexpr int target_bits = 24;
    static constexpr uint64_t max_targets = uint64_t(1) << target_bits;
    static constexpr uint64_t max_sequence = (uint64_t(1) << (63 - target_bits)) - 1;

    uint64_t at_ps;
    // Bit 63 the late phase, then the sequence number (the order of scheduling), then whose
    // wake-up it is (an index the owner gives). Unique per push: the owner keeps the key of
    // its live entry, and an entry with another key is stale.
    uint64_t key;
    uint32_t target() const { return uint32_t(key & (max_targets - 1)); }
};

// A binary min-heap whose pop moves the hole down to a leaf first (one comparison per level)
// and then lifts the last entry into it, which rarely climbs far: about half the comparisons
// of the textbook sift-down at the 140 to 100,000 entries of a run.
class wakeup_queue
{
public:
    static constexpr uint64_t late_phase = uint64_t(1) << 63;

    // `target` < wakeup_entry::max_targets; returns the entry's key. Throws once
    // wakeup_entry::max_sequence pushes are used up (about 5.5e11).
    uint64_t push(uint64_t at_ps, uint32_t target, bool late = false)
    {
        return push_key(at_ps, reserve(target, late));
    }
    // The key push() would give now, without an entry: a wake-up held back by its owner keeps
    // the place among same-time wake-ups that it would have had (push_key() enters it later).
    uint64_t reserve(uint32_t target, bool late = false)
    {
        if (m_next_seq > wakeup_entry::max_sequence)
            throw std::overflow_error("wake-up sequence numbers used up (5.5e11 wake-ups)");
        return (late ? late_phase : 0) | (m_next_seq++ << wakeup_entry::target_bits) | target;
    }
    // An entry with a key from reserve() (each key entered once).
    uint64_t push_key(uint64_t at_ps, uint64_t key)
    {
        const wakeup_entry e{at_ps, key};
        m_heap.push_back(e);
        lift(m_heap.size() - 1, e);
        return key;
    }
    // Whether (a_ps, a_key) comes out before (b_ps, b_key).
    static bool before(uint64_t a_ps, uint64_t a_key, uint64_t b_ps, uint64_t b_key)
    {
        return a_ps != b_ps ? a_ps < b_ps : a_key < b_key;
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
        size_t hole = 0;
        for (size_t child = 1; child < n; child = 2 * hole + 1) {
            if (child + 1 < n && before(m_heap[child + 1], m_heap[child])) ++child;
            m_heap[hole] = m_heap[child];
            hole = child;
        }
        lift(hole, last);
        return out;
    }

private:
    // Puts `e` at `i` or above, moving larger parents down.
    void lift(size_t i, const wakeup_entry& e)
    {
        while (i > 0) {
            const size_t parent = (i - 1) / 2;
            if (!before(e, m_heap[parent])) break;
            m_heap[i] = m_heap[parent];
            i = parent;
        }
        m_heap[i] = e;
    }

    static bool before(const wakeup_entry& a, const wakeup_entry& b)
    {
        return a.at_ps != b.at_ps ? a.at_ps < b.at_ps : a.key < b.key;
    }

    std::vector<wakeup_entry> m_heap;
    uint64_t m_next_seq = 0;
};

}  // namespace uetsim
