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
#include "testbench/trace/signal_catalog.h"
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

class chakra_probe;

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

namespace {

using impl_t = waveforms::impl;
constexpr trace_fire_rule rises = fires_on_rise;

// A switch port's egress queue: bytes held, per buffer pool its bytes and RED average, and its
// counters. (PFC's paused classes are pfc_probe's.)
class queue_probe : public state_probe
{
public:
    queue_probe(impl_t& w, const std::string& c, const std::string& port, const egress_queue& q,
                const std::vector<int>& pools, uint64_t threshold)
        : m_w(w), m_q(q), m_pools(pools)
    {
        const signal_table& t = switch_port_signals();
        const std::string pre = port + ".";
        m_bytes = t.add(w, c, pre, "queue_bytes", {trace_fire_rule::kind::reaches, threshold});
        m_packets = t.add(w, c, pre, "queue_packets");
        for (int p : pools) {
            const std::string pp = "pool" + std::to_string(p);
            m_pool_bytes.push_back(t.add(w, c, pre, "pool{p}_bytes", {}, pp + "_bytes"));
            m_red.push_back(t.add(w, c, pre, "pool{p}_red_avg_bytes", {}, pp + "_red_avg_bytes"));
        }
        m_marks = t.add(w, c, pre, "ecn_marks");
        m_trims = t.add(w, c, pre, "trims", rises);
        m_drops = t.add(w, c, pre, "drops", rises);
    }

    void changed() override
    {
        m_w.set(m_bytes, m_q.bytes_held());
        m_w.set(m_packets, m_q.packets_queued());
        for (size_t i = 0; i < m_pools.size(); ++i) {
            m_w.set(m_pool_bytes[i], m_q.pool_bytes(m_pools[i]));
            m_w.set(m_red[i], uint64_t(m_q.mean_bytes(m_pools[i])));
        }
        const auto& st = m_q.stats();
        m_w.set(m_marks, st.ecn_marked);
        m_w.set(m_trims, st.trimmed);
        m_w.set(m_drops, st.dropped);
    }

private:
    impl_t& m_w;
    const egress_queue& m_q;
    std::vector<int> m_pools;
    uint32_t m_bytes, m_packets, m_marks, m_trims, m_drops;
    std::vector<uint32_t> m_pool_bytes, m_red;
};

// PFC on one port (switch or NIC): per traffic class whether the peer has paused the port's
// transmission of it (the `pause` trigger fires when one rises), and the classes the port holds
// its peer in pause for (a bit mask).
class pfc_probe : public state_probe
{
public:
    pfc_probe(impl_t& w, const std::string& c, const std::string& port, const pfc_unit& u)
        : m_w(w), m_u(u)
    {
        const signal_table& s = pfc_signals();
        const std::string pre = port.empty() ? "" : port + ".";
        for (int t = 0; t < 8; ++t)
            m_paused[size_t(t)] =
                s.add(w, c, pre, "tc{N}_paused", rises, "tc" + std::to_string(t) + "_paused");
        m_held = s.add(w, c, pre, "pfc_pausing_peer");
    }
    void changed() override
    {
        const uint8_t p = m_u.pauses().paused();
        for (int t = 0; t < 8; ++t) m_w.set(m_paused[size_t(t)], (p >> t) & 1u);
        m_w.set(m_held, m_u.held());
    }

private:
    impl_t& m_w;
    const pfc_unit& m_u;
    std::array<uint32_t, 8> m_paused{};
    uint32_t m_held;
};

// A link, both directions: busy while a frame serialises, up, rate. The end of a frame is an
// event of this probe's own (it exists only when the link is traced).
class link_probe : public sc_core::sc_module, public state_probe
{
public:
    link_probe(const sc_core::sc_module_name& n, impl_t& w, const std::string& c, link& l)
        : sc_core::sc_module(n), m_w(w), m_link(l)
    {
        for (int d = 0; d < 2; ++d) {
            const signal_table& t = link_signals();
            const std::string dir = d == link::a_to_b ? "a_to_b." : "b_to_a.";
            m_dir[d].busy = t.add(w, c, dir, "busy");
            m_dir[d].up = t.add(w, c, dir, "up");
            m_dir[d].rate = t.add(w, c, dir, "rate_mbps");
        }
        l.add_tap([this](const packet& p, link::direction d, const sc_core::sc_time& start) {
            lane& ln = m_dir[d];
            const sc_core::sc_time ser = serialization(p.wire_bytes, m_link.rate_bps(d));
            ln.busy_until = start + ser;
            m_w.set(ln.busy, 1);
            m_end[d].notify(ser);
        });
    }

    void start_of_simulation() override { changed(); }

    void changed() override
    {
        for (int d = 0; d < 2; ++d) {
            m_w.set(m_dir[d].up, m_link.is_up(link::direction(d)) ? 1 : 0);
            m_w.set(m_dir[d].rate, uint64_t(m_link.rate_bps(link::direction(d)) / 1e6));
        }
    }

private:
    struct lane
    {
        uint32_t busy, up, rate;
        sc_core::sc_time busy_until;
    };
    void end(int d)
    {
        lane& ln = m_dir[d];
        const sc_core::sc_time now = sim_now();
        if (now >= ln.busy_until)
            m_w.set(ln.busy, 0);
        else
            m_end[d].notify(ln.busy_until - now);
    }

