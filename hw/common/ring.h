// A growable FIFO ring buffer of trivially copyable items: amortised no allocation, unlike
// std::deque's chunk churn on long-running queues.
#pragma once

#include <cstddef>
#include <vector>

namespace uetsim {

template <typename T>
class ring
{
public:
    bool empty() const { return m_size == 0; }
    size_t size() const { return m_size; }
    T& front() { return m_buf[m_head]; }
    const T& front() const { return m_buf[m_head]; }
    const T& back() const { return m_buf[(m_head + m_size - 1) & (m_buf.size() - 1)]; }
    // The i-th waiting item, 0 the front.
    const T& at(size_t i) const { return m_buf[(m_head + i) & (m_buf.size() - 1)]; }

    void push_back(const T& v)
    {
        if (m_size == m_buf.size()) grow();
        m_buf[(m_head + m_size) & (m_buf.size() - 1)] = v;
        ++m_size;
    }
    // Puts `v` ahead of every waiting item (a group served again at once).
    void push_front(const T& v)
    {
        if (m_size == m_buf.size()) grow();
        m_head = (m_head + m_buf.size() - 1) & (m_buf.size() - 1);
        m_buf[m_head] = v;
        ++m_size;
    }
    void pop_front()
    {
        m_head = (m_head + 1) & (m_buf.size() - 1);
        --m_size;
    }
    template <typename F>
    void for_each(F&& f) const
    {
        for (size_t i = 0; i < m_size; ++i) f(m_buf[(m_head + i) & (m_buf.size() - 1)]);
    }
    void clear() { m_head = m_size = 0; }

private:
    // Rare (the ring doubles): out of line, so that push_back stays small enough to inline.
    [[gnu::noinline, gnu::cold]] void grow()
    {
        std::vector<T> next(m_buf.empty() ? 16 : m_buf.size() * 2);
        for (size_t i = 0; i < m_size; ++i) next[i] = m_buf[(m_head + i) & (m_buf.size() - 1)];
        m_buf.swap(next);
        m_head = 0;
    }

    std::vector<T> m_buf;
    size_t m_head = 0;
    size_t m_size = 0;
};

}  // namespace uetsim
