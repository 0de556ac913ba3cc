// A time-weighted histogram of an integer occupancy (FIFO entries, read tags in use, packets
// outstanding): the time spent at each level, so that a percentile over time (p99) costs one
// update per change of level and a scan only when a row is written. Plain class; times in ps
// from 0, where the level starts at 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace uetsim {

class occupancy_histogram
{
public:
    // The occupancy becomes `level` at time `t`. Times must not go back; an earlier `t` (an
    // arithmetic pipeline may report a change a little out of order) counts as the last one.
    void set(uint64_t t, uint32_t level)
    {
        if (t > m_last_t) {
            if (m_level >= m_ps.size()) m_ps.resize(m_level + 1, 0);
            m_ps[m_level] += t - m_last_t;
            m_last_t = t;
        }
        m_level = level;
        m_max = std::max(m_max, level);
    }
    void add(uint64_t t, int delta) { set(t, uint32_t(int64_t(m_level) + delta)); }

    uint32_t level() const { return m_level; }
    uint32_t max() const { return m_max; }
    uint64_t last_change() const { return m_last_t; }

    // The smallest level L such that the occupancy was at most L for at least fraction `q` of
    // the time from 0 to `now` (the current level lasting until `now`). With no time elapsed:
    // the current level.
    uint32_t quantile(double q, uint64_t now) const
    {
        const uint64_t tail = now > m_last_t ? now - m_last_t : 0;
        uint64_t total = tail;
        for (uint64_t v : m_ps) total += v;
        if (total == 0) return m_level;
        const double want = q * double(total);
        uint64_t cum = 0;
        const size_t levels = std::max<size_t>(m_ps.size(), size_t(m_level) + 1);
        for (size_t l = 0; l < levels; ++l) {
            cum += l < m_ps.size() ? m_ps[l] : 0;
            if (l == m_level) cum += tail;
            if (double(cum) >= want) return uint32_t(l);
        }
        return uint32_t(levels - 1);
    }
    uint32_t p99(uint64_t now) const { return quantile(0.99, now); }

private:
    std::vector<uint64_t> m_ps;  // time spent at each level before m_last_t
    uint64_t m_last_t = 0;
    uint32_t m_level = 0;
    uint32_t m_max = 0;
};

}  // namespace uetsim
