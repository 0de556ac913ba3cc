#include "testbench/trace/probe_registry.h"

#include <algorithm>

#include "testbench/elab/fabric.h"
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/trace/cbfc_probe.h"
#include "testbench/trace/chakra_probe.h"
#include "testbench/trace/link_probe.h"
#include "testbench/trace/pcie_probe.h"
#include "testbench/trace/pfc_probe.h"
#include "testbench/trace/rtl_pins_probe.h"
#include "testbench/trace/switch_port_probe.h"

namespace uetsim {

namespace {

// The NIC's own probe, from its type's registry row (testbench/nics/).
void attach_nic(probe_site& s, size_t h, const std::string& c)
{
    // The host's own type's probe (Nic[glob].Type).
    const auto make = find_nic_type(host_nic_kind(s.sc, uint32_t(h)))->make_probe;
    if (!make) return;
    host_nic& nic = s.fab.nic_at(h);
    nic.set_probe(&s.keep(make(s.signals, c, nic, s.sc)));
    s.on_finish([&nic] { nic.set_probe(nullptr); });
}

void attach_nic_pfc(probe_site& s, size_t h, const std::string& c)
{
    host_nic& nic = s.fab.nic_at(h);
    nic.port.pfc().set_probe(
        &s.keep(std::make_unique<pfc_probe>(s.signals, c, "", nic.port.pfc())));
    s.on_finish([&nic] { nic.port.pfc().set_probe(nullptr); });
}

void attach_nic_cbfc(probe_site& s, size_t h, const std::string& c)
{
    cbfc_unit* u = s.fab.nic_at(h).port.cbfc();
    if (!u) return;
    u->set_probe(&s.keep(std::make_unique<cbfc_probe>(s.signals, c, "", *u)));
    s.on_finish([u] { u->set_probe(nullptr); });
}

void attach_pcie(probe_site& s, size_t h, const std::string& c)
{
    pcie_link& l = s.fab.pcie_at(h);
    l.set_probe(
        &s.keep(std::make_unique<pcie_probe>(("trace_pcie_" + c).c_str(), s.signals, c, l)));
    s.on_finish([&l] { l.set_probe(nullptr); });
}

// A device's RTL blocks (Rtl.* rtl or both): their pins as {device}.{scope}.{pin}.
void attach_rtl_pins(probe_site& s, size_t, const std::string& c)
{
    for (const auto& b : s.fab.rtl_block_list()) {
        rtl_pin_set* pins = b.device == c ? b.instance->pins() : nullptr;
        if (!pins) continue;
        pins->trace(
            &s.keep(std::make_unique<rtl_pins_probe>(s.signals, c, b.def->trace_scope, *pins)));
        s.on_finish([pins] { pins->trace(nullptr); });
    }
}

// Each Chakra rank on its host.
void attach_chakra(probe_site& s, size_t, const std::string&)
{
    chakra::chakra_replay* replay = s.chakra;
    if (!replay) return;
    const topology& topo = s.fab.topo();
    auto ranks = std::make_shared<std::vector<chakra_probe*>>(replay->ranks(), nullptr);
    bool any = false;
    for (uint32_t r = 0; r < replay->ranks(); ++r) {
        const std::string& c = topo.devices[replay->placement().host[r]].name;
        if (!s.wanted(c)) continue;
        (*ranks)[r] = &s.keep(std::make_unique<chakra_probe>(s.signals, c, *replay, r));
        any = true;
    }
    if (any)
        replay->on_rank_state([ranks](uint32_t r) {
            if (chakra_probe* p = (*ranks)[r]) p->changed();
        });
}

// Each port's egress queue and PFC, named by the device at its other end.
void attach_switch_ports(probe_site& s, size_t i, const std::string& c)
{
    const topology& topo = s.fab.topo();
    const uint32_t d = uint32_t(topo.hosts + i);
    fabric_switch& sw = s.fab.switch_at(i);
    std::vector<int> pools;
    for (uint8_t tc = 0; tc < num_traffic_classes; ++tc) {
        const int p = sw.buffers().layout().pool_of(tc);
        if (std::find(pools.begin(), pools.end(), p) == pools.end()) pools.push_back(p);
    }
    std::sort(pools.begin(), pools.end());
    for (size_t port = 0; port < sw.port_count(); ++port) {
        const std::string pn = "port" + std::to_string(port) + "_" +
                               signal_scope_name(topo.devices[topo.peer(d, port)].name);
        auto& q = sw.port(port).queue();
        q.set_probe(&s.keep(
            std::make_unique<queue_probe>(s.signals, c, pn, q, pools, s.trigger_threshold_bytes)));
        auto& pfc = sw.port(port).pfc();
        pfc.set_probe(&s.keep(std::make_unique<pfc_probe>(s.signals, c, pn, pfc)));
        s.on_finish([&q, &pfc] {
            q.set_probe(nullptr);
            pfc.set_probe(nullptr);
        });
        if (cbfc_unit* u = sw.port(port).cbfc()) {
            u->set_probe(&s.keep(std::make_unique<cbfc_probe>(s.signals, c, pn, *u)));
            s.on_finish([u] { u->set_probe(nullptr); });
        }
    }
}

void attach_link(probe_site& s, size_t i, const std::string& c)
{
    link& l = s.fab.link_at(i);
    l.set_probe(&s.keep(
        std::make_unique<link_probe>(("trace_" + signal_scope_name(c)).c_str(), s.signals, c, l)));
    s.on_finish([&l] { l.set_probe(nullptr); });
}

std::vector<probe_kind>& rows()
{
    static std::vector<probe_kind> r = {
        {"nic", probe_scope::host, attach_nic},
        {"nic_pfc", probe_scope::host, attach_nic_pfc},
        {"nic_cbfc", probe_scope::host, attach_nic_cbfc},
        {"pcie", probe_scope::host, attach_pcie},
        {"rtl_pins", probe_scope::host, attach_rtl_pins},
        {"chakra", probe_scope::run, attach_chakra},
        {"switch_ports", probe_scope::switch_device, attach_switch_ports},
        // A switch's RTL blocks, grouped with it in the layout (right after its ports).
        {"rtl_pins", probe_scope::switch_device, attach_rtl_pins},
        {"link", probe_scope::link, attach_link},
    };
    return r;
}

}  // namespace

const std::vector<probe_kind>& probe_kinds()
{
    return rows();
}

void add_probe_kind(const probe_kind& k)
{
    auto& r = rows();
    // After the last row of its scope, so the built-in signals keep their places.
    auto at =
        std::find_if(r.rbegin(), r.rend(), [&](const probe_kind& p) { return p.scope == k.scope; });
    r.insert(at.base(), k);
}

}  // namespace uetsim
