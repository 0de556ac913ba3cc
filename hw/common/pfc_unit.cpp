#include "hw/common/pfc_unit.h"

#include "hw/common/activity.h"
#include "hw/common/sim_clock.h"
#include "hw/common/time.h"

namespace uetsim {

namespace {

uint64_t now_ps()
{
    return sim_now_ps();
}

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
                   kick_fn kick)
    : m_s(s), m_pool(pool), m_scheduler(scheduler), m_kick(std::move(kick))
{
    set_link(s.link);
}

void pfc_unit::set_link(const pfc_link& l)
{
    m_s.link = l;
    for (int t = 0; t < 8; ++t) m_refresh_ps[size_t(t)] = pfc_refresh_ps(m_s.quanta[size_t(t)], l);
}

void pfc_unit::receive(const packet& p)
{
    m_active = true;
    const pfc_pause_timer::change c =
        m_rx.on_frame(p.pfc.class_enable, p.pfc.quanta, now_ps(), m_s.link);
    if (c.paused) m_scheduler.pause(c.paused);
    if (c.resumed) m_scheduler.resume(c.resumed);
    arm_expiry();
    if (c.paused | c.resumed) track_egress();
    if (m_s.watchdog_ps && (c.paused | c.resumed)) {
        for (int t = 0; t < 8; ++t) {
            if ((c.paused >> t) & 1u) m_watchdog_due[size_t(t)] = now_ps() + m_s.watchdog_ps;
        }
        arm_watchdog();
    }
    changed();
    if (c.resumed) m_kick();  // transmission restarts at once
}

void pfc_unit::on_expiry()
{
    activity::tick();
    if (m_before_acting) m_before_acting();
    const uint8_t r = m_rx.expire(now_ps());
    if (r) m_scheduler.resume(r);
    arm_expiry();
    if (r) track_egress();
    if (m_s.watchdog_ps) arm_watchdog();
    changed();
    if (r) m_kick();
}

void pfc_unit::arm_expiry()
{
    arm(m_expiry_wake, m_rx.next_expiry());
}

void pfc_unit::xoff(uint8_t mask)
{
    if (m_before_acting) m_before_acting();
    const uint8_t fresh = m_tx.xoff(mask, now_ps(), m_refresh_ps);
    if (!fresh) return;
    send(fresh, true);
    arm_refresh();
    changed();
}

void pfc_unit::xon(uint8_t mask)
{
    if (m_before_acting) m_before_acting();
    const uint8_t r = m_tx.xon(mask);
    if (!r) return;
    send(r, false);
    arm_refresh();
    changed();
}

void pfc_unit::on_refresh_due()
{
    activity::tick();
    if (m_before_acting) m_before_acting();
    uint8_t due = m_tx.due(now_ps(), m_refresh_ps);
    uint8_t release = 0;
    if (m_still)
        for (int t = 0; t < 8; ++t)
            if (((due >> t) & 1u) && !m_still(t)) release |= uint8_t(1u << t);
    due &= uint8_t(~release);
    if (due) send(due, true);
    if (release) {
        m_tx.xon(release);
        send(release, false);
        changed();
    }
    arm_refresh();
}

void pfc_unit::arm_refresh()
{
    arm(m_refresh_wake, m_tx.next_refresh());
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
        pause ? ++m_counters[size_t(t)].xoff_tx : ++m_counters[size_t(t)].xon_tx;
    }
    m_kick();
}

void pfc_unit::on_watchdog_due()
{
    activity::tick();
    if (m_before_acting) m_before_acting();
    const uint64_t now = now_ps();
    for (int t = 0; t < 8; ++t) {
        uint64_t& due = m_watchdog_due[size_t(t)];
        if (!m_rx.paused(t) || due > now) continue;
        auto& c = m_counters[size_t(t)];
        ++c.watchdog_fired;
        if (m_drop) c.watchdog_drops += m_drop(t);
        due = now + m_s.watchdog_ps;  // still paused: again one watchdog time later
    }
    track_egress();  // a dropped queue holds nothing back any more
    arm_watchdog();
    changed();
}

void pfc_unit::track_egress()
{
    const uint8_t waiting = m_waiting ? m_waiting() : 0;
    m_blocked.update(uint8_t(waiting & m_rx.paused()), now_ps());
}

void pfc_unit::arm_watchdog()
{
    uint64_t n = UINT64_MAX;
    for (int t = 0; t < 8; ++t)
        if (m_rx.paused(t) && m_watchdog_due[size_t(t)] < n) n = m_watchdog_due[size_t(t)];
    arm(m_watchdog_wake, n);
}

}  // namespace uetsim
