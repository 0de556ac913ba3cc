#include "hw/cbfc/cbfc_unit.h"

#include <algorithm>

namespace uetsim {

cbfc_unit::cbfc_unit(const cbfc_settings& s, packet_pool& pool, port_scheduler& scheduler,
                     std::function<void(packet*)> send, std::function<void()> kick)
    : m_s(s)
    , m_pool(pool)
    , m_scheduler(scheduler)
    , m_send(std::move(send))
    , m_kick(std::move(kick))
    , m_classes(s.classes())
    , m_tx(s.vc_credits)  // both ends of a link advertise the link's credit
    , m_rx(s.update_interval_ps)
{
    for (int v = 0; v < cbfc_max_vcs; ++v) m_vc_classes[size_t(v)] = s.classes_of(v);
}

void cbfc_unit::receive(const packet& p)
{
    const uint64_t now = sim_now_ps();
    if (__builtin_expect(p.cbfc.sync, 0)) {
        // The frames it counts that never arrived are freed now; and an update goes either way,
        // since the sender waits for one (the last may have been lost on the link).
        uint64_t due = 0;
        for (int v = 0; v < cbfc_max_vcs; ++v) {
            if (!((p.cbfc.vc_mask >> v) & 1u)) continue;
            const uint32_t lost = m_rx.lost_before_sync(v, p.cbfc.freed[v]);
            m_credits_recovered += lost;
            if (const uint64_t d = m_rx.freed(v, lost, now)) due = d;
        }
        if (!due) due = m_rx.report(now);
        if (due) m_update_wake.notify_at_ps(due);
        return;
    }
    ++m_updates_received;
    m_last_update_ps = now;
    bool resumed = false;
    for (int v = 0; v < cbfc_max_vcs; ++v) {
        if (!((p.cbfc.vc_mask >> v) & 1u)) continue;
        if (m_tx.update(v, p.cbfc.freed[v], now)) {
            m_scheduler.unstall(m_vc_classes[size_t(v)]);
            resumed = true;
        }
    }
    changed();
    if (resumed) m_kick();
}

void cbfc_unit::freed(int vc, uint32_t credits)
{
    const uint64_t now = sim_now_ps();
    const uint64_t due = m_rx.freed(vc, credits, now);
    if (due) m_update_wake.notify_at_ps(due);
}

void cbfc_unit::freed_at(int vc, uint32_t credits, uint64_t at_ps)
{
    // Never before a release queued earlier: credit may come back late, never early.
    if (at_ps < m_later_last_ps) at_ps = m_later_last_ps;
    if (at_ps <= sim_now_ps() && m_later.empty()) return freed(vc, credits);
    m_later_last_ps = at_ps;
    m_later.push_back({at_ps, uint8_t(vc), credits});
    if (m_later.size() == 1) m_release_wake.notify_at_ps(at_ps);
}

void cbfc_unit::on_release_due()
{
    const uint64_t now = sim_now_ps();
    while (!m_later.empty() && m_later.front().at_ps <= now) {
        const later_release r = m_later.front();
        m_later.pop_front();
        freed(r.vc, r.credits);
    }
    if (!m_later.empty()) m_release_wake.notify_at_ps(m_later.front().at_ps);
}

bool cbfc_unit::any_stalled() const
{
    for (int v = 0; v < m_s.vcs(); ++v)
        if (m_tx.stalled(v)) return true;
    return false;
}

void cbfc_unit::arm_sync()
{
    m_sync_wake.notify_at_ps(std::max(sim_now_ps(), m_last_update_ps) + m_s.sync_interval_ps);
}

void cbfc_unit::on_sync_due()
{
    if (!any_stalled()) return;
    const uint64_t now = sim_now_ps();
    // An update came since this was armed: the receiver is still returning credit.
    if (now < m_last_update_ps + m_s.sync_interval_ps) {
        m_sync_wake.notify_at_ps(m_last_update_ps + m_s.sync_interval_ps);
        return;
    }
    packet* f = update_frame();
    f->cbfc.sync = true;
    // Taken as it is queued: the frame goes ahead of every class, so nothing spends credit
    // between now and its start, and every frame counted here is on the wire before it.
    for (int v = 0; v < m_s.vcs(); ++v) f->cbfc.freed[v] = uint16_t(m_tx.spent(v));
    ++m_syncs_sent;
    m_send(f);
    m_sync_wake.notify_at_ps(now + m_s.sync_interval_ps);
}

packet* cbfc_unit::update_frame()
{
    packet* f = m_pool.acquire();
    f->kind = packet_kind::cbfc_update;
    f->wire_bytes = m_s.update_frame_bytes;
    f->cbfc.vc_mask = uint8_t((1u << m_s.vcs()) - 1u);
    return f;
}

void cbfc_unit::send_update()
{
    packet* f = update_frame();
    const std::array<uint16_t, cbfc_max_vcs> counts = m_rx.take_update(sim_now_ps());
    for (int v = 0; v < m_s.vcs(); ++v) f->cbfc.freed[v] = counts[size_t(v)];
    m_send(f);
}

}  // namespace uetsim
