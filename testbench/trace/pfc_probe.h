// The waveform probe of PFC on one port, a switch's or a NIC's, and the signals it writes
// (docs/waveforms.md, "PFC, per switch port and per NIC").
#pragma once

#include <array>
#include <string>

#include "hw/common/state_probe.h"
#include "hw/pfc/pfc_unit.h"
#include "testbench/trace/signal_table.h"

namespace uetsim {

inline const signal_table& pfc_signals()
{
    static const signal_table t{"PFC, per switch port and per NIC",
                                "leaf0.port{i}_{peer}.*, host0.*",
                                "A NIC's signals have no port prefix.",
                                {
                                    {"tc{N}_paused", 1, false, "flag",
                                     "the peer holds the port's transmission of class N in pause",
                                     trace_trigger_kind::pause},
                                    {"pfc_pausing_peer", 8, false, "mask",
                                     "the classes this port holds its peer in pause "
                                     "for"},
                                }};
    return t;
}

// PFC on one port (switch or NIC): per traffic class whether the peer has paused the port's
// transmission of it (the `pause` trigger fires when one rises), and the classes the port holds
// its peer in pause for (a bit mask).
class pfc_probe : public state_probe
{
public:
    pfc_probe(waveform_signals& w, const std::string& c, const std::string& port, const pfc_unit& u)
        : m_w(w), m_u(u)
    {
        const signal_table& s = pfc_signals();
        const std::string pre = port.empty() ? "" : port + ".";
        for (int t = 0; t < 8; ++t)
            m_paused[size_t(t)] = s.add(w, c, pre, "tc{N}_paused", fires_on_rise,
                                        "tc" + std::to_string(t) + "_paused");
        m_held = s.add(w, c, pre, "pfc_pausing_peer");
    }
    void changed() override
    {
        const uint8_t p = m_u.pauses().paused();
        for (int t = 0; t < 8; ++t) m_w.set(m_paused[size_t(t)], (p >> t) & 1u);
        m_w.set(m_held, m_u.held());
    }

private:
    waveform_signals& m_w;
    const pfc_unit& m_u;
    std::array<uint32_t, 8> m_paused{};
    uint32_t m_held;
};

}  // namespace uetsim
