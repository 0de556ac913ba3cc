// The waveform probes a run can attach, one row per probe kind. A row says which devices it
// probes (hosts, switches, links, or the run as a whole) and attaches its probe to one of them;
// the trace writer (waveforms.cpp) only walks the rows over the devices Trace.* selects, in
// device order and then row order, which is the order the signals enter the trace and the
// layout. Each probe kind's signals are declared in a table beside its state
// (testbench/trace/<kind>_probe.h, a NIC type's in testbench/nics/).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/common/state_probe.h"
#include "testbench/trace/waveform_signals.h"

namespace uetsim {

class fabric;
struct scenario;
namespace chakra {
class chakra_replay;
}

// What a row's attach is given: the signals, the run's fabric and scenario, and where it keeps
// what it builds until the trace is finished.
class probe_site
{
public:
    probe_site(waveform_signals& w, const scenario& sc, fabric& fab, chakra::chakra_replay* chakra,
               uint64_t trigger_threshold_bytes)
        : signals(w)
        , sc(sc)
        , fab(fab)
        , chakra(chakra)
        , trigger_threshold_bytes(trigger_threshold_bytes)
    {
    }

    waveform_signals& signals;
    const scenario& sc;
    fabric& fab;
    chakra::chakra_replay* chakra;  // null without the Chakra workload
    uint64_t trigger_threshold_bytes;
    // Whether Trace.* selects component `c` (shown, or the trigger's source); links are selected
    // only when shown.
    std::function<bool(const std::string&)> wanted;

    // Keeps a probe (or a probe that is a module, with wake-ups of its own) until the end.
    template <class P>
    P& keep(std::unique_ptr<P> p)
    {
        P& r = *p;
        m_kept.push_back(std::shared_ptr<void>(std::move(p)));
        return r;
    }
    // Runs at the end of the trace, before it closes: the probe's component forgets it.
    void on_finish(std::function<void()> detach) { m_detach.push_back(std::move(detach)); }

    // The writer: detach every probe, then drop them.
    void finish()
    {
        for (auto& d : m_detach) d();
        m_detach.clear();
    }

private:
    std::vector<std::shared_ptr<void>> m_kept;
    std::vector<std::function<void()>> m_detach;
};

// The devices a row probes.
enum class probe_scope {
    host,           // each host with a NIC: index = the host
    run,            // once, after the hosts: index 0
    switch_device,  // each switch: index = the switch (fabric::switch_at)
    link,           // each link: index = the link (fabric::link_at)
};

struct probe_kind
{
    std::string name;  // "pcie"
    probe_scope scope;
    // Attaches the probe to device `index`, named `component` (empty for the run).
    void (*attach)(probe_site& site, size_t index, const std::string& component);
};

// The rows, in the order their signals enter the trace within a device: the built-in ones
// (probe_registry.cpp), then those added.
const std::vector<probe_kind>& probe_kinds();
// A probe kind from outside the tree, after the built-in rows of its scope.
void add_probe_kind(const probe_kind& k);

}  // namespace uetsim
