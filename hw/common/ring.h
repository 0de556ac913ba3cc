// A growable FIFO ring buffer of trivially copyable items: amortised no allocation, unlike
// std::deque's chunk churn on long-running queues. The capacity is a power of two kept as a
// mask, so an index costs an AND (a std::vector's size would cost a division by sizeof(T)).
// `First`: the capacity of the first buffer (a power of two), small where many rings hold few.
// Indices are 32 bits: 24 bytes a ring instead of 32, and a fabric holds millions (eight per
// switch port and traffic class array alone).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace uetsim {

template <typename T, size_t First = 16>
class ring
{
public:
    ring() = default;
    ring(const ring& o) { *this = o; }
    ring(ring&& o) noexcept { *this = std::move(o); }
    // The moved-from ring is empty (and keeps no buffer).
    ring& operator=(ring&& o) noexcept
    {
        m_buf = std::move(o.m_buf);
        m_mask = o.m_mask;
        m_head = o.m_head;
        m_size = o.m_size;
        o.m_mask = o.m_head = o.m_size = 0;
        return *this;
    }
    ring& operator=(const ring& o)
    {
        if (this == &o) return *this;
        m_buf.reset(o.m_buf ? new T[o.m_mask + 1] : nullptr);
        for (size_t i = 0; o.m_buf && i <= o.m_mask; ++i) m_buf[i] = o.m_buf[i];
        m_mask = o.m_mask;
        m_head = o.m_head;
        m_size = o.m_size;
        return *this;
    }

    bool empty() const { return m_size == 0; }
    size_t size() const { return m_size; }
    T& front() { return m_buf[m_head]; }
    const T& front() const { return m_buf[m_head]; }
    const T& back() const { return m_buf[(m_head + m_size - 1) & m_mask]; }
    // The i-th waiting item, 0 the front.
    T& at(size_t i) { return m_buf[(m_head + i) & m_mask]; }
    const T& at(size_t i) const { return m_buf[(m_head + i) & m_mask]; }

    void push_back(const T& v)
    {
        if (m_size == capacity()) grow();
        m_buf[(m_head + m_size) & m_mask] = v;
        ++m_size;
    }
    // Puts `v` ahead of every waiting item (a group served again at once).
    void push_front(const T& v)
    {
        if (m_size == capacity()) grow();
        m_head = (m_head + m_mask) & m_mask;
        m_buf[m_head] = v;
        ++m_size;
    }
    void pop_front()
    {
        m_head = (m_head + 1) & m_mask;
        --m_size;
    }
    void pop_back() { --m_size; }
    template <typename F>
    void for_each(F&& f) const
    {
        for (size_t i = 0; i < m_size; ++i) f(m_buf[(m_head + i) & m_mask]);
    }
    void clear() { m_head = m_size = 0; }

private:
    size_t capacity() const { return m_buf ? m_mask + 1 : 0; }

    // Rare (the ring doubles): out of line, so that push_back stays small enough to inline.
    [[gnu::noinline, gnu::cold]] void grow()
    {
        static_assert(First > 0 && (First & (First - 1)) == 0, "a power of two");
        const uint32_t cap = m_buf ? 2 * (m_mask + 1) : uint32_t(First);
        std::unique_ptr<T[]> next(new T[cap]());
        for (uint32_t i = 0; i < m_size; ++i) next[i] = m_buf[(m_head + i) & m_mask];
        m_buf = std::move(next);
        m_mask = cap - 1;
        m_head = 0;
    }

    std::unique_ptr<T[]> m_buf;
    uint32_t m_mask = 0;  // capacity - 1 once allocated
    uint32_t m_head = 0;
    uint32_t m_size = 0;
};

}  // namespace uetsim
