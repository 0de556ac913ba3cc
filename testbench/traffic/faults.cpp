#include "testbench/traffic/faults.h"

#include <algorithm>
#include <stdexcept>

#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

fault_injector::fault_injector(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab)
    : sc_core::sc_module(name), m_fab(fab)
{
    for (size_t l = 0; l < fab.link_count(); ++l)
        m_loss_rng.emplace_back(sc.simulation.random_seed, "loss." + fab.topo().links[l].name);
    for (const auto& f : sc.faults) {
        const int l = fab.topo().find_link(f.link);
        if (l < 0) throw std::invalid_argument("Faults: unknown link '" + f.link + "'");
        const bool pfc = f.action == fault_action::pause || f.action == fault_action::resume;
        if (pfc && fab.nic_count() == 0 &&
            fab.topo().devices[fab.topo().links[size_t(l)].a_device].kind == device_kind::host)
            throw std::invalid_argument(
                "Faults: Action " +
                std::string(f.action == fault_action::pause ? "pause" : "resume") +
                " on host link '" + f.link +
                "' needs NIC hosts; a raw host (Nic.Type raw) sends no "
                "PFC");
        m_events.push_back({f, size_t(l)});
    }
    std::stable_sort(m_events.begin(), m_events.end(), [](const resolved& a, const resolved& b) {
        return a.spec.at_s < b.spec.at_s;
    });
    m_due.notify_at_ps(0);
}

void fault_injector::apply_due()
{
    activity::tick();
    while (m_next < m_events.size()) {
        const resolved& e = m_events[m_next];
        const sc_core::sc_time at = seconds(e.spec.at_s);
        if (at > sim_now()) {
            m_due.notify_at_ps(at.value());
            return;
        }
        link& l = m_fab.link_at(e.link);
        switch (e.spec.action) {
            case fault_action::down:
                l.set_up(false);
                break;
            case fault_action::up:
                l.set_up(true);
                l.set_rate(l.nominal_rate_bps());
                l.set_loss(0, nullptr);
                break;
            case fault_action::degrade:
                l.set_rate(e.spec.rate_bps);
                break;
            case fault_action::loss:
                l.set_loss(e.spec.loss, &m_loss_rng[e.link]);
                break;
            case fault_action::pause:
            case fault_action::resume: {
                const link_spec& ls = m_fab.topo().links[e.link];
                const device& d = m_fab.topo().devices[ls.a_device];
                pfc_unit& pfc = d.kind == device_kind::host
                                    ? m_fab.nic_at(ls.a_device).port.pfc()
                                    : m_fab.switch_at(d.index).port(ls.a_port).pfc();
                const uint8_t mask = uint8_t(1u << e.spec.traffic_class);
                e.spec.action == fault_action::pause ? pfc.xoff(mask) : pfc.xon(mask);
                break;
            }
        }
        ++m_next;
    }
}

}  // namespace uetsim
