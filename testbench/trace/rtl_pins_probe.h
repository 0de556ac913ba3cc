// The waveform probe of an RTL block's pins in a device ({device}.{scope}.{pin}): its signals are
// the block's pins, so they have no table of their own (docs/waveforms.md, "Per RTL block").
#pragma once

#include <string>
#include <vector>

#include "hw/common/state_probe.h"
#include "rtl/common/rtl_pins.h"
#include "testbench/trace/waveform_signals.h"

namespace uetsim {

// An RTL block in a device: its pins (rtl_pin_set) as the wrapper drove them for the last
// request and the block's answer, as {device}.{scope}.{pin} (leaf0.rtl.hash), written after each
// request settles.
class rtl_pins_probe : public state_probe
{
public:
    rtl_pins_probe(waveform_signals& w, const std::string& c, const std::string& scope,
                   const rtl_pin_set& pins)
        : m_w(w), m_pins(pins)
    {
        for (const rtl_pin& p : pins.pins())
            m_ids.push_back(w.add(c, scope + "." + p.name, p.width, false));
    }

    void changed() override
    {
        const std::vector<rtl_pin>& pins = m_pins.pins();
        for (size_t i = 0; i < pins.size(); ++i) m_w.set(m_ids[i], pins[i].value());
    }

private:
    waveform_signals& m_w;
    const rtl_pin_set& m_pins;
    std::vector<uint32_t> m_ids;
};

}  // namespace uetsim
