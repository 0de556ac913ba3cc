// Pending wake-ups ordered by (time, phase, place): within a picosecond the model's own
// wake-ups come first, in the order they were scheduled; then the delay lines' deliveries
// (line phase), then a link's control ordered sets (control phase), each in the order their
// owners were made; then the samplers (late phase: records, waveforms). Nothing in the order
// depends on what else is or was pending: SystemC's own timed queue gives same-time events in
// an order set by its whole history, so any event added or removed anywhere (a trace, a
// progress line) reordered the model (docs/time-base.md, "Same-time order").
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
    static constexpr uint64_t max_sequence = (uint64_t(1) << (62 - target_bits)) - 1;

    uint64_t at_ps;
    // Bits 63-62 the phase, then the sequence number (the order of scheduling), then whose
    // wake-up it is (an index the owner gives). In the line and control phases the sequence
    // number is 0, so that the place is the index alone: such a key is the same at every push,
    // and an entry is live only if both its key and its time are the owner's.
    uint64_t key;
    uint32_t target() const { return uint32_t(key & (max_targets - 1)); }
};

// A binary min-heap whose pop moves the hole down to a leaf first (one comparison per level)
// and then lifts the last entry into it, which rarely climbs far: about half the comparisons
// of the textbook sift-down at the 140 to 100,000 entries of a run.
class wakeup_queue
{
public:
    // The phases, in their order within a picosecond (the key's top two bits).
    static constexpr uint64_t model_phase = 0;
    static constexpr uint64_t line_phase = uint64_t(1) << 62;
    static constexpr uint64_t control_phase = uint64_t(2) << 62;
    static constexpr uint64_t late_phase = uint64_t(3) << 62;
    static constexpr uint64_t phase_of(uint64_t key) { return key & late_phase; }
    // Whether the place of a wake-up of `phase` is its index (not the order of scheduling).
    static constexpr bool placed_by_index(uint64_t phase)
    {
        return phase == line_phase || phase == control_phase;
    }

    // `target` < wakeup_entry::max_targets; returns the entry's key. Throws once
    // wakeup_entry::max_sequence sequence numbers are used up (about 2.7e11).
    uint64_t push(uint64_t at_ps, uint32_t target, uint64_t phase = model_phase)
    {
        return push_key(at_ps, reserve(target, phase));
    }
    // The key push() would give now, without an entry: a wake-up held back by its owner keeps
    // the place among same-time wake-ups that it would have had (push_key() enters it later).
    uint64_t reserve(uint32_t target, uint64_t phase = model_phase)
    {
        return placed_by_index(phase) ? (phase | target) : sequenced(target, phase);
    }
    // A place in `phase` in the order of scheduling, whatever the phase (after every place by
    // index of that phase: a wake-up scheduled for the current time from a later phase).
    uint64_t sequenced(uint32_t target, uint64_t phase)
    {
        if (m_next_seq >= wakeup_entry::max_sequence)
            throw std::overflow_error("wake-up sequence numbers used up (2.7e11 wake-ups)");
        return phase | (++m_next_seq << wakeup_entry::target_bits) | target;
    }
    // An entry with a key from reserve() (each key entered once). While the top is spent, the
    // entry takes its slot.
    uint64_t push_key(uint64_t at_ps, uint64_t key)
    {
        const wakeup_entry e{at_ps, key};
        if (m_top_spent) {
            m_top_spent = false;
            sift_from_root(e, m_heap.size());
            return key;
        }
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
        if (!m_heap.empty()) sift_from_root(last, m_heap.size());
        return out;
    }

    // The top is left in place while its wake-up runs, and spent: the first entry pushed
    // meanwhile takes its slot (most handlers schedule one wake-up, often their own next one:
    // one sift instead of a pop and a push), and finish_top() pops it if none did. The entries,
    // and so the order they come out in, are those of pop() then push(): keys are unique.
    // Everything pushed meanwhile must come after the top (a handler schedules nothing in its
    // past).
    const wakeup_entry& spend_top()
    {
        m_top_spent = true;
        return m_heap.front();
    }
    // What comes out after the top if nothing earlier is pushed: the smaller of its children.
    const wakeup_entry* second() const
    {
        const size_t n = m_heap.size();
        if (n < 2) return nullptr;
        if (n == 2 || before(m_heap[1], m_heap[2])) return &m_heap[1];
        return &m_heap[2];
    }
    void finish_top()
    {
        if (!m_top_spent) return;
        m_top_spent = false;
        pop();
    }

private:
    // Fills the root's slot with `e` in a heap of `n` entries: the hole goes down to a leaf
    // along the smaller children (one comparison per level), then `e` is lifted from there; it
    // rarely climbs far.
    void sift_from_root(const wakeup_entry& e, size_t n)
    {
        size_t hole = 0;
        for (size_t child = 1; child < n; child = 2 * hole + 1) {
            if (child + 1 < n && before(m_heap[child + 1], m_heap[child])) ++child;
            m_heap[hole] = m_heap[child];
            hole = child;
        }
        lift(hole, e);
    }

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
    bool m_top_spent = false;
};

}  // namespace uetsim
