// The model's one timed process: every wake-up of the model (wakeup.h) waits in one queue
// ordered by (time, phase, sequence), and one SC_METHOD on one kernel event runs them in that
// order. The same-time order no longer depends on the kernel's event history, so observers
// (waveforms, the progress line) cannot change results, and the kernel's timed-notification
// heap (28-37% of a run's instructions) carries one event.
//
// Within a horizon (set_horizon_ps: the end of the run's current slice of simulated time) the
// scheduler goes on from one due time to the next without returning to the kernel, with the
// model's clock (sim_clock.h) ahead of the kernel's: nothing but the model has timed work, so
// the kernel would only have come straight back. Without a horizon (a test bench calling
// sc_start itself) it returns to the kernel at every due time. Both give the same order.
// One simulation per process, so one scheduler per process, made by the first wake-up.
#pragma once

#include <cstdint>
#include <systemc>
#include <vector>

#include "hw/common/wakeup_queue.h"

namespace uetsim {

class wakeup;

class model_scheduler : public sc_core::sc_module
{
public:
    static model_scheduler& instance();

    // Wake-ups due before `ps` may run ahead of the kernel's clock (0: none).
    void set_horizon_ps(uint64_t ps) { m_horizon_ps = ps; }
    // Kernel activations of the scheduler so far.
    uint64_t activations() const { return m_activations; }
    size_t pending_entries() const { return m_queue.size(); }

private:
    friend class wakeup;
    explicit model_scheduler(const sc_core::sc_module_name& name);

    uint32_t attach(wakeup* w);
    void detach(uint32_t id) { m_targets[id] = nullptr; }
    uint64_t schedule(uint32_t id, uint64_t at_ps, bool late);
    void run();
    void drop_stale();
    void arm_kernel(uint64_t at_ps);

    wakeup_queue m_queue;
    std::vector<wakeup*> m_targets;
    sc_core::sc_event m_due;
    uint64_t m_armed_ps = UINT64_MAX;
    uint64_t m_horizon_ps = 0;
    uint64_t m_activations = 0;
    bool m_running = false;
};

}  // namespace uetsim
