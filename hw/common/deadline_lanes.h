// Deadlines that mostly come in order: a fixed timeout after the time they are made (a
// retransmission timer per packet sent). Each lane is a FIFO for one such timeout, so an entry
// costs a ring push and a pop instead of a heap's sift through every moot entry behind it; an
// entry that would go behind a later one in its lane goes to a heap beside the lanes. Lazy
// deletion and the owner's one wake-up as in deadline_heap.h; entries come out in (deadline,
// push order), whichever lane or the heap holds them. Pure logic.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <queue>
#include <vector>

#include "hw/common/ring.h"

namespace uetsim {

// `T` is trivially copyable with `uint64_t deadline() const` (absolute, in ps).
template <typename T, size_t Lanes>
class deadline_lanes
{
public:
    static constexpr uint64_t unarmed = UINT64_MAX;
    static constexpr size_t lanes = Lanes;

    // Adds `t` to `lane` (< Lanes). True when it is earlier than the armed deadline: the caller
    // arms its wake-up for `t.deadline()`, and armed() says so from now on.
    bool push(const T& t, size_t lane)
    {
        add(t, lane);
        if (t.deadline() >= m_armed) return false;
        m_armed = t.deadline();
        return true;
    }

    // As push(), after dropping the moot entries at the front of `lane` (not `live`: their
    // packet was acknowledged). Those would be dropped unfired at a later expire() anyway; here
    // they go while they are the oldest of their lane, so a lane holds what is outstanding, not
    // every entry made within one timeout. The armed deadline is kept: what expire() fires and
    // arms is the same.
    template <typename Live>
    bool push_pruned(const T& t, size_t lane, Live&& live)
    {
        ring<entry>& r = m_lanes[lane];
        while (!r.empty() && !live(r.front().t)) {
            r.pop_front();
            --m_size;
        }
        return push(t, lane);
    }
    // Adds `t` without arming (before the owner's first expire()).
    void add(const T& t, size_t lane)
    {
        const entry e{t, m_seq++};
        ring<entry>& r = m_lanes[lane];
        if (r.empty() || r.back().t.deadline() <= t.deadline())
            r.push_back(e);
        else
            m_heap.push(e);
        ++m_size;
    }

    // The wake-up came at `now`: disarms, then takes the earliest entry out while it is due
    // (handed to `fire` when `live`) or not `live` (dropped, due or not). `fire` may push. True
    // when the caller arms its wake-up for armed(), the earliest deadline left.
    template <typename Live, typename Fire>
    bool expire(uint64_t now, Live&& live, Fire&& fire)
    {
        m_armed = unarmed;
        for (size_t w = earliest(); w != none; w = earliest()) {
            const T t = at(w).t;
            if (t.deadline() <= now) {
                pop(w);
                if (live(t)) fire(t);
            } else if (!live(t)) {
                pop(w);
            } else {
                break;
            }
        }
        const size_t w = earliest();
        if (w == none || at(w).t.deadline() >= m_armed) return false;
        m_armed = at(w).t.deadline();
        return true;
    }

    uint64_t armed() const { return m_armed; }
    bool empty() const { return m_size == 0; }
    size_t size() const { return m_size; }
    // Entries that could not keep their lane's order (for tests and profiles).
    size_t out_of_order() const { return m_heap.size(); }

private:
    struct entry
    {
        T t;
        uint64_t seq;
    };
    static bool before(const entry& a, const entry& b)
    {
        return a.t.deadline() != b.t.deadline() ? a.t.deadline() < b.t.deadline() : a.seq < b.seq;
    }
    struct later
    {
        bool operator()(const entry& a, const entry& b) const { return before(b, a); }
    };
    static constexpr size_t none = SIZE_MAX;
    static constexpr size_t heap = Lanes;

    // Where the earliest entry is: a lane, `heap`, or `none`.
    size_t earliest() const
    {
        size_t w = none;
        const entry* best = nullptr;
        for (size_t l = 0; l < Lanes; ++l)
            if (!m_lanes[l].empty() && (!best || before(m_lanes[l].front(), *best))) {
                best = &m_lanes[l].front();
                w = l;
            }
        if (!m_heap.empty() && (!best || before(m_heap.top(), *best))) w = heap;
        return w;
    }
    const entry& at(size_t w) const { return w == heap ? m_heap.top() : m_lanes[w].front(); }
    void pop(size_t w)
    {
        if (w == heap)
            m_heap.pop();
        else
            m_lanes[w].pop_front();
        --m_size;
    }

    std::array<ring<entry>, Lanes> m_lanes;
    std::priority_queue<entry, std::vector<entry>, later> m_heap;
    uint64_t m_seq = 0;
    size_t m_size = 0;
    uint64_t m_armed = unarmed;
};

}  // namespace uetsim
