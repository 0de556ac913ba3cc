#include "testbench/trace/waveforms.h"

#include <fnmatch.h>

#include <cmath>
#include <filesystem>
#include <systemc>

#include "hw/kernel/sim_clock.h"
#include "testbench/trace/gtkw_layout.h"
#include "testbench/trace/probe_registry.h"
#include "testbench/trace/trace_file.h"
#include "testbench/trace/trace_recorder.h"
#include "testbench/trace/waveform_signals.h"

namespace uetsim {

namespace {

constexpr uint32_t no_signal = waveform_signals::no_signal;

bool matches_any(const std::vector<std::string>& globs, const std::string& name)
{
    for (const auto& g : globs)
        if (fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
    return false;
}

uint64_t now_ps()
{
    return sim_now_ps();
}

uint64_t ps_of(double seconds)
{
    return seconds >= 1e7 ? UINT64_MAX : uint64_t(std::llround(seconds * 1e12));
}

}  // namespace

struct waveforms::impl final : waveform_signals
{
    const scenario& sc;
    fabric& fab;
    std::string dir;
    std::string trace_path, gtkw_path;
    std::unique_ptr<trace_writer> writer;
    std::unique_ptr<trace_recorder> rec;
    std::vector<gtkw_signal> layout;
    std::unique_ptr<probe_site> site;  // the probes and how to detach them
    bool finished = false;

    impl(const scenario& s, fabric& f, const std::string& d) : sc(s), fab(f), dir(d) {}

    bool triggered() const { return !sc.trace.trigger.empty(); }
    const trace_trigger_config& trig() const { return sc.trace.trigger[0]; }
    bool component_traced(const std::string& c) const
    {
        return matches_any(sc.trace.components, c);
    }
    bool trigger_source(const std::string& c, trace_trigger_kind k) const
    {
        return triggered() && trig().on == k &&
               fnmatch(trig().component.c_str(), c.c_str(), 0) == 0;
    }
    bool wanted(const std::string& c) const
    {
        if (component_traced(c)) return true;
        if (!triggered()) return false;
        return fnmatch(trig().component.c_str(), c.c_str(), 0) == 0;
    }

    // A signal of component `c` named `sub` (g0.cwnd_bytes); no_signal when neither written
    // nor firing the trigger.
    uint32_t add(const std::string& c, const std::string& sub, unsigned bits, bool analog,
                 trace_trigger_kind fires = trace_trigger_kind::none,
                 trace_fire_rule rule = {}) override
    {
        const std::string leaf = sub.substr(sub.rfind('.') + 1);
        const bool shown = component_traced(c) && (matches_any(sc.trace.signals, sub) ||
                                                   matches_any(sc.trace.signals, leaf));
        const bool source = fires != trace_trigger_kind::none && trigger_source(c, fires);
        if (!shown && !source) return no_signal;
        const std::string name = signal_scope_name(c) + "." + sub;
        if (shown) layout.push_back({name, bits, analog});
        return rec->add(name, bits, !shown, source ? rule : trace_fire_rule{});
    }
    void set(uint32_t id, uint64_t v) override
    {
        if (id != no_signal) rec->set(id, now_ps(), v);
    }
};

std::string trace_file_name(const scenario& sc)
{
    return sc.trace.file.empty() ? sc.simulation.name + ".fst" : sc.trace.file;
}

waveforms::waveforms(const scenario& sc, fabric& fab, const std::string& out_dir,
                     chakra::chakra_replay* chakra)
    : m(std::make_unique<impl>(sc, fab, out_dir))
{
    const std::string file = trace_file_name(sc);
    m->trace_path = out_dir + "/" + file;
    m->gtkw_path = out_dir + "/" + sc.simulation.name + ".gtkw";
    m->writer = make_trace_writer(m->trace_path);
    trace_window win;
    win.start_ps = ps_of(sc.trace.start_s);
    win.stop_ps = ps_of(sc.trace.stop_s);
    win.triggered = !sc.trace.trigger.empty();
    win.pre_ps = ps_of(sc.trace.pre_trigger_s);
    win.post_ps = ps_of(sc.trace.post_trigger_s);
    m->rec = std::make_unique<trace_recorder>(*m->writer, win);

    const topology& topo = fab.topo();
    const uint64_t threshold = win.triggered ? sc.trace.trigger[0].threshold_bytes : 0;
    m->site = std::make_unique<probe_site>(*m, sc, fab, chakra, threshold);
    m->site->wanted = [this](const std::string& c) { return m->wanted(c); };
    // Device order, then row order: the order of the signals in the trace and the layout.
    auto walk = [&](probe_scope scope, size_t index, const std::string& c) {
        for (const probe_kind& k : probe_kinds())
            if (k.scope == scope) k.attach(*m->site, index, c);
    };
    for (size_t h = 0; h < fab.nic_count(); ++h)
        if (m->wanted(topo.devices[h].name)) walk(probe_scope::host, h, topo.devices[h].name);
    walk(probe_scope::run, 0, "");
    for (size_t i = 0; i < fab.switch_count(); ++i) {
        const std::string& c = topo.devices[topo.hosts + i].name;
        if (m->wanted(c)) walk(probe_scope::switch_device, i, c);
    }
    for (size_t i = 0; i < fab.link_count(); ++i)
        if (m->component_traced(topo.links[i].name)) walk(probe_scope::link, i, topo.links[i].name);
    m->rec->begin();
}

waveforms::~waveforms()
{
    finish();
}

void waveforms::finish()
{
    if (m->finished) return;
    m->finished = true;
    // Detach first: the components outlive this object only briefly, but must not call it.
    m->site->finish();
    m->rec->finish(now_ps());
    gtkw_layout l;
    // Relative to the layout's folder, so the output folder can move.
    const std::filesystem::path gtkw = std::filesystem::absolute(m->gtkw_path).lexically_normal();
    l.dump_file = std::filesystem::absolute(m->trace_path)
                      .lexically_normal()
                      .lexically_relative(gtkw.parent_path())
                      .string();
    l.save_file = gtkw.filename().string();
    l.start_ps = m->rec->opened() ? m->rec->window_start_ps() : 0;
    l.end_ps = m->rec->opened() ? m->rec->window_end_ps() : now_ps();
    l.signals = m->layout;
    l.write(m->gtkw_path);
}

std::vector<std::string> waveforms::files() const
{
    return {m->trace_path, m->gtkw_path};
}

}  // namespace uetsim
