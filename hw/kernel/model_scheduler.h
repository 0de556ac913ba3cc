// The model's one timed process: every wake-up of the model (wakeup.h) waits in one queue
// ordered by (time, phase, sequence), and one SC_METHOD on one kernel event runs them in that
// order (wakeup_queue.h; the rules are in docs/time-base.md, "Same-time order"). The same-time
// order no longer depends on the kernel's event history, so observers (waveforms, the progress
// line) cannot change results, and the kernel's timed-notification heap (28-37% of a run's
// instructions) carries one event.
//
// Within a horizon (set_horizon_ps: the end of the run's current slice of simulated time) the
// scheduler goes on from one due time to the next without returning to the kernel, with the
// model's clock (sim_clock.h) ahead of the kernel's: nothing but the model has timed work, so
// the kernel would only have come straight back. Without a horizon (a test bench calling
// sc_start itself) it returns to the kernel at every due time. Both give the same order.
// One simulation per process, so one scheduler per process, made by the first wake-up.
//
// The process is an SC_METHOD unless something outside the model may be called
// (call_outside_model, outside_call.h): then an SC_THREAD, which may block in such a call. The
// time base (docs/time-base.md) is `decoupled` (run ahead up to the horizon, the TLM-2.0 global
// quantum) or `kernel` (every due time is a kernel event: the model never runs ahead).
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>
#include <vector>

#include "hw/kernel/time_base.h"
#include "hw/kernel/wakeup_queue.h"

namespace uetsim {

class wakeup;

// An owner of held-back wake-ups (wakeup::defer_at_ps): work whose time is known but which
// nothing may need. It does the work of those ordered before (at_ps, key) when asked, and
// returns whether it still holds any back. The scheduler asks before every sample-phase
// wake-up (records read what the work changes) and once the wake-ups of its run are done (up
// to its horizon: work held for a later time, such as a frame taken ahead that arrives after
// it, stays held).
class deferred_owner
{
public:
    virtual bool settle_before(uint64_t at_ps, uint64_t key) = 0;

protected:
    ~deferred_owner() = default;
};

class model_scheduler : public sc_core::sc_module
{
public:
    static model_scheduler& instance();

    using time_base = uetsim::time_base;
    // Set during elaboration (before sc_start); `kernel` runs the wake-ups in an SC_THREAD. The
    // first is UETSIM_TIME_BASE's (`decoupled` when unset), read when the scheduler is made.
    void set_time_base(time_base tb);
    time_base get_time_base() const { return m_kernel ? time_base::kernel : time_base::decoupled; }
    // Something outside the model may be called from a wake-up (call_outside_model): the
    // wake-ups run in an SC_THREAD. During elaboration, up to sc_start (an embedding
    // application may call it after the fabric is built).
    void allow_blocking();
    // Whether the wake-ups run in an SC_THREAD (kernel time base, or allow_blocking()).
    bool blocking() const { return m_blocking || m_kernel; }

    // Wake-ups due before `ps` may run ahead of the kernel's clock (0: none). Never in the
    // kernel time base.
    void set_horizon_ps(uint64_t ps) { m_horizon_ps = m_kernel ? 0 : ps; }
    // A wake-up due at `at_ps` may be held back: it would run within this activation, which
    // settles what its owners hold back before it returns (never in lockstep).
    bool may_defer(uint64_t at_ps) const { return m_running && at_ps < m_horizon_ps; }
    // Whether the wake-ups run ahead of the kernel now, up to a horizon (never in lockstep).
    bool running_ahead() const { return m_running && m_horizon_ps != 0; }
    // The wake-up being run: what an owner settles before touching its state.
    uint64_t current_ps() const { return m_current_ps; }
    uint64_t current_key() const { return m_current_key; }
    // `o` holds a wake-up back (once per owner until settle_before() returns false).
    void owe(deferred_owner* o) { m_owed.push_back(o); }
    // `o` goes away (what it held back after a stop is never run).
    void forget(deferred_owner* o);
    // Kernel activations of the scheduler so far.
    uint64_t activations() const { return m_activations; }
    size_t pending_entries() const { return m_queue.size(); }

    // call_outside_model (outside_call.h).
    uint64_t call_outside(const std::function<void()>& call);

private:
    friend class wakeup;
    explicit model_scheduler(const sc_core::sc_module_name& name);

    void before_end_of_elaboration() override;
    void check_elaborating(const char* what) const;
    void thread();
    template <bool KernelTimeBase>
    void run_due();
    void check_kernel_time(uint64_t at_ps) const;

    uint32_t attach(wakeup* w);
    void detach(uint32_t id) { m_targets[id] = nullptr; }
    uint64_t schedule(uint32_t id, uint64_t at_ps, uint64_t phase);
    void run();
    void drop_stale();
    void prefetch_next() const
    {
        if (const wakeup_entry* n = m_queue.second()) __builtin_prefetch(m_targets[n->target()]);
    }
    void arm_kernel(uint64_t at_ps);
    void settle_owed(uint64_t at_ps, uint64_t key);
    uint64_t reserve(uint32_t id, uint64_t phase) { return m_queue.reserve(id, phase); }
    void push_reserved(uint64_t at_ps, uint64_t key);

    wakeup_queue m_queue;
    std::vector<wakeup*> m_targets;
    sc_core::sc_event m_due;
    uint64_t m_armed_ps = UINT64_MAX;
    uint64_t m_horizon_ps = 0;
    uint64_t m_activations = 0;
    uint64_t m_current_ps = 0;
    uint64_t m_current_key = 0;
    // The kernel's time after the last outside call that took time: due times up to it run
    // behind the kernel until the model has caught up.
    uint64_t m_behind_until_ps = 0;
    std::vector<deferred_owner*> m_owed;
    bool m_running = false;
    bool m_kernel = false;
    bool m_blocking = false;
    bool m_elaborated = false;  // the process is made: the choices above are fixed
};

}  // namespace uetsim
