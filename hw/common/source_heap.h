// The merge step over several sources that each give their items in order (FIFOs, ports): a
// binary heap of the sources with an item waiting, by a copy of each one's first key, so that a
// comparison does not visit the source. Ties go to the lower source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace uetsim {

template <typename Key>
class source_heap
{
public:
    struct node
    {
        Key key;
        uint32_t source;
    };

    bool empty() const { return m_heap.empty(); }
    const node& top() const { return m_heap[0]; }

    // `source` has an item waiting now, its first keyed `key`.
    void push(const Key& key, uint32_t source) { lift(m_heap.size(), {key, source}); }
    // The top source's first item was taken and its next one is keyed `key`.
    void replace_top(const Key& key) { sink(0, {key, m_heap[0].source}); }
    // The top source's first item was taken and it has none left.
    void pop()
    {
        const node last = m_heap.back();
        m_heap.pop_back();
        if (!m_heap.empty()) sink(0, last);
    }
    void clear() { m_heap.clear(); }

private:
    static bool before(const node& a, const node& b)
    {
        return a.key < b.key || (!(b.key < a.key) && a.source < b.source);
    }
    // Node `n` enters at slot `i` (the end) and climbs.
    void lift(size_t i, const node& n)
    {
        if (i == m_heap.size()) m_heap.push_back(n);
        while (i > 0) {
            const size_t parent = (i - 1) / 2;
            if (!before(n, m_heap[parent])) break;
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
            if (child + 1 < size && before(m_heap[child + 1], m_heap[child])) ++child;
            if (!before(m_heap[child], n)) break;
            m_heap[i] = m_heap[child];
            i = child;
        }
        m_heap[i] = n;
    }

    std::vector<node> m_heap;
};

}  // namespace uetsim
