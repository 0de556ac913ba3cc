#include "hw/pfc/pfc_unit.h"

#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

namespace {

// Wakes `w` at `at_ps` (replacing any pending wake-up); none when `at_ps` is never.
void arm(wakeup& w, uint64_t at_ps)
{
    if (at_ps == UINT64_MAX)
        w.cancel();
    else
        w.reschedule_at_ps(at_ps);
}

}  // namespace

pfc_unit::pfc_unit(const pfc_settings& s, packet_pool& pool, port_scheduler& scheduler,
                   pfc_owner& owner)
    : m_s(s), m_pool(pool), m_scheduler(scheduler), m_owner(owner)
{
}

void pfc_unit::set_link(const pfc_link& l)
{
    m_s.link = l;
    if (m_st) compute_refresh();
}

void pfc_unit::compute_refresh()
{
    for (int t = 0; t < 8; ++t)
        m_st->refresh_ps[size_t(t)] = pfc_refresh_ps(m_s.quanta[size_t(t)], m_s.link);
}

pfc_unit::state& pfc_unit::st()
{
    if (!m_st) {
        m_st = std::make_unique<state>(*this);
        compute_refresh();
    }
    return *m_st;
}

namespace {

// What a port reads as before its first PFC frame.
const pfc_pause_timer k_no_pauses{};
const pfc_egress_blocking k_no_blocking{};
const pfc_class_counters k_no_counters{};

}  // namespace

const pfc_pause_timer& pfc_unit::pauses() const
{
    return m_st ? m_st->rx : k_no_pauses;
}

const pfc_egress_blocking& pfc_unit::egress_blocking() const
{
    return m_st ? m_st->blocked : k_no_blocking;
}

const pfc_class_counters& pfc_unit::counters(int t) const
{
    return m_st ? m_st->counters[size_t(t)] : k_no_counters;
}

// Without a PFC frame so far nothing was paused: the maximum is 0 and a later first pause
// starts after every interval boundary, so the boundary need not be kept.
uint64_t pfc_unit::take_pause_interval_max_ps(int t, uint64_t now_ps)
{
    return m_st ? m_st->rx.take_interval_max_ps(t, now_ps) : 0;
}

uint64_t pfc_unit::take_egress_interval_max_ps(int t, uint64_t now_ps)
{
    return m_st ? m_st->blocked.take_interval_max_ps(t, now_ps) : 0;
}

void pfc_unit::receive(const packet& p)
{
    m_active = true;
    state& s = st();
    const pfc_pause_timer::change c =
        s.rx.on_frame(p.pfc.class_enable, p.pfc.quanta, sim_now_ps(), m_s.link);
    if (c.paused) m_scheduler.pause(c.paused);
    if (c.resumed) m_scheduler.resume(c.resumed);
    arm_expiry();
    if (c.paused | c.resumed) track_egress();
    if (m_s.watchdog_ps && (c.paused | c.resumed)) {
        for (int t = 0; t < 8; ++t) {
            if ((c.paused >> t) & 1u) s.watchdog_due[size_t(t)] = sim_now_ps() + m_s.watchdog_ps;
        }
        arm_watchdog();
    }
    changed();
    if (c.resumed) m_owner.pfc_kick();  // transmission restarts at once
}

void pfc_unit::on_expiry()
{
    activity::tick();
    m_owner.pfc_settle();
    const uint8_t r = m_st->rx.expire(sim_now_ps());
    if (r) m_scheduler.resume(r);
    arm_expiry();
    if (r) track_egress();
    if (m_s.watchdog_ps) arm_watchdog();
    changed();
    if (r) m_owner.pfc_kick();
}

void pfc_unit::arm_expiry()
{
    arm(m_st->expiry_wake, m_st->rx.next_expiry());
}

void pfc_unit::xoff(uint8_t mask)
{
    m_owner.pfc_settle();
    state& s = st();
    const uint8_t fresh = s.tx.xoff(mask, sim_now_ps(), s.refresh_ps);
    if (!fresh) return;
    send(fresh, true);
    arm_refresh();
    changed();
}

void pfc_unit::xon(uint8_t mask)
{
    m_owner.pfc_settle();
    if (!m_st) return;  // nothing was ever held
    const uint8_t r = m_st->tx.xon(mask);
    if (!r) return;
    send(r, false);
    arm_refresh();
    changed();
}

void pfc_unit::on_refresh_due()
{
    activity::tick();
    m_owner.pfc_settle();
    state& s = *m_st;
    uint8_t due = s.tx.due(sim_now_ps(), s.refresh_ps);
    uint8_t release = 0;
    if (m_still)
        for (int t = 0; t < 8; ++t)
            if (((due >> t) & 1u) && !m_still(t)) release |= uint8_t(1u << t);
    due &= uint8_t(~release);
    if (due) send(due, true);
    if (release) {
        s.tx.xon(release);
        send(release, false);
        changed();
    }
    arm_refresh();
}

void pfc_unit::arm_refresh()
{
    arm(m_st->refresh_wake, m_st->tx.next_refresh());
}

void pfc_unit::send(uint8_t mask, bool pause)
{
    m_active = true;
    for (int t = 0; t < 8; ++t) {
        if (!((mask >> t) & 1u)) continue;
        packet* f = m_pool.acquire();
        f->kind = packet_kind::pfc;
        f->wire_bytes = m_s.frame_bytes;
        f->ip.src = m_s.ip;
        f->pfc.class_enable = uint8_t(1u << t);
        f->pfc.quanta[t] = pause ? m_s.quanta[size_t(t)] : 0;
        m_queue.push_back(f);
        pause ? ++m_st->counters[size_t(t)].xoff_tx : ++m_st->counters[size_t(t)].xon_tx;
    }
    m_owner.pfc_kick();
}

void pfc_unit::on_watchdog_due()
{
    activity::tick();
    m_owner.pfc_settle();
    state& s = *m_st;
    const uint64_t now = sim_now_ps();
    for (int t = 0; t < 8; ++t) {
        uint64_t& due = s.watchdog_due[size_t(t)];
        if (!s.rx.paused(t) || due > now) continue;
        auto& c = s.counters[size_t(t)];
        ++c.watchdog_fired;
        c.watchdog_drops += m_owner.pfc_watchdog_drop(t);
        due = now + m_s.watchdog_ps;  // still paused: again one watchdog time later
    }
    track_egress();  // a dropped queue holds nothing back any more
    arm_watchdog();
    changed();
}

void pfc_unit::track_egress()
{
    const uint8_t waiting = m_owner.pfc_egress_waiting();
    m_st->blocked.update(uint8_t(waiting & m_st->rx.paused()), sim_now_ps());
}

void pfc_unit::arm_watchdog()
{
    uint64_t n = UINT64_MAX;
    for (int t = 0; t < 8; ++t)
        if (m_st->rx.paused(t) && m_st->watchdog_due[size_t(t)] < n)
            n = m_st->watchdog_due[size_t(t)];
    arm(m_st->watchdog_wake, n);
}

}  // namespace uetsim
