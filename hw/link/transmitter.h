// The transmit side of a port: pulls the next frame from its owner's queue whenever the link is
// free, and sends it. One pending event per port at most, and only while it is sending.
#pragma once

#include <cstdint>
#include <functional>

#include "hw/kernel/wakeup.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

class transmitter;

// Lets an owner hold back the wake-up at the end of a frame when nothing waits to follow it
// (wakeup::defer_at_ps): the frame end's own work (releasing what the frame held) is then done
// when the owner is next touched, or queued for real if a frame arrives before it.
class frame_end_deferral
{
public:
    // The frame just started ends at `end_ps`: whether its wake-up may be held back.
    virtual bool may_defer_frame_end(uint64_t end_ps) = 0;
    // It was: the owner keeps `t` and later calls end_deferred_frame() or realize_frame_end().
    virtual void frame_end_deferred(transmitter& t) = 0;
    // A frame end that was not held back is about to run.
    virtual void before_frame_end() = 0;
    // A frame started and its end is known (frame_end()).
    virtual void frame_started() {}

protected:
    ~frame_end_deferral() = default;
};

// A plain member of the port module that owns it (no SystemC object of its own but its socket:
// a module per port cost a name, a registry entry and a name generator).
class transmitter
{
public:
    packet_initiator_socket out;

    // Returns the next frame to send, or nullptr when there is none.
    using source = std::function<packet*()>;

    // `name`: the socket's, in the owner module.
    transmitter(const char* name, source next);
    transmitter(const transmitter&) = delete;
    transmitter& operator=(const transmitter&) = delete;

    // Tells the transmitter a frame may be waiting; sends at once if the link is free. A frame
    // end held back until now is queued: it has a frame to pull.
    void kick()
    {
        if (!m_sending)
            start_next();
        else if (m_free.deferred())
            realize_frame_end();
    }

    // Called when a frame's serialization ends, before the next frame is pulled.
    void on_frame_done(std::function<void()> f) { m_done = std::move(f); }
    // The owner may hold frame ends back (nullptr: never).
    void set_deferral(frame_end_deferral* d) { m_deferral = d; }
    // A held-back frame end: its due time and place among same-time wake-ups; queue it, or do
    // its work now (the owner's state must be as it was when it fell due: nothing sent).
    const wakeup& frame_end() const { return m_free; }
    // Whether the frame being sent ends after `at_ps` (false: idle, or its end not yet known).
    bool busy_past(uint64_t at_ps) const
    {
        return m_sending && (m_free.pending() || m_free.deferred()) && m_free.due_ps() > at_ps;
    }
    void realize_frame_end();
    void end_deferred_frame();

    uint64_t packets() const { return m_packets; }
    uint64_t bytes() const { return m_bytes; }

private:
    void start_next();
    void on_free();

    source m_next;
    std::function<void()> m_done;
    frame_end_deferral* m_deferral = nullptr;
    wakeup m_free{[this] { on_free(); }};
    bool m_sending = false;
    uint64_t m_packets = 0;
    uint64_t m_bytes = 0;
};

}  // namespace uetsim
