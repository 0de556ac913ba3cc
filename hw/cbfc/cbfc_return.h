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
        return report(now_ps);
    }
    // An update is wanted (a credit sync asks for one: the last may have been lost): the time it
    // is due, or 0 when one is already due.
    uint64_t report(uint64_t now_ps)
    {
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

    // A frame of `credits` on `vc` arrived (before it is charged or dropped).
    void arrived(int vc, uint32_t credits) { m_received[size_t(vc)] += credits; }
    // A credit sync: the sender has spent `spent` credits on `vc` since link-up (modulo 2^16).
    // Those it spent that never arrived (lost on the link: down, a loss, a failed FCS check)
    // count as arrived now; returns them, for the caller to free.
    uint32_t lost_before_sync(int vc, uint16_t spent)
    {
        const uint16_t lost = uint16_t(spent - uint16_t(m_received[size_t(vc)]));
        if (lost == 0 || lost > cbfc_max_vc_credits) return 0;  // none, or stale
        m_received[size_t(vc)] += lost;
        return lost;
    }
    uint64_t received_total(int vc) const { return m_received[size_t(vc)]; }
    uint64_t freed_total(int vc) const { return m_freed[size_t(vc)]; }
    uint64_t updates() const { return m_updates; }

private:
    uint64_t m_interval_ps;
    std::array<uint64_t, cbfc_max_vcs> m_freed{};
    std::array<uint64_t, cbfc_max_vcs> m_received{};
    bool m_pending = false;
    bool m_sent_any = false;
    uint64_t m_last_ps = 0;
    uint64_t m_due_ps = 0;
    uint64_t m_updates = 0;
};

}  // namespace uetsim
