// The sending side of CBFC on one link end: per VC the credits the receiver has granted (its
// advertised buffer plus every credit it has returned) and those spent, both cumulative; a frame
// goes only when its VC has credit for all of it. Also the times each VC was stalled and the
// range of credits outstanding (link-stats). Kernel-free.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "hw/cbfc/cbfc_settings.h"

namespace uetsim {

class cbfc_credits
{
public:
    cbfc_credits() = default;
    // `advertised`: the receiver's credits per VC at link-up.
    explicit cbfc_credits(uint32_t advertised) : m_advertised(advertised) {}

    uint32_t advertised() const { return m_advertised; }
    // Credits the VC may still spend.
    uint32_t available(int vc) const { return m_advertised - outstanding(vc); }
    // Spent and not yet returned (in flight, in the receiver's buffer, or freed there and not
    // yet reported).
    uint32_t outstanding(int vc) const
    {
        const vc_state& v = m_vc[size_t(vc)];
        return uint32_t(v.spent - v.returned);
    }

    // A frame of `credits` on `vc` at `now_ps`: spent and true when the VC has them; else the VC
    // stalls (from now, if it was not already) until an update brings that many, and false.
    bool take(int vc, uint32_t credits, uint64_t now_ps)
    {
        vc_state& v = m_vc[size_t(vc)];
        if (credits > available(vc)) {
            v.need = credits;
            if (!v.stalled) {
                v.stalled = true;
                v.stall_start_ps = now_ps;
                ++v.stalls;
            }
            return false;
        }
        v.spent += credits;
        v.interval_max = std::max(v.interval_max, outstanding(vc));
        return true;
    }

    // A credit update: the receiver has freed `freed` credits on `vc` since link-up (modulo
    // 2^16). Returns true when it ends the VC's stall (its waiting frame now has credit).
    bool update(int vc, uint16_t freed, uint64_t now_ps)
    {
        vc_state& v = m_vc[size_t(vc)];
        const uint16_t gained = uint16_t(freed - uint16_t(v.returned));
        if (gained > outstanding(vc)) return false;  // stale: nothing more is granted
        v.returned += gained;
        v.interval_min = std::min(v.interval_min, outstanding(vc));
        if (!v.stalled || available(vc) < v.need) return false;
        v.stalled = false;
        v.stall_ps += now_ps - v.stall_start_ps;
        return true;
    }

    // Credits spent since link-up (a credit sync carries it, modulo 2^16).
    uint64_t spent(int vc) const { return m_vc[size_t(vc)].spent; }
    bool stalled(int vc) const { return m_vc[size_t(vc)].stalled; }
    uint64_t stalls(int vc) const { return m_vc[size_t(vc)].stalls; }
    // Time stalled up to `now_ps`, the stall in progress included.
    uint64_t stall_ps(int vc, uint64_t now_ps) const
    {
        const vc_state& v = m_vc[size_t(vc)];
        return v.stall_ps + (v.stalled ? now_ps - v.stall_start_ps : 0);
    }
    // The least and most credits outstanding since the last take_interval(); the next interval
    // starts at the current value.
    struct range
    {
        uint32_t min = 0;
        uint32_t max = 0;
    };
    range take_interval(int vc)
    {
        vc_state& v = m_vc[size_t(vc)];
        const range r{v.interval_min, v.interval_max};
        v.interval_min = v.interval_max = outstanding(vc);
        return r;
    }

private:
    struct vc_state
    {
        uint64_t spent = 0;
        uint64_t returned = 0;
        bool stalled = false;
        uint32_t need = 0;  // credits the waiting frame takes
        uint64_t stall_start_ps = 0;
        uint64_t stall_ps = 0;
        uint64_t stalls = 0;
        uint32_t interval_min = 0;
        uint32_t interval_max = 0;
    };
    uint32_t m_advertised = 0;
    std::array<vc_state, cbfc_max_vcs> m_vc{};
};

}  // namespace uetsim
