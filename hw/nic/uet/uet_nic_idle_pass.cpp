// The UET NIC's held-back idle passes (docs/performance.md, "Held-back idle passes"): a run
// of the transmit scheduler that would find every ready group unable to send (its window
// full, no data) only takes them out of the ring. When the NIC sent its last packet for now,
// or an ACK opened no room, its next run is such a pass unless something reaches the NIC
// before it (an ACK, a new message, a timer), and each of those settles it first: the pass is
// held back at its time and place and, if nothing came, done at the first step after it. Not
// with the PDC context cache (the run may wait for the stage) or a waveform of the NIC (it
// reads the ring).
#include "hw/kernel/model_scheduler.h"
#include "hw/nic/uet/uet_nic.h"

namespace uetsim {

bool uet_nic::may_hold_idle_pass(uint64_t at_ps)
{
    return !m_contexts && !m_probe && model_scheduler::instance().may_defer(at_ps) &&
           m_scheduler.would_idle();
}

void uet_nic::kick_scheduler_or_hold()
{
    settle_idle_pass();
    if (m_schedule_pending) return;
    const uint64_t now = now_ps();
    if (may_hold_idle_pass(now))
        hold_idle_pass(now);
    else
        kick_scheduler();
}

void uet_nic::hold_idle_pass(uint64_t at_ps)
{
    m_schedule_pending = m_idle_pass_held = true;
    m_schedule_wake.defer_at_ps(at_ps);
    if (!m_owed) {
        m_owed = true;
        model_scheduler::instance().owe(this);
    }
}

void uet_nic::settle_idle_pass_held()
{
    const model_scheduler& s = model_scheduler::instance();
    if (m_schedule_wake.deferred_before(s.current_ps(), s.current_key())) {
        end_idle_pass();
        return;
    }
    // What comes now may change what the run finds: it runs.
    m_idle_pass_held = false;
    m_schedule_wake.realize();
}

bool uet_nic::settle_before(uint64_t at_ps, uint64_t key)
{
    if (m_idle_pass_held && m_schedule_wake.deferred_before(at_ps, key)) end_idle_pass();
    m_owed = m_idle_pass_held;
    return m_owed;
}

void uet_nic::end_idle_pass()
{
    m_idle_pass_held = false;
    m_schedule_wake.take_deferred();
    m_schedule_pending = false;
    m_scheduler.idle_pass();
}

// Its only teardown: leave the model scheduler's list of owners with work held back.
uet_nic::~uet_nic()
{
    if (m_owed) model_scheduler::instance().forget(this);
}

}  // namespace uetsim
