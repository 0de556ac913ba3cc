// The payload-fetch DMA engine's read tags (UetNic.MaxOutstandingReads): a read takes a free tag
// and holds it from its request until its last completion returns, so tags x bytes per read /
// read round trip bounds the fetch rate (Little's law), as on real NICs. Plain arithmetic over
// each tag's release time; no tags configured means reads are never held back. Tags in use over
// time (a histogram, for the p99) change only when a read is issued.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "hw/common/occupancy_histogram.h"

namespace uetsim {

class read_tag_pool
{
public:
    explicit read_tag_pool(uint32_t tags = 0) : m_free_at(tags, 0) {}

    bool limited() const { return !m_free_at.empty(); }
    uint32_t tags() const { return uint32_t(m_free_at.size()); }

    // The tag that frees first and when it is free (0 tags: none, free at once).
    uint32_t earliest(uint64_t& free_at) const
    {
        if (m_free_at.empty()) {
            free_at = 0;
            return 0;
        }
        const auto it = std::min_element(m_free_at.begin(), m_free_at.end());
        free_at = *it;
        return uint32_t(it - m_free_at.begin());
    }

    // A read issued at `start` on `tag` whose last completion returns at `until`; returns how
    // many tags are in use at `start`, this one included.
    uint32_t hold(uint32_t tag, uint64_t start, uint64_t until)
    {
        if (m_free_at.empty()) return 0;
        uint32_t in_use = 1;
        for (size_t i = 0; i < m_free_at.size(); ++i)
            if (i != tag && m_free_at[i] > start) ++in_use;
        m_free_at[tag] = until;
        m_max_in_use = std::max(m_max_in_use, in_use);
        // The reads that completed by `start` gave their tags back first.
        while (!m_releases.empty() && m_releases.top() <= start) {
            m_in_use.set(m_releases.top(), uint32_t(m_releases.size() - 1));
            m_releases.pop();
        }
        m_releases.push(until);
        m_in_use.set(start, uint32_t(m_releases.size()));
        return in_use;
    }

    uint32_t max_in_use() const { return m_max_in_use; }
    // The 99th percentile over time of tags in use, from 0 to `now`.
    uint32_t in_use_p99(uint64_t now) const
    {
        occupancy_histogram h = m_in_use;
        auto r = m_releases;
        while (!r.empty() && r.top() <= now) {
            h.set(r.top(), uint32_t(r.size() - 1));
            r.pop();
        }
        return h.p99(now);
    }

private:
    std::vector<uint64_t> m_free_at;  // per tag: when its read's last completion returns
    uint32_t m_max_in_use = 0;
    // When each read in flight gives its tag back, earliest first.
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> m_releases;
    occupancy_histogram m_in_use;
};

}  // namespace uetsim
