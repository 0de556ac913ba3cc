// The payload-fetch DMA engine's read tags (UetNic.MaxOutstandingReads): a read takes a free tag
// and holds it from its request until its last completion returns, so tags x bytes per read /
// read round trip bounds the fetch rate (Little's law), as on real NICs. Plain arithmetic over
// each tag's release time; no tags configured means reads are never held back.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

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
        return in_use;
    }

    uint32_t max_in_use() const { return m_max_in_use; }

private:
    std::vector<uint64_t> m_free_at;  // per tag: when its read's last completion returns
    uint32_t m_max_in_use = 0;
};

}  // namespace uetsim
