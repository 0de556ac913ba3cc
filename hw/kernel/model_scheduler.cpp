#include "hw/kernel/model_scheduler.h"

#include <algorithm>
#include <stdexcept>

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
    SC_HAS_PROCESS(model_scheduler);
    SC_METHOD(run);
    sensitive << m_due;
    dont_initialize();
}

uint32_t model_scheduler::attach(wakeup* w)
{
    if (m_targets.size() >= wakeup_entry::max_targets)
        throw std::length_error("more than 16,777,216 model wake-ups: the fabric is too large");
    m_targets.push_back(w);
    return uint32_t(m_targets.size() - 1);
}

uint64_t model_scheduler::schedule(uint32_t id, uint64_t at_ps, bool late)
{
    const uint64_t key = m_queue.push(at_ps, id, late);
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
        if (w && w->m_pending && w->m_key == e.key) return;
        m_queue.pop();
    }
}

void model_scheduler::run()
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
            if (!w || !w->m_pending || w->m_key != e.key) {
                m_queue.finish_top();
                continue;
            }
            w->m_pending = false;
            m_current_ps = e.at_ps;
            m_current_key = e.key;
            // Records and waveforms read what held-back work changes.
            if ((e.key & wakeup_queue::late_phase) && !m_owed.empty()) settle_owed(e.at_ps, e.key);
            w->m_handler();
            m_queue.finish_top();
        }
        drop_stale();
        if (sim_clock::stopped || m_queue.empty() || m_queue.top().at_ps >= m_horizon_ps) break;
        now = sim_clock::model_ps = m_queue.top().at_ps;  // on to the next due time
    }
    // Held-back wake-ups were all due before the horizon: they would have run in this
    // activation. After a stop, only those due by the time it stopped at.
    if (!m_owed.empty()) settle_owed(sim_clock::stopped ? now : UINT64_MAX, UINT64_MAX);
    m_running = false;
    sim_clock::ahead = false;
    if (!m_queue.empty() && !sim_clock::stopped) arm_kernel(m_queue.top().at_ps);
}

wakeup::wakeup(handler h, phase ph)
    : m_handler(std::move(h))
    , m_scheduler(model_scheduler::instance())
    , m_sample(ph == phase::sample)
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
    m_key = m_scheduler.reserve(m_id, m_sample);
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
    m_key = m_scheduler.schedule(m_id, at_ps, m_sample);
}

}  // namespace uetsim
