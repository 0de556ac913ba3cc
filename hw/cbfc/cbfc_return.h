// The receiving side of CBFC on one link end: per VC the credits its buffer has freed since
// link-up, and when the next credit update may go. At most one update per interval: the first
// credit freed after an update is reported at the update's time plus the interval, or at once
// when that has passed; the update carries every VC's cumulative count (modulo 2^16).
// Kernel-free.
#pragma once

#include <array>
#include <cstdint>

#include "hw/cbfc/cbfc_settings.h"

namespace uetsim {

class cbfc_return
{
public:
    explicit cbfc_return(uint64_t interval_ps = 0) : m_interval_ps(interval_ps) {}

    // The buffer freed `credits` on `vc` at `now_ps`. Returns the time the update reporting them
    // is due, or 0 when one is already due (it will carry them).
    uint64_t freed(int vc, uint32_t credits, uint64_t now_ps)
    {
        m_freed[size_t(vc)] += credits;
        if (m_pending) return 0;
        m_pending = true;
        const uint64_t earliest = m_sent_any ? m_last_ps + m_interval_ps : now_ps;
        m_due_ps = earliest > now_ps ? earliest : now_ps;
        return m_due_ps;
    }
    bool pending() const { return m_pending; }
    uint64_t due_ps() const { return m_due_ps; }

    // The update goes at `now_ps`: every VC's count, cumulative.
    std::array<uint16_t, cbfc_max_vcs> take_update(uint64_t now_ps)
    {
        m_pending = false;
        m_sent_any = true;
        m_last_ps = now_ps;
        ++m_updates;
        std::array<uint16_t, cbfc_max_vcs> counts{};
        for (size_t v = 0; v < counts.size(); ++v) counts[v] = uint16_t(m_freed[v]);
        return counts;
    }

    uint64_t freed_total(int vc) const { return m_freed[size_t(vc)]; }
    uint64_t updates() const { return m_updates; }

private:
    uint64_t m_interval_ps;
    std::array<uint64_t, cbfc_max_vcs> m_freed{};
    bool m_pending = false;
    bool m_sent_any = false;
    uint64_t m_last_ps = 0;
    uint64_t m_due_ps = 0;
    uint64_t m_updates = 0;
};

}  // namespace uetsim
