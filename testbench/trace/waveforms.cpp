#include "testbench/trace/waveforms.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <systemc>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/pcie/pcie_link.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/trace/gtkw_layout.h"
#include "testbench/trace/chakra_probe.h"
#include "testbench/trace/link_probe.h"
#include "testbench/trace/pcie_probe.h"
#include "testbench/trace/pfc_probe.h"
#include "testbench/trace/rtl_pins_probe.h"
#include "testbench/trace/switch_port_probe.h"
#include "testbench/trace/trace_file.h"
#include "testbench/trace/trace_recorder.h"
#include "testbench/trace/waveform_signals.h"
#include "testbench/traffic/chakra/chakra_replay.h"

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

// Dots separate scopes in a signal name; a parallel link's ".N" becomes "_N".
std::string scope_name(std::string s)
{
    std::replace(s.begin(), s.end(), '.', '_');
    return s;
}

}  // namespace

struct waveforms::impl : waveform_signals
{
    const scenario& sc;
    fabric& fab;
    std::string dir;
    std::string trace_path, gtkw_path;
    std::unique_ptr<trace_writer> writer;
    std::unique_ptr<trace_recorder> rec;
    std::vector<gtkw_signal> layout;
    std::vector<std::unique_ptr<state_probe>> probes;
    std::vector<std::unique_ptr<sc_core::sc_module>> modules;
    std::map<uint32_t, std::unique_ptr<chakra_probe>> chakra_ranks;  // by rank
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
        const std::string name = scope_name(c) + "." + sub;
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
    // A device's RTL blocks (Rtl.* rtl or both): their pins as {device}.{scope}.{pin}.
    auto add_rtl_probes = [&](const std::string& c) {
        for (const auto& b : fab.rtl_block_list()) {
            rtl_pin_set* pins = b.device == c ? b.instance->pins() : nullptr;
            if (!pins) continue;
            auto p = std::make_unique<rtl_pins_probe>(*m, c, b.def->trace_scope, *pins);
            pins->trace(p.get());
            m->probes.push_back(std::move(p));
        }
    };
    const auto make_nic_probe = fab.nic_count() ? nic_type_of(sc.nic).make_probe : nullptr;
    for (size_t h = 0; make_nic_probe && h < fab.nic_count(); ++h) {
        const std::string& c = topo.devices[h].name;
        host_nic& nic = fab.nic_at(h);
        if (!m->wanted(c)) continue;
        auto p = make_nic_probe(*m, c, nic, sc);
        nic.set_probe(p.get());
        m->probes.push_back(std::move(p));
        auto pf = std::make_unique<pfc_probe>(*m, c, "", nic.port.pfc());
        nic.port.pfc().set_probe(pf.get());
        m->probes.push_back(std::move(pf));
        auto pp = std::make_unique<pcie_probe>(("trace_pcie_" + c).c_str(), *m, c, fab.pcie_at(h));
        fab.pcie_at(h).set_probe(pp.get());
        m->modules.push_back(std::move(pp));
        add_rtl_probes(c);
    }
    if (chakra) {
        for (uint32_t r = 0; r < chakra->ranks(); ++r) {
            const std::string& c = topo.devices[chakra->placement().host[r]].name;
            if (m->wanted(c))
                m->chakra_ranks[r] = std::make_unique<chakra_probe>(*m, c, *chakra, r);
        }
        if (!m->chakra_ranks.empty())
            chakra->on_rank_state([this](uint32_t r) {
                auto it = m->chakra_ranks.find(r);
                if (it != m->chakra_ranks.end()) it->second->changed();
            });
    }
    const uint64_t threshold = win.triggered ? sc.trace.trigger[0].threshold_bytes : 0;
    for (size_t i = 0; i < fab.switch_count(); ++i) {
        const uint32_t d = uint32_t(topo.hosts + i);
        const std::string& c = topo.devices[d].name;
        if (!m->wanted(c)) continue;
        fabric_switch& sw = fab.switch_at(i);
        std::vector<int> pools;
        for (uint8_t tc = 0; tc < num_traffic_classes; ++tc) {
            const int p = sw.buffers().layout().pool_of(tc);
            if (std::find(pools.begin(), pools.end(), p) == pools.end()) pools.push_back(p);
        }
        std::sort(pools.begin(), pools.end());
        for (size_t port = 0; port < sw.port_count(); ++port) {
            const std::string pn = "port" + std::to_string(port) + "_" +
                                   scope_name(topo.devices[topo.peer(d, port)].name);
            auto p =
                std::make_unique<queue_probe>(*m, c, pn, sw.port(port).queue(), pools, threshold);
            sw.port(port).queue().set_probe(p.get());
            m->probes.push_back(std::move(p));
            auto pf = std::make_unique<pfc_probe>(*m, c, pn, sw.port(port).pfc());
            sw.port(port).pfc().set_probe(pf.get());
            m->probes.push_back(std::move(pf));
        }
        // The switch's RTL blocks, grouped with it in the layout (declared right after its ports).
        add_rtl_probes(c);
    }
    for (size_t i = 0; i < fab.link_count(); ++i) {
        const std::string& c = topo.links[i].name;
        if (!m->component_traced(c)) continue;
        auto lp =
            std::make_unique<link_probe>(("trace_" + scope_name(c)).c_str(), *m, c, fab.link_at(i));
        fab.link_at(i).set_probe(lp.get());
        m->modules.push_back(std::move(lp));
    }
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
    for (size_t h = 0; h < m->fab.nic_count(); ++h) {
        host_nic& nic = m->fab.nic_at(h);
        nic.set_probe(nullptr);
        nic.port.pfc().set_probe(nullptr);
        m->fab.pcie_at(h).set_probe(nullptr);
    }
    for (size_t i = 0; i < m->fab.switch_count(); ++i)
        for (size_t p = 0; p < m->fab.switch_at(i).port_count(); ++p) {
            m->fab.switch_at(i).port(p).queue().set_probe(nullptr);
            m->fab.switch_at(i).port(p).pfc().set_probe(nullptr);
        }
    for (const auto& b : m->fab.rtl_block_list())
        if (rtl_pin_set* pins = b.instance->pins()) pins->trace(nullptr);
    for (size_t i = 0; i < m->fab.link_count(); ++i) m->fab.link_at(i).set_probe(nullptr);
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
