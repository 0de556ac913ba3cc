// A timed wake-up of a model: the model's replacement for a timed sc_event and the SC_METHOD
// it triggered. notify() follows sc_event's rule (an earlier pending wake-up wins, a later one
// is dropped); the handler runs at the due time, inside the model scheduler's one process
// (model_scheduler.h), after the wake-ups of that time scheduled before it.
//
//   wakeup m_free{[this] { on_free(); }};
//   m_free.notify(serialization_time);
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>

#include "hw/kernel/sim_clock.h"

namespace uetsim {

class model_scheduler;

class wakeup
{
public:
    using handler = std::function<void()>;

    // When a wake-up runs among those due at the same time.
    // In the line and control phases the place is the order the wake-ups were made, not
    // scheduled: when one was scheduled, or whether it was at all, changes no order.
    enum class phase {
        model,    // in the order scheduled
        line,     // a delay line's deliveries (timed_fifo.h), after every model wake-up
        control,  // a link's control ordered sets (link_llr.cpp), after the lines
        sample,   // last: records see the state the time ends with
    };

    explicit wakeup(handler h, phase ph = phase::model);
    ~wakeup();
    wakeup(const wakeup&) = delete;
    wakeup& operator=(const wakeup&) = delete;

    // Wakes after `delay` (zero: later at this same time, after what is due now).
    void notify(const sc_core::sc_time& delay) { notify_at_ps(sim_now_ps() + delay.value()); }
    void notify_at_ps(uint64_t at_ps)
    {
        if (m_pending && m_at_ps <= at_ps) return;
        arm(at_ps);
    }
    // Wakes at `at_ps` even if an earlier wake-up was pending (one pending at that very time
    // keeps its place among the wake-ups of that time).
    void reschedule_at_ps(uint64_t at_ps)
    {
        if (m_pending && m_at_ps == at_ps) return;
        arm(at_ps);
    }
    void cancel() { m_pending = m_deferred = false; }
    bool pending() const { return m_pending; }

    // Held back by its owner (deferred_owner, model_scheduler.h): due at `at_ps` with the place
    // among same-time wake-ups that notify_at_ps() would give it now, but not queued. The owner
    // then either queues it (realize(), when something will need it to run) or does its work
    // itself once a later wake-up is about to depend on it (take_deferred()). Only while
    // model_scheduler::may_defer(at_ps), and never while pending.
    void defer_at_ps(uint64_t at_ps);
    bool deferred() const { return m_deferred; }
    // Whether it is held back and ordered before (at_ps, key).
    bool deferred_before(uint64_t at_ps, uint64_t key) const;
    void realize();
    // The owner runs its work now: no longer held back (the handler is not called).
    void take_deferred() { m_deferred = false; }
    uint64_t due_ps() const { return m_at_ps; }
    uint64_t key() const { return m_key; }
    // A line or control wake-up's place among same-time wake-ups, whenever it is scheduled
    // ahead of its time (its key then): the owner of work held for it orders that work by it.
    uint64_t place_key() const { return m_phase | m_id; }

private:
    friend class model_scheduler;
    void arm(uint64_t at_ps);
    // Whether queue entry (at_ps, key) is this wake-up's live one (a key placed by index is the
    // same at every push: its time tells the entries apart).
    template <class Entry>
    bool live(const Entry& e) const
    {
        return m_pending && m_key == e.key && m_at_ps == e.at_ps;
    }

    handler m_handler;
    model_scheduler& m_scheduler;
    uint64_t m_at_ps = 0;
    uint32_t m_id;
    uint64_t m_key = 0;  // of the live queue entry
    bool m_pending = false;
    bool m_deferred = false;
    uint64_t m_phase;  // the phase's key bits (wakeup_queue)
};

}  // namespace uetsim