    impl_t& m_w;
    link& m_link;
    lane m_dir[2];
    wakeup m_end[2]{wakeup{[this] { end(0); }, wakeup::phase::sample},
                    wakeup{[this] { end(1); }, wakeup::phase::sample}};
};

// A host's PCIe link, per direction: busy from when a transfer is queued until the lanes have
// sent their last queued byte (pcie_link::queued_ps), with an event of this probe's own for the
// end.
class pcie_probe : public sc_core::sc_module, public state_probe
{
public:
    pcie_probe(const sc_core::sc_module_name& n, impl_t& w, const std::string& c, pcie_link& l)
        : sc_core::sc_module(n), m_w(w), m_link(l)
    {
        m_busy[0] = pcie_signals().add(w, c, "", "pcie_nic_to_host_busy");
        m_busy[1] = pcie_signals().add(w, c, "", "pcie_host_to_nic_busy");
    }

    void changed() override { check(); }

private:
    void check()
    {
        uint64_t next = 0;
        for (int s = 0; s < 2; ++s) {
            const uint64_t q = m_link.queued_ps(pcie_link::side(s));
            m_w.set(m_busy[s], q > 0 ? 1 : 0);
            if (q > 0 && (next == 0 || q < next)) next = q;
        }
        if (next) m_end.notify(sc_core::sc_time::from_value(next));
    }

    impl_t& m_w;
    pcie_link& m_link;
    uint32_t m_busy[2];
    wakeup m_end{[this] { check(); }, wakeup::phase::sample};
};

// An RTL block in a device: its pins (rtl_pin_set) as the wrapper drove them for the last
// request and the block's answer, as {device}.{scope}.{pin} (leaf0.rtl.hash), written after each
// request settles.
class rtl_pins_probe : public state_probe
{
public:
    rtl_pins_probe(impl_t& w, const std::string& c, const std::string& scope,
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
    impl_t& m_w;
    const rtl_pin_set& m_pins;
    std::vector<uint32_t> m_ids;
};

// A Chakra rank, on its host: the collective it runs (its instance id + 1; 0: none), whether it
// is in the collective's synchronization barrier, and the latest step it issued.
class chakra_probe
{
public:
    chakra_probe(impl_t& w, const std::string& c, const chakra::chakra_replay& r, uint32_t rank)
        : m_w(w), m_replay(r), m_rank(rank)
    {
        const signal_table& t = chakra_signals();
        m_collective = t.add(w, c, "chakra.", "collective");
        m_barrier = t.add(w, c, "chakra.", "barrier");
        m_step = t.add(w, c, "chakra.", "step");
    }
    void changed()
    {
        const uint32_t c = m_replay.running_collective(m_rank);
        m_w.set(m_collective, c == chakra::k_none ? 0 : uint64_t(c) + 1);
        m_w.set(m_barrier, m_replay.running_barrier(m_rank) ? 1 : 0);
        m_w.set(m_step, m_replay.running_step(m_rank));
    }

private:
    impl_t& m_w;
    const chakra::chakra_replay& m_replay;
    uint32_t m_rank;
    uint32_t m_collective, m_barrier, m_step;
};

}  // namespace

std::string trace_file_name(const scenario& sc)
{
    return sc.trace.file.empty() ? sc.simulation.name + ".fst" : sc.trace.file;
}

const signal_table& pcie_signals()
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
        }};
    return t;
}

const signal_table& chakra_signals()
{
    static const signal_table t{
        "Per Chakra rank, on its host",
        "host0.chakra.*",
        "With the Chakra workload.",
        {
            {"collective", 32, false, "id",
             "the collective instance the rank runs (its `collective_hash` + 1; 0: none)"},
            {"barrier", 1, false, "flag",
             "that collective is in its synchronization barrier "
             "(`Chakra.CommCollectiveSynchronization`)"},
            {"step", 32, false, "step",
             "the latest step of the collective's plan the rank issued sends for "
             "(docs/collectives.md)"},
        }};
    return t;
}

const signal_table& switch_port_signals()
{
    static const signal_table t{
        "Per switch port",
        "leaf0.port{i}_{peer}.*",
        "Bytes are counted per buffer pool, the unit the buffer manager admits by: under the UET "
        "policy one pool per traffic class TC0..TC2, else the default mapping (TC1 in pool 1, the "
        "rest in pool 0). Only pools some class maps to are traced.",
        {
            {"queue_bytes", 64, true, "bytes",
             "bytes held by the port: queued plus the frame "
             "serialising",
             trace_trigger_kind::queue},
            {"queue_packets", 32, false, "frames", "frames queued"},
            {"pool{p}_bytes", 64, true, "bytes", "bytes of pool p held by the port"},
            {"pool{p}_red_avg_bytes", 64, true, "bytes", "RED's average queue of pool p"},
            {"ecn_marks", 64, false, "count", "packets marked CE so far"},
            {"trims", 64, false, "count", "packets trimmed so far", trace_trigger_kind::trim},
            {"drops", 64, false, "count", "packets dropped so far", trace_trigger_kind::drop},
        }};
    return t;
}

const signal_table& pfc_signals()
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

const signal_table& link_signals()
{
    static const signal_table t{
        "Per link direction",
        "host0-leaf0.a_to_b.*, .b_to_a.*",
        "A is the lower tier.",
        {
            {"busy", 1, false, "flag", "a frame is serialising"},
            {"up", 1, false, "flag", "the direction is up (Faults)"},
            {"rate_mbps", 32, false, "Mbit/s", "the direction's rate (Faults: degrade)"},
        }};
    return t;
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
