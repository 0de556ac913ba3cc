#include "hw/kernel/model_scheduler.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup.h"

namespace uetsim {

model_scheduler& model_scheduler::instance()
{
    // Never freed: the kernel keeps pointers to its process until the process ends.
    static model_scheduler* s = new model_scheduler("model_scheduler");
    return *s;
}

model_scheduler::model_scheduler(const sc_core::sc_module_name& name) : sc_core::sc_module(name)
{
    // The component tier runs a second time in the kernel time base (tests/CMakeLists.txt).
    if (const char* env = std::getenv("UETSIM_TIME_BASE")) {
        const std::string v = env;
        if (v == "kernel")
            m_kernel = true;
        else if (!v.empty() && v != "decoupled")
            throw std::invalid_argument("UETSIM_TIME_BASE=" + v +
                                        ": allowed values are decoupled and kernel (unset it: "
                                        "a run's time base is Simulation.TimeBase)");
    }
}

void model_scheduler::check_elaborating(const char* what) const
{
    if (m_elaborated)
        throw std::logic_error(std::string("model_scheduler::") + what +
                               ": called after elaboration; call it before sc_start");
}

void model_scheduler::set_time_base(time_base tb)
{
    if (tb == get_time_base()) return;
    check_elaborating("set_time_base");
    m_kernel = tb == time_base::kernel;
    if (m_kernel) m_horizon_ps = 0;
}

void model_scheduler::allow_blocking()
{
    if (blocking()) return;
    check_elaborating("allow_blocking");
    m_blocking = true;
}

// The process is made here, not in the constructor, so that allow_blocking() can still choose
// the thread after the fabric (and so the scheduler) is built.
void model_scheduler::before_end_of_elaboration()
{
    SC_HAS_PROCESS(model_scheduler);
    m_elaborated = true;
    if (blocking()) {
        SC_THREAD(thread);
        // The handlers' call chains run on this stack (a frame forwarded through a switch to a
        // NIC and its PCIe link): the main thread's size, not SystemC's default.
        set_stack_size(size_t(16) << 20);
    } else {
        SC_METHOD(run);
    }
    sensitive << m_due;
    dont_initialize();
}

void model_scheduler::run()
{
    run_due<false>();
}

void model_scheduler::thread()
{
    for (;;) {
        if (m_kernel)
            run_due<true>();
        else
            run_due<false>();
        wait();  // m_due
    }
}

uint64_t model_scheduler::call_outside(const std::function<void()>& call)
{
    using namespace sc_core;
    const sc_process_handle h = sc_get_current_process_handle();
    if (!h.valid() || h.proc_kind() != SC_THREAD_PROC_)
        throw std::logic_error(
            std::string("call_outside_model: called from ") +
            (!h.valid() ? std::string("no process")
                        : std::string(h.proc_kind() == SC_METHOD_PROC_ ? "the SC_METHOD "
                                                                       : "the SC_CTHREAD ") +
                              h.name()) +
            ", which may not call wait(); call model_scheduler::instance().allow_blocking() "
            "before sc_start (or set Simulation.TimeBase: kernel) so that the model runs in an "
            "SC_THREAD");
    // tlm_quantumkeeper::sync: the kernel catches up with the model's local time, so that the
    // part sees sc_time_stamp() == the model's time.
    const uint64_t model = sim_now_ps();
    const uint64_t before_sync = sc_time_stamp().value();
    if (model > before_sync) wait(sc_time::from_value(model - before_sync));
    const uint64_t start = sc_time_stamp().value();
    call();
    const uint64_t end = sc_time_stamp().value();
    if (end > start && end > m_behind_until_ps) m_behind_until_ps = end;
    return end - start;
}

void model_scheduler::check_kernel_time(uint64_t at_ps) const
{
    const uint64_t kernel = sc_core::sc_time_stamp().value();
    // Behind the kernel only while catching up after an outside call that took time.
    if (at_ps == kernel || (at_ps < kernel && kernel <= m_behind_until_ps)) return;
    throw std::logic_error("kernel time base: a wake-up due at " + std::to_string(at_ps) +
                           " ps ran at kernel time " + std::to_string(kernel) + " ps");
}

uint32_t model_scheduler::attach(wakeup* w)
{
    if (m_targets.size() >= wakeup_entry::max_targets)
        throw std::length_error("more than 16,777,216 model wake-ups: the fabric is too large");
    m_targets.push_back(w);
    return uint32_t(m_targets.size() - 1);
}

uint64_t model_scheduler::schedule(uint32_t id, uint64_t at_ps, uint64_t phase)
{
    uint64_t key = m_queue.reserve(id, phase);
    // Scheduled for now from a later phase (or a place by index before the running one): later
    // in the running phase, in the order of scheduling. What has run never runs again before it.
    if (__builtin_expect(at_ps == m_current_ps, 0) && key < m_current_key && m_running)
        key = m_queue.sequenced(id, wakeup_queue::phase_of(m_current_key));
    m_queue.push_key(at_ps, key);
    // While running, the loop below takes what is due now and arms for the rest on its way out.
    if (!m_running && at_ps < m_armed_ps) arm_kernel(at_ps);
    return key;
}

void model_scheduler::push_reserved(uint64_t at_ps, uint64_t key)
{
    m_queue.push_key(at_ps, key);
    if (!m_running && at_ps < m_armed_ps) arm_kernel(at_ps);
}

void model_scheduler::forget(deferred_owner* o)
{
    m_owed.erase(std::remove(m_owed.begin(), m_owed.end(), o), m_owed.end());
}

void model_scheduler::settle_owed(uint64_t at_ps, uint64_t key)
{
    size_t kept = 0;
    for (size_t i = 0; i < m_owed.size(); ++i)
        if (m_owed[i]->settle_before(at_ps, key)) m_owed[kept++] = m_owed[i];
    m_owed.resize(kept);
}

void model_scheduler::arm_kernel(uint64_t at_ps)
{
    m_armed_ps = at_ps;
    const uint64_t now = sc_core::sc_time_stamp().value();
    m_due.cancel();
    // Never in the kernel's past (a due time is never earlier than the model's clock, which is
    // never behind the kernel's; the guard keeps a caller's mistake from wrapping around).
    m_due.notify(sc_core::sc_time::from_value(at_ps > now ? at_ps - now : 0));
}

void model_scheduler::drop_stale()
{
    while (!m_queue.empty()) {
        const wakeup_entry& e = m_queue.top();
        const wakeup* w = m_targets[e.target()];
        if (w && w->live(e)) return;
        m_queue.pop();
    }
}

template <bool KernelTimeBase>
void model_scheduler::run_due()
{
    ++m_activations;
    m_armed_ps = UINT64_MAX;
    m_running = true;
    uint64_t now = sc_core::sc_time_stamp().value();
    struct not_running
    {
        bool& flag;
        ~not_running() { flag = sim_clock::ahead = false; }
    } guard{m_running};
    sim_clock::model_ps = now;
    sim_clock::ahead = true;
    for (;;) {
        while (!m_queue.empty() && m_queue.top().at_ps <= now) {
            // Left in the queue while its handler runs: the first wake-up scheduled meanwhile
            // takes its place (wakeup_queue::spend_top).
            const wakeup_entry e = m_queue.spend_top();
            wakeup* w = m_targets[e.target()];
            // The next wake-up's state is far from this one's on a large fabric: fetched while
            // this handler runs, it is in cache when its turn comes. The next is one of the
            // top's children unless the handler schedules an earlier one.
            prefetch_next();
            if (!w || !w->live(e)) {
                m_queue.finish_top();
                continue;
            }
            w->m_pending = false;
            m_current_ps = e.at_ps;
            m_current_key = e.key;
            // Records and waveforms read what held-back work changes.
            if (wakeup_queue::phase_of(e.key) == wakeup_queue::late_phase && !m_owed.empty())
                settle_owed(e.at_ps, e.key);
            if constexpr (KernelTimeBase) check_kernel_time(e.at_ps);
            w->m_handler();
            m_queue.finish_top();
        }
        drop_stale();
        if (sim_clock::stopped || m_queue.empty()) break;
        const uint64_t next = m_queue.top().at_ps;
        // On to the next due time: ahead of the kernel within the horizon, or behind it while
        // catching up after an outside call that took time (call_outside).
        if (next >= m_horizon_ps && next > sc_core::sc_time_stamp().value()) break;
        now = sim_clock::model_ps = next;
    }
    // What was held back for a time before the horizon would have run in this activation; an
    // arrival of a frame taken ahead may fall after it and waits for the next. After a stop,
    // only what is due by the time it stopped at.
    if (!m_owed.empty()) {
        if (sim_clock::stopped)
            settle_owed(now, UINT64_MAX);
        else
            settle_owed(m_horizon_ps, 0);
    }
    m_running = false;
    sim_clock::ahead = false;
    if (!m_queue.empty() && !sim_clock::stopped) arm_kernel(m_queue.top().at_ps);
}

wakeup::wakeup(handler h, phase ph)
    : m_handler(std::move(h))
    , m_scheduler(model_scheduler::instance())
    , m_phase(ph == phase::sample    ? wakeup_queue::late_phase
              : ph == phase::control ? wakeup_queue::control_phase
              : ph == phase::line    ? wakeup_queue::line_phase
                                     : wakeup_queue::model_phase)
{
    m_id = m_scheduler.attach(this);
}

wakeup::~wakeup()
{
    m_scheduler.detach(m_id);
}

void wakeup::defer_at_ps(uint64_t at_ps)
{
    m_deferred = true;
    m_at_ps = at_ps;
    m_key = m_scheduler.reserve(m_id, m_phase);
}

bool wakeup::deferred_before(uint64_t at_ps, uint64_t key) const
{
    return m_deferred && wakeup_queue::before(m_at_ps, m_key, at_ps, key);
}

void wakeup::realize()
{
    if (!m_deferred) return;
    m_deferred = false;
    m_pending = true;
    m_scheduler.push_reserved(m_at_ps, m_key);
}

void wakeup::arm(uint64_t at_ps)
{
    m_deferred = false;
    m_pending = true;
    m_at_ps = at_ps;
    m_key = m_scheduler.schedule(m_id, at_ps, m_phase);
}

}  // namespace uetsim
