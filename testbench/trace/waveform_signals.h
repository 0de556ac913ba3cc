// What a probe sees of the waveform writer (testbench/trace/waveforms.h): it declares the signals
// of its component and sets their values as its state changes. A component kind's probe lives
// beside that kind (a NIC type's in testbench/nics/), not in the writer.
#pragma once

#include <cstdint>
#include <string>

#include "testbench/scenario.h"
#include "testbench/trace/trace_recorder.h"

namespace uetsim {

class waveform_signals
{
public:
    // A signal that is neither written nor fires the trigger (set() ignores it).
    static constexpr uint32_t no_signal = UINT32_MAX;

    // Signal `sub` (g0.cwnd_bytes) of component `component`, `bits` wide (analog: gtkwave draws
    // it as a line); it fires the trigger of kind `fires` by `rule`. no_signal when Trace.* neither
    // shows it nor triggers on it.
    virtual uint32_t add(const std::string& component, const std::string& sub, unsigned bits,
                         bool analog, trace_trigger_kind fires = trace_trigger_kind::none,
                         trace_fire_rule rule = {}) = 0;
    // Signal `id` holds `value` from now on.
    virtual void set(uint32_t id, uint64_t value) = 0;

protected:
    ~waveform_signals() = default;
};

// A component's name as a scope of signal names: dots separate scopes, so a parallel link's
// ".N" becomes "_N".
inline std::string signal_scope_name(std::string s)
{
    for (char& ch : s)
        if (ch == '.') ch = '_';
    return s;
}

// A trigger that fires when a counter or flag rises.
inline constexpr trace_fire_rule fires_on_rise{trace_fire_rule::kind::rises, 0};

}  // namespace uetsim
