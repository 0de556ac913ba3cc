// A lazy-deletion deadline heap: many timed entries, one pending wake-up for the earliest.
// Entries are never removed when they become moot (a packet acknowledged before its timeout);
// they are dropped in bulk when they reach the top, through a liveness predicate, so the owner
// is woken once per live deadline instead of once per entry. Pure logic: the owner keeps
// its one wake-up and (re)arms it when push() or expire() says so. Used by the RoCE NIC's timers
// and the RDMA application's agenda (the UET NIC's timers are in deadline_lanes.h).
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace uetsim {

// `T` has `uint64_t deadline() const` (absolute, in ps). `Later(a, b)` is true when `a` must
// come out after `b` (std::greater on the deadline, or with a tie-breaker).
template <typename T, typename Later = std::greater<T>>
class deadline_heap
{
public:
    static constexpr uint64_t unarmed = UINT64_MAX;

    // Adds `t`. True when it is earlier than the armed deadline: the caller arms its event for
    // `t.deadline()` (cancelling the later notification), and armed() says so from now on.
    bool push(const T& t)
    {
        m_heap.push(t);
        if (t.deadline() >= m_armed) return false;
        m_armed = t.deadline();
        return true;
    }

    // The event fired at `now`: disarms, then takes every entry off the top that is due (handed
    // to `fire` when `live`) or no longer `live` (dropped, due or not). `fire` may push. True
    // when the caller arms its event for armed(), the earliest deadline left.
    template <typename Live, typename Fire>
    bool expire(uint64_t now, Live&& live, Fire&& fire)
    {
        m_armed = unarmed;
        while (!m_heap.empty()) {
            if (m_heap.top().deadline() <= now) {
                const T t = m_heap.top();
                m_heap.pop();
                if (live(t)) fire(t);
            } else if (!live(m_heap.top())) {
                m_heap.pop();
            } else {
                break;
            }
        }
        if (m_heap.empty() || m_heap.top().deadline() >= m_armed) return false;
        m_armed = m_heap.top().deadline();
        return true;
    }

    // Adds `t` without arming: for entries made before the owner's first expire() (during
    // elaboration, when no event may be notified yet).
    void add(const T& t) { m_heap.push(t); }

    uint64_t armed() const { return m_armed; }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }

private:
    std::priority_queue<T, std::vector<T>, Later> m_heap;
    uint64_t m_armed = unarmed;
};

}  // namespace uetsim
