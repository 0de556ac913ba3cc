// The waveform probe of CBFC on one port, a switch's or a NIC's, on a link with Link.Cbfc, and
// the signals it writes (docs/waveforms.md, "CBFC, per switch port and per NIC").
#pragma once

#include <array>
#include <string>

#include "hw/cbfc/cbfc_unit.h"
#include "hw/common/state_probe.h"
#include "testbench/trace/signal_table.h"

namespace uetsim {

inline const signal_table& cbfc_signals()
{
    static const signal_table t{
        "CBFC, per switch port and per NIC",
        "leaf0.port{i}_{peer}.*, host0.*",
        "Only on a link with `Link.Cbfc`, one pair per virtual channel of its `CbfcVcMap`; a "
        "NIC's signals have no port prefix.",
        {
            {"vc{N}_cbfc_credits", 32, true, "credits",
             "credits the port may still spend on VC N (the peer's advertised credit less those "
             "outstanding)"},
            {"vc{N}_cbfc_stalled", 1, false, "flag",
             "VC N's next frame waits for credit (its classes are held, other VCs pass)"},
        }};
    return t;
}

// CBFC on one port: per VC the credits the sending side may still spend and whether it is
// stalled.
class cbfc_probe : public state_probe
{
public:
    cbfc_probe(waveform_signals& w, const std::string& c, const std::string& port,
               const cbfc_unit& u)
        : m_w(w), m_u(u), m_vcs(u.settings().vcs())
    {
        const signal_table& s = cbfc_signals();
        const std::string pre = port.empty() ? "" : port + ".";
        for (int v = 0; v < m_vcs; ++v) {
            const std::string vc = "vc" + std::to_string(v);
            m_credits[size_t(v)] = s.add(w, c, pre, "vc{N}_cbfc_credits", {}, vc + "_cbfc_credits");
            m_stalled[size_t(v)] = s.add(w, c, pre, "vc{N}_cbfc_stalled", {}, vc + "_cbfc_stalled");
        }
        changed();
    }
    void changed() override
    {
        for (int v = 0; v < m_vcs; ++v) {
            m_w.set(m_credits[size_t(v)], m_u.credits().available(v));
            m_w.set(m_stalled[size_t(v)], m_u.credits().stalled(v) ? 1 : 0);
        }
    }

private:
    waveform_signals& m_w;
    const cbfc_unit& m_u;
    int m_vcs;
    std::array<uint32_t, cbfc_max_vcs> m_credits{};
    std::array<uint32_t, cbfc_max_vcs> m_stalled{};
};

}  // namespace uetsim
