// The send side of PFC on one port: the classes it is holding its peer in pause for, and when
// each pause is due to be re-sent (every half pause time, so the peer's pause never runs out
// while the cause lasts). xoff() of a class already held sends nothing (pages: "when no pause
// is outstanding"); xon() of a held class sends the resume and stops the refresh. Pure logic:
// the port's module builds the frames and wakes it at next_refresh().
#pragma once

#include <array>
#include <cstdint>

#include "hw/pfc/pfc_timing.h"

namespace uetsim {

class pfc_requests
{
public:
    static constexpr int classes = 8;
    static constexpr uint64_t never = UINT64_MAX;

    // The classes of `mask` not held yet become held at `now_ps`; returns them (a pause frame
    // each). Their refresh is due `refresh_ps[t]` later.
    uint8_t xoff(uint8_t mask, uint64_t now_ps, const std::array<uint64_t, classes>& refresh_ps)
    {
        const uint8_t fresh = mask & uint8_t(~m_held);
        for (int t = 0; t < classes; ++t)
            if ((fresh >> t) & 1u) m_due[size_t(t)] = now_ps + refresh_ps[size_t(t)];
        m_held |= fresh;
        return fresh;
    }

    // The held classes of `mask` are released; returns them (a resume frame each).
    uint8_t xon(uint8_t mask)
    {
        const uint8_t r = mask & m_held;
        m_held &= uint8_t(~r);
        return r;
    }

    // The held classes whose refresh is due by `now_ps`; their next refresh is due one
    // interval after this one. Returns them (a pause frame each, unless the caller releases).
    uint8_t due(uint64_t now_ps, const std::array<uint64_t, classes>& refresh_ps)
    {
        uint8_t d = 0;
        for (int t = 0; t < classes; ++t)
            if (((m_held >> t) & 1u) && m_due[size_t(t)] <= now_ps) {
                m_due[size_t(t)] += refresh_ps[size_t(t)];
                d |= uint8_t(1u << t);
            }
        return d;
    }

    uint64_t next_refresh() const
    {
        uint64_t n = never;
        for (int t = 0; t < classes; ++t)
            if (((m_held >> t) & 1u) && m_due[size_t(t)] < n) n = m_due[size_t(t)];
        return n;
    }

    uint8_t held() const { return m_held; }

private:
    std::array<uint64_t, classes> m_due{};
    uint8_t m_held = 0;
};

}  // namespace uetsim
