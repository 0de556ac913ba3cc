#include "hw/cbfc/cbfc_unit.h"

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
    ++m_updates_received;
    const uint64_t now = sim_now_ps();
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

void cbfc_unit::send_update()
{
    packet* f = m_pool.acquire();
    f->kind = packet_kind::cbfc_update;
    f->wire_bytes = m_s.update_frame_bytes;
    const std::array<uint16_t, cbfc_max_vcs> counts = m_rx.take_update(sim_now_ps());
    const int vcs = m_s.vcs();
    f->cbfc.vc_mask = uint8_t((1u << vcs) - 1u);
    for (int v = 0; v < vcs; ++v) f->cbfc.freed[v] = counts[size_t(v)];
    m_send(f);
}

}  // namespace uetsim
