// The receive side of PFC on one port: which traffic classes the peer has paused and until when,
// and the time each class has spent paused (the ecn-pfc-stats columns and the pause-storm
// detector: the longest continuous pause). A frame with non-zero quanta pauses its classes for
// the whole pause time, restarting it; quanta 0 resumes them; the end of the pause time resumes
// them too (pages: "Receiving a pause"). Pure logic: the port's module wakes it at
// next_expiry() and applies the changes to its port_scheduler.
#pragma once

#include <array>
#include <cstdint>

#include "hw/pfc/pfc_timing.h"

namespace uetsim {

class pfc_pause_timer
{
public:
    static constexpr int classes = 8;
    static constexpr uint64_t never = UINT64_MAX;

    struct change
    {
        uint8_t paused = 0;   // classes that were running and are paused now
        uint8_t resumed = 0;  // classes that were paused and run again now
    };

    // A received PFC frame at `now_ps`, timed on the port's link `l`.
    change on_frame(uint8_t class_enable, const uint16_t quanta[classes], uint64_t now_ps,
                    const pfc_link& l)
    {
        change c;
        for (int t = 0; t < classes; ++t) {
            if (!((class_enable >> t) & 1u)) continue;
            class_state& s = m_cls[size_t(t)];
            const uint8_t bit = uint8_t(1u << t);
            if (quanta[t] != 0) {
                ++s.xoff_rx;
                if (!(m_paused & bit)) {
                    m_paused |= bit;
                    s.since_ps = now_ps;
                    c.paused |= bit;
                }
                s.until_ps = now_ps + pfc_pause_ps(quanta[t], l);  // a fresh pause restarts it
            } else {
                ++s.xon_rx;
                if (m_paused & bit) {
                    end(t, now_ps);
                    c.resumed |= bit;
                }
            }
        }
        return c;
    }

    // Resumes the classes whose pause time has run out by `now_ps`; returns them.
    uint8_t expire(uint64_t now_ps)
    {
        uint8_t r = 0;
        for (int t = 0; t < classes; ++t)
            if (((m_paused >> t) & 1u) && m_cls[size_t(t)].until_ps <= now_ps) {
                end(t, m_cls[size_t(t)].until_ps);
                r |= uint8_t(1u << t);
            }
        return r;
    }

    // The earliest end of a pause still running; never when nothing is paused.
    uint64_t next_expiry() const
    {
        uint64_t n = never;
        for (int t = 0; t < classes; ++t)
            if (((m_paused >> t) & 1u) && m_cls[size_t(t)].until_ps < n)
                n = m_cls[size_t(t)].until_ps;
        return n;
    }

    uint8_t paused() const { return m_paused; }
    bool paused(int t) const { return (m_paused >> t) & 1u; }
    // When the running pause of class t started (valid while paused(t)).
    uint64_t since_ps(int t) const { return m_cls[size_t(t)].since_ps; }
    uint64_t until_ps(int t) const { return m_cls[size_t(t)].until_ps; }

    // Time class t has been paused since the start, the running pause included up to `now_ps`.
    uint64_t paused_ps(int t, uint64_t now_ps) const
    {
        const class_state& s = m_cls[size_t(t)];
        return s.total_ps + (paused(t) ? now_ps - s.since_ps : 0);
    }
    // The pause-storm detector: the longest continuous pause of class t, the running one
    // included up to `now_ps`.
    uint64_t longest_ps(int t, uint64_t now_ps) const
    {
        const class_state& s = m_cls[size_t(t)];
        const uint64_t running = paused(t) ? now_ps - s.since_ps : 0;
        return running > s.longest_ps ? running : s.longest_ps;
    }
    // The longest part of one pause of class t inside the interval that ends at `now_ps` (it
    // began at the previous call, or at 0), over the pauses that ended in it and the running
    // one; the next interval begins at `now_ps`.
    uint64_t take_interval_max_ps(int t, uint64_t now_ps)
    {
        class_state& s = m_cls[size_t(t)];
        uint64_t m = s.interval_max_ps;
        if (paused(t)) {
            const uint64_t start =
                s.since_ps > s.interval_from_ps ? s.since_ps : s.interval_from_ps;
            if (now_ps - start > m) m = now_ps - start;
        }
        s.interval_max_ps = 0;
        s.interval_from_ps = now_ps;
        return m;
    }
    uint64_t xoff_rx(int t) const { return m_cls[size_t(t)].xoff_rx; }
    uint64_t xon_rx(int t) const { return m_cls[size_t(t)].xon_rx; }

private:
    struct class_state
    {
        uint64_t until_ps = 0;
        uint64_t since_ps = 0;
        uint64_t total_ps = 0;
        uint64_t longest_ps = 0;
        uint64_t interval_max_ps = 0;   // the longest part of a pause ended in this interval
        uint64_t interval_from_ps = 0;  // the interval's start
        uint64_t xoff_rx = 0;
        uint64_t xon_rx = 0;
    };

    void end(int t, uint64_t at_ps)
    {
        class_state& s = m_cls[size_t(t)];
        const uint64_t d = at_ps - s.since_ps;
        s.total_ps += d;
        if (d > s.longest_ps) s.longest_ps = d;
        const uint64_t in_ivl =
            at_ps - (s.since_ps > s.interval_from_ps ? s.since_ps : s.interval_from_ps);
        if (in_ivl > s.interval_max_ps) s.interval_max_ps = in_ivl;
        m_paused &= uint8_t(~(1u << t));
    }

    std::array<class_state, classes> m_cls{};
    uint8_t m_paused = 0;
};

}  // namespace uetsim
