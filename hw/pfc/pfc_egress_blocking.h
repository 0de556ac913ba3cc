// XOFF time due to egress occupancy (ecn-pfc-stats `*_xoff_egr_occ*`): the time a port's
// traffic class was paused by its peer while frames of the class were waiting in the port's
// egress queues, i.e. the part of a pause that held traffic back rather than an idle class.
// The owner says which classes are paused with a frame waiting each time that may have changed
// (a pause starts or ends, a frame of a paused class is queued, a paused queue is dropped); a
// class's stretch runs from the later of its pause and its first waiting frame to the earlier
// of the pause's end and its queue emptying. Pure logic, no events: pfc_unit feeds it.
#pragma once

#include <array>
#include <cstdint>

namespace uetsim {

class pfc_egress_blocking
{
public:
    static constexpr int classes = 8;

    // From `now_ps` on, the classes of `mask` are paused with frames waiting.
    void update(uint8_t mask, uint64_t now_ps)
    {
        const uint8_t started = uint8_t(mask & ~m_on);
        const uint8_t ended = uint8_t(m_on & ~mask);
        for (int t = 0; t < classes; ++t) {
            if ((started >> t) & 1u) m_cls[size_t(t)].since_ps = now_ps;
            if ((ended >> t) & 1u) end(t, now_ps);
        }
        m_on = mask;
    }

    uint8_t blocked() const { return m_on; }
    bool blocked(int t) const { return (m_on >> t) & 1u; }

    // Time class t has been blocked since the start, the running stretch up to `now_ps`.
    uint64_t total_ps(int t, uint64_t now_ps) const
    {
        const class_state& s = m_cls[size_t(t)];
        return s.total_ps + (blocked(t) ? now_ps - s.since_ps : 0);
    }
    // The longest part of one stretch of class t inside the interval that ends at `now_ps` (it
    // began at the previous call, or at 0); the next interval begins at `now_ps`.
    uint64_t take_interval_max_ps(int t, uint64_t now_ps)
    {
        class_state& s = m_cls[size_t(t)];
        uint64_t m = s.interval_max_ps;
        if (blocked(t)) {
            const uint64_t start =
                s.since_ps > s.interval_from_ps ? s.since_ps : s.interval_from_ps;
            if (now_ps - start > m) m = now_ps - start;
        }
        s.interval_max_ps = 0;
        s.interval_from_ps = now_ps;
        return m;
    }

private:
    struct class_state
    {
        uint64_t since_ps = 0;
        uint64_t total_ps = 0;
        uint64_t interval_max_ps = 0;   // the longest part of a stretch ended in this interval
        uint64_t interval_from_ps = 0;  // the interval's start
    };

    void end(int t, uint64_t at_ps)
    {
        class_state& s = m_cls[size_t(t)];
        s.total_ps += at_ps - s.since_ps;
        const uint64_t in_ivl =
            at_ps - (s.since_ps > s.interval_from_ps ? s.since_ps : s.interval_from_ps);
        if (in_ivl > s.interval_max_ps) s.interval_max_ps = in_ivl;
    }

    std::array<class_state, classes> m_cls{};
    uint8_t m_on = 0;
};

}  // namespace uetsim
