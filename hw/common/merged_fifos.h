// Items from several sources, each source's in order, taken out in the order `Before` gives over
// all of them: one FIFO per source and a binary heap of the sources by their first item. A
// switch's frames taken ahead come in order per link but not across links (a frame of a long
// link is overtaken by frames of shorter ones taken after it); merging the links' FIFOs costs
// a sift among the links with a frame waiting, where keeping one sorted sequence cost a walk
// past every frame that overtook.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "hw/common/ring.h"

namespace uetsim {

template <typename T, typename Before>
class merged_fifos
{
public:
    explicit merged_fifos(size_t sources) : m_q(sources) {}

    bool empty() const { return m_heap.empty(); }
    const T& front() const { return m_heap[0].first; }

    // `item` comes after every item `source` gave before.
    void push(size_t source, const T& item)
    {
        ring<T>& q = m_q[source];
        q.push_back(item);
        if (q.size() == 1) lift(m_heap.size(), {item, uint32_t(source)});
    }
    void pop_front()
    {
        const uint32_t s = m_heap[0].source;
        ring<T>& q = m_q[s];
        q.pop_front();
        if (!q.empty()) {
            sink(0, {q.front(), s});
            return;
        }
        const node last = m_heap.back();
        m_heap.pop_back();
        if (!m_heap.empty()) sink(0, last);
    }
    // Takes out the items of `source` that `gone` says (order kept); rare.
    template <typename F>
    void remove_if(size_t source, F&& gone)
    {
        ring<T>& q = m_q[source];
        ring<T> kept;
        for (size_t i = 0; i < q.size(); ++i)
            if (!gone(q.at(i))) kept.push_back(q.at(i));
        q = std::move(kept);
        m_heap.clear();
        for (size_t s = 0; s < m_q.size(); ++s)
            if (!m_q[s].empty()) lift(m_heap.size(), {m_q[s].front(), uint32_t(s)});
    }
    template <typename F>
    void for_each(size_t source, F&& f) const
    {
        m_q[source].for_each(f);
    }

private:
    // A source with an item waiting, and a copy of its first (compared without visiting it).
    struct node
    {
        T first;
        uint32_t source;
    };
    // Node `n` enters at slot `i` (the end) and climbs.
    void lift(size_t i, const node& n)
    {
        if (i == m_heap.size()) m_heap.push_back(n);
        while (i > 0) {
            const size_t parent = (i - 1) / 2;
            if (!Before()(n.first, m_heap[parent].first)) break;
            m_heap[i] = m_heap[parent];
            i = parent;
        }
        m_heap[i] = n;
    }
    // Node `n` takes slot `i` and goes down.
    void sink(size_t i, const node& n)
    {
        const size_t size = m_heap.size();
        for (;;) {
            size_t child = 2 * i + 1;
            if (child >= size) break;
            if (child + 1 < size && Before()(m_heap[child + 1].first, m_heap[child].first)) ++child;
            if (!Before()(m_heap[child].first, n.first)) break;
            m_heap[i] = m_heap[child];
            i = child;
        }
        m_heap[i] = n;
    }

    std::vector<ring<T>> m_q;
    std::vector<node> m_heap;  // the sources with an item, by their first item
};

}  // namespace uetsim
