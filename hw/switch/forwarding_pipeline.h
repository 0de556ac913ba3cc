// A switch's forwarding pipeline: each frame leaves a fixed latency after its arrival, in the
// order the frames arrived (time, then the place of the link delivery that brought it among
// same-time wake-ups). A frame taken ahead enters when it starts on its link, before frames of
// other links that arrive earlier, so the frames wait in frames_in_flight.h, which also gives
// the arrivals still to apply. Its exits run in the line phase, placed by the pipeline
// (wakeup.h), as a timed_fifo's deliveries do; the owner takes them (next_exit) when woken.
#pragma once

#include <cstdint>
#include <functional>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup.h"
#include "hw/switch/frames_in_flight.h"

namespace uetsim {

template <typename T>
class forwarding_pipeline
{
public:
    using entry = typename frames_in_flight<T>::entry;

    // `on_due`: exits are due (take them with exit_due and next_exit). `ports`: the sources of
    // frames taken ahead (0 to ports - 1). `latency_ps`: from arrival to exit.
    forwarding_pipeline(std::function<void()> on_due, size_t ports, uint64_t latency_ps)
        : m_frames(ports), m_latency_ps(latency_ps), m_due(std::move(on_due), wakeup::phase::line)
    {
    }

    uint64_t latency_ps() const { return m_latency_ps; }

    // A frame arriving now; `place`: the key of the link delivery that brought it.
    void push(const T& item, uint64_t place)
    {
        const uint64_t now = sim_now_ps();
        if (m_frames.push_arrived({now, place}, item)) m_due.notify_at_ps(now + m_latency_ps);
    }
    // A frame taken ahead from `port`'s link, arriving at `arrive_ps` by the wire placed `place`.
    void push_ahead(size_t port, const T& item, uint64_t arrive_ps, uint64_t place)
    {
        if (m_frames.push_ahead(port, {arrive_ps, place}, item))
            m_due.notify_at_ps(arrive_ps + m_latency_ps);
    }

    // Arrivals of frames taken ahead, to apply in order.
    bool arrivals_waiting() const { return m_frames.arrivals_waiting(); }
    const entry& next_arrival() const { return m_frames.next_arrival(); }
    void arrival_applied() { m_frames.arrival_applied(); }

    bool empty() const { return m_frames.empty(); }
    // Whether a frame leaves by `now_ps`; then next_exit() (its arrival and item) and exited().
    bool exit_due(uint64_t now_ps) const
    {
        return !m_frames.empty() && m_frames.next_exit().arrival.ps + m_latency_ps <= now_ps;
    }
    const entry& next_exit() const { return m_frames.next_exit(); }
    bool next_exit_arrived() const { return m_frames.next_exit_arrived(); }
    void exited() { m_frames.exited(); }
    // After exits were taken (when due, or held back by the owner): wakes for the next.
    void rearm()
    {
        if (m_frames.empty())
            m_due.cancel();
        else
            m_due.reschedule_at_ps(m_frames.next_exit().arrival.ps + m_latency_ps);
    }
    // The place of its exits among same-time wake-ups.
    uint64_t place_key() const { return m_due.place_key(); }

    // Takes out the frames taken ahead from `port` that have not arrived (given to `lost` in
    // arrival order); rare.
    template <typename F>
    void recall(size_t port, F&& lost)
    {
        if (!m_frames.recall(port, lost)) return;
        if (m_frames.empty())
            m_due.cancel();
        else
            m_due.reschedule_at_ps(m_frames.next_exit().arrival.ps + m_latency_ps);
    }

private:
    frames_in_flight<T> m_frames;
    uint64_t m_latency_ps;
    wakeup m_due;
};

}  // namespace uetsim
