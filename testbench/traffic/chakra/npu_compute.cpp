#include "testbench/traffic/chakra/npu_compute.h"

#include <stdexcept>

#include "hw/common/saturating.h"

namespace uetsim::chakra {

void npu_compute::start(uint64_t node, uint64_t work_ps, uint64_t now_ps)
{
    advance(now_ps);
    const units tag = m_shared ? m_virtual + units(work_ps) * k_service_units
                               : units(saturated_add(now_ps, work_ps));
    m_heap.push({tag, m_seq++, node});
}

std::optional<uint64_t> npu_compute::next_finish_ps() const
{
    if (!m_due.empty()) return m_due.front().second;
    if (m_heap.empty()) return std::nullopt;
    const units tag = m_heap.top().tag;
    if (!m_shared) return uint64_t(tag);
    // The first whole ps at which the pool holds the service every running node needs for the
    // earliest tag: n x (tag - V), of which the pool already has some.
    const units need = units(m_heap.size()) * (tag - m_virtual);
    const units more = need > m_pool ? need - m_pool : 0;
    const units ps = (more + k_service_units - 1) / k_service_units;
    return ps > units(UINT64_MAX - m_now) ? UINT64_MAX : m_now + uint64_t(ps);
}

void npu_compute::finish_due(uint64_t now_ps, std::vector<uint64_t>& finished)
{
    advance(now_ps);
    for (const auto& [node, at] : m_due) finished.push_back(node);
    m_due.clear();
}

void npu_compute::advance(uint64_t now)
{
    if (now < m_now) throw std::invalid_argument("npu_compute: time went back");
    const uint64_t since = m_now;
    const uint64_t elapsed = now - m_now;
    m_now = now;
    if (!m_shared) {
        while (!m_heap.empty() && m_heap.top().tag <= now) {
            m_due.emplace_back(m_heap.top().node, uint64_t(m_heap.top().tag));
            m_heap.pop();
        }
        return;
    }
    if (m_heap.empty()) return;
    // The elapsed ps all at once: handing out the service ps by ps would pop the same nodes in
    // the same order (n x V + pool only grows by the service delivered), so the result is the
    // same and each pop's own ps follows from how much of the new service it needed.
    const units added = units(elapsed) * k_service_units;
    m_pool += added;
    while (!m_heap.empty()) {
        const entry top = m_heap.top();
        const units n = m_heap.size();
        const units need = n * (top.tag - m_virtual);
        if (need > m_pool) {
            m_virtual += m_pool / n;
            m_pool %= n;
            break;
        }
        // The new service used up to and including this pop (none for a node the pool covered).
        const units used = added + need > m_pool ? added + need - m_pool : 0;
        const uint64_t at = since + uint64_t((used + k_service_units - 1) / k_service_units);
        m_pool -= need;
        m_virtual = top.tag;
        m_heap.pop();
        m_due.emplace_back(top.node, at);
    }
    // Idle from here: what is left of this ps is lost, and the next busy period starts afresh.
    if (m_heap.empty()) m_virtual = m_pool = 0;
}

}  // namespace uetsim::chakra
