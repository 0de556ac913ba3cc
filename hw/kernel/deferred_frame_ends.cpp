#include "hw/kernel/deferred_frame_ends.h"

#include <cstddef>
#include <utility>

#include "hw/kernel/wakeup_queue.h"

namespace uetsim {

void deferred_frame_ends::add(transmitter& t)
{
    const wakeup& w = t.frame_end();
    // A new frame end is usually the latest or close to it.
    m_held.push_back({w.due_ps(), w.key(), &t});
    for (size_t i = m_held.size() - 1;
         i > m_first && wakeup_queue::before(m_held[i].at_ps, m_held[i].key, m_held[i - 1].at_ps,
                                             m_held[i - 1].key);
         --i)
        std::swap(m_held[i], m_held[i - 1]);
    if (!m_owed) {
        m_owed = true;
        if (m_list)
            m_list();
        else
            m_scheduler.owe(this);
    }
}

void deferred_frame_ends::realize_all()
{
    for (size_t i = m_first; i < m_held.size(); ++i)
        if (m_held[i].live()) m_held[i].t->realize_frame_end();
    m_held.clear();
    m_first = 0;
}

bool deferred_frame_ends::settle_before(uint64_t at_ps, uint64_t key)
{
    while (m_first < m_held.size()) {
        const entry& e = m_held[m_first];
        if (!e.live()) {
            ++m_first;
            continue;
        }
        if (!wakeup_queue::before(e.at_ps, e.key, at_ps, key)) break;
        ++m_first;
        e.t->end_deferred_frame();
    }
    if (m_first == m_held.size()) {
        m_held.clear();
        m_first = 0;
    } else if (m_first >= 64 && 2 * m_first >= m_held.size()) {
        m_held.erase(m_held.begin(), m_held.begin() + std::ptrdiff_t(m_first));
        m_first = 0;
    }
    m_owed = m_first < m_held.size();
    return m_owed;
}

}  // namespace uetsim
