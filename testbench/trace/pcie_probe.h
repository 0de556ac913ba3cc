// The waveform probe of a host's PCIe link, and the signals it writes (docs/waveforms.md,
// "Per NIC host's PCIe link").
#pragma once

#include <string>
#include <systemc>

#include "hw/common/state_probe.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup.h"
#include "hw/pcie/pcie_link.h"
#include "testbench/trace/signal_table.h"

namespace uetsim {

inline const signal_table& pcie_signals()
{
    static const signal_table t{
        "Per NIC host's PCIe link",
        "host0.*",
        "",
        {
            {"pcie_nic_to_host_busy", 1, false, "flag",
             "the host's PCIe lanes from the NIC to the host have work queued or crossing (from "
             "when a transfer is issued until its last byte has crossed)"},
            {"pcie_host_to_nic_busy", 1, false, "flag", "the same from the host to the NIC"},
            {"pcie_nic_to_host_credit_wait", 1, false, "flag",
             "the NIC-to-host lanes stand still because the host has no credits free for the "
             "next TLP (posted or non-posted); only with `Pcie.Latency` or "
             "`Pcie.CreditReturnLatency` above 0"},
            {"pcie_host_to_nic_credit_wait", 1, false, "flag",
             "the same from the host to the NIC (the NIC's posted or completion credits)"},
        }};
    return t;
}

// A host's PCIe link, per direction: busy from when a transfer is queued until the lanes have
// sent their last queued byte (pcie_link::queued_ps), and waiting for credits during each of the
// link's credit waits, with an event of this probe's own for the next change.
class pcie_probe : public sc_core::sc_module, public state_probe
{
public:
    pcie_probe(const sc_core::sc_module_name& n, waveform_signals& w, const std::string& c,
               pcie_link& l)
        : sc_core::sc_module(n), m_w(w), m_link(l)
    {
        m_busy[0] = pcie_signals().add(w, c, "", "pcie_nic_to_host_busy");
        m_busy[1] = pcie_signals().add(w, c, "", "pcie_host_to_nic_busy");
        m_wait[0] = pcie_signals().add(w, c, "", "pcie_nic_to_host_credit_wait");
        m_wait[1] = pcie_signals().add(w, c, "", "pcie_host_to_nic_credit_wait");
    }

    void changed() override { check(); }

private:
    void check()
    {
        const uint64_t now = sim_now_ps();
        uint64_t next = 0;
        auto soon = [&](uint64_t in) {
            if (in > 0 && (next == 0 || in < next)) next = in;
        };
        for (int s = 0; s < 2; ++s) {
            const uint64_t q = m_link.queued_ps(pcie_link::side(s));
            m_w.set(m_busy[s], q > 0 ? 1 : 0);
            soon(q);
            auto& waits = m_link.credit_waits(pcie_link::side(s));
            while (!waits.empty() && waits.front().to_ps <= now) waits.pop_front();
            const bool waiting = !waits.empty() && waits.front().from_ps <= now;
            m_w.set(m_wait[s], waiting ? 1 : 0);
            if (!waits.empty())
                soon(waiting ? waits.front().to_ps - now : waits.front().from_ps - now);
        }
        if (next) m_end.notify(sc_core::sc_time::from_value(next));
    }

    waveform_signals& m_w;
    pcie_link& m_link;
    uint32_t m_busy[2];
    uint32_t m_wait[2];
    wakeup m_end{[this] { check(); }, wakeup::phase::sample};
};

}  // namespace uetsim
