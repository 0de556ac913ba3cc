#include "hw/link/transmitter.h"

#include <stdexcept>
#include <string>

#include "hw/kernel/activity.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/sim_clock.h"

namespace uetsim {

transmitter::transmitter(const char* name, source next) : out(name), m_next(std::move(next))
{
    // A frame the link kept (LLR) starts later: its END_REQ says when it ends. That end is never
    // held back: the owner is not the one calling here.
    out.on_end_req(
        [this](const sc_core::sc_time& d) { m_free.notify_at_ps(sim_now_ps() + d.value()); });
}

void transmitter::start_next()
{
    packet* p = m_next();
    if (!p) {
        m_sending = false;
        return;
    }
    m_sending = true;
    ++m_packets;
    m_bytes += p->wire_bytes;
    // The link owns the frame from here; its END_REQ delay is the serialization time.
    const sc_core::sc_time ser = out.send(*p);
    if (__builtin_expect(is_end_req_later(ser), 0)) return;  // END_REQ on the backward path
    const uint64_t end_ps = sim_now_ps() + ser.value();
    if (!m_deferral) {
        m_free.notify_at_ps(end_ps);
        return;
    }
    if (m_deferral->may_defer_frame_end(end_ps)) {
        m_free.defer_at_ps(end_ps);
        m_deferral->frame_end_deferred(*this);
    } else {
        m_free.notify_at_ps(end_ps);
    }
    m_deferral->frame_started();
}

void transmitter::on_free()
{
    activity::tick();
    if (m_deferral) m_deferral->before_frame_end();
    if (m_done) m_done();
    start_next();
}

void transmitter::realize_frame_end()
{
    // Every path into the owner settles it first, so a held-back frame end is never already due
    // here; one that were would run late.
    const model_scheduler& s = model_scheduler::instance();
    if (m_free.deferred_before(s.current_ps(), s.current_key()))
        throw std::logic_error(std::string(out.name()) + ": a held-back frame end queued late");
    m_free.realize();
}

void transmitter::end_deferred_frame()
{
    m_free.take_deferred();
    if (m_done) m_done();
    start_next();
    // Held back only while nothing waited, and a frame queued since would have realised it.
    if (m_sending) throw std::logic_error(std::string(out.name()) + ": a held-back frame end sent");
}

}  // namespace uetsim
