// The signals of one kind of component, declared beside the probe that writes them: name, width,
// unit and a one-line meaning, and the trigger a signal can fire. The probe adds its signals by
// name from its table, so what a trace holds and what `uetsim signals` lists (docs/waveforms.md's
// tables) cannot drift apart. A name may hold a placeholder ({p}, {N}): the probe gives the
// concrete name.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "testbench/trace/waveform_signals.h"

namespace uetsim {

struct signal_def
{
    std::string_view name;  // below the table's scope: cwnd_bytes, a_to_b.busy, pool{p}_bytes
    unsigned bits = 1;
    bool analog = false;    // drawn as an analog step
    std::string_view unit;  // bytes, ns, flag, count, ...
    std::string_view meaning;
    trace_trigger_kind fires = trace_trigger_kind::none;  // Trace.Trigger On: it can fire
};

struct signal_table
{
    std::string_view title;  // "Per UET NIC"
    std::string_view scope;  // "host0.*": how the component's names start
    std::string_view intro;  // a paragraph before the table (may be empty)
    std::vector<signal_def> signals;

    const signal_def& at(std::string_view name) const
    {
        for (const signal_def& d : signals)
            if (d.name == name) return d;
        throw std::logic_error("signal " + std::string(name) + " is not in the table '" +
                               std::string(title) + "'");
    }

    // Adds signal `name` of component `component` as `prefix` + (`concrete`, or the name).
    uint32_t add(waveform_signals& w, const std::string& component, const std::string& prefix,
                 std::string_view name, trace_fire_rule rule = {},
                 std::string_view concrete = {}) const
    {
        const signal_def& d = at(name);
        return w.add(component, prefix + std::string(concrete.empty() ? d.name : concrete), d.bits,
                     d.analog, d.fires,
                     d.fires == trace_trigger_kind::none ? trace_fire_rule{} : rule);
    }
};

}  // namespace uetsim
