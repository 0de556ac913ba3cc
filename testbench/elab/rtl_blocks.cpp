#include "testbench/elab/rtl_blocks.h"

#include <map>
#include <stdexcept>
#include <utility>

#include "hw/switch/fabric_switch.h"
#include "rtl/entropy_lb/entropy_lb_rtl.h"
#include "rtl/flow_hash/flow_hash_rtl.h"
#include "rtl/library/rtl_library_loader.h"
#include "rtl/sack_tracker/sack_tracker_rtl.h"
#include "testbench/run/run_input_error.h"

namespace uetsim {

namespace {

// The switch's flow hash: the wrapper behind the switch's flow_hasher seam.
class flow_hash_instance final : public rtl_block_instance
{
public:
    explicit flow_hash_instance(std::unique_ptr<rtl_flow_hasher> h) : m_hasher(std::move(h)) {}
    uint64_t requests() const override { return m_hasher->requests(); }
    uint64_t checked() const override { return m_hasher->checked(); }
    rtl_pin_set* pins() override { return &m_hasher->pins(); }

private:
    std::unique_ptr<rtl_flow_hasher> m_hasher;
};

std::unique_ptr<rtl_block_instance> build_flow_hash(rtl_block_site& s)
{
    std::unique_ptr<rtl_flow_hash_core> core;  // null: the built-in block
    if (s.library) core.reset(s.library->make_flow_hash(s.component.c_str()));
    auto h = std::make_unique<rtl_flow_hasher>(s.component, s.mode, std::move(core));
    s.sw->use_hasher(h.get());
    return std::make_unique<flow_hash_instance>(std::move(h));
}

// A NIC engine: built by the NIC from the factory injected here (the NIC knows its slots and
// cycle); the instance reads it back for the manifest and the waveform.
template <class Engine>
class nic_engine_instance final : public rtl_block_instance
{
public:
    uint64_t requests() const override { return m_engine ? m_engine->requests() : 0; }
    uint64_t checked() const override { return m_engine ? m_engine->checked() : 0; }
    rtl_pin_set* pins() override { return m_engine ? &m_engine->pins() : nullptr; }
    Engine* m_engine = nullptr;  // owned by the NIC, set when the NIC is built
};

// The engines refuse a configuration their RAMs cannot hold; that is the device's input.
template <class Build>
auto input_checked(Build build)
{
    try {
        return build();
    } catch (const std::invalid_argument& e) {
        throw run_input_error(e.what());
    }
}

std::unique_ptr<rtl_block_instance> build_entropy_lb(rtl_block_site& s)
{
    auto inst = std::make_unique<nic_engine_instance<entropy_lb_rtl>>();
    s.nic->make_entropy_engine = [i = inst.get(), component = s.component, mode = s.mode,
                                  spraying = s.nic->spraying,
                                  library = s.library](const nic_engine_context& c) {
        auto e = input_checked([&] {
            if (!library)
                return std::make_unique<entropy_lb_rtl>(component, c.contexts, mode, c.cycle_ps);
            return std::make_unique<entropy_lb_rtl>(
                component, c.contexts, mode, c.cycle_ps,
                std::unique_ptr<entropy_lb_port>(library->make_entropy_lb(component.c_str())));
        });
        // The cache size is the device's for every group: refuse it before the first group.
        if (auto why = entropy_lb_limit_error(e->limits(), 0, spraying))
            throw run_input_error(component + ": " + *why);
        i->m_engine = e.get();
        return e;
    };
    return inst;
}

std::unique_ptr<rtl_block_instance> build_sack_tracker(rtl_block_site& s)
{
    auto inst = std::make_unique<nic_engine_instance<sack_tracker_rtl>>();
    s.nic->make_sack_tracker = [i = inst.get(), component = s.component, mode = s.mode,
                                library = s.library](const nic_engine_context& c) {
        auto t = input_checked([&] {
            std::unique_ptr<rtl_sack_tracker_core> core;  // null: the built-in block
            if (library) core.reset(library->make_sack_tracker(component.c_str()));
            return std::make_unique<sack_tracker_rtl>(component, c.contexts, mode, std::move(core));
        });
        i->m_engine = t.get();
        return t;
    };
    return inst;
}

// A library's block answers after its own `latency` pin: read from one block it makes, once per
// library (the pin is a constant of the design).
uint32_t library_latency(const rtl_block_def& def, const rtl_library_descriptor& d)
{
    static std::map<const rtl_library_descriptor*, uint32_t> known;
    const auto it = known.find(&d);
    if (it != known.end()) return it->second;
    uint32_t cycles = def.latency_cycles;
    const std::string name = def.component + ".latency";
    if (d.make_entropy_lb)
        cycles =
            std::unique_ptr<entropy_lb_port>(d.make_entropy_lb(name.c_str()))->latency_cycles();
    else if (d.make_sack_tracker)
        cycles = std::unique_ptr<rtl_sack_tracker_core>(d.make_sack_tracker(name.c_str()))
                     ->latency_cycles();
    known.emplace(&d, cycles);
    return cycles;
}

std::vector<rtl_block_def>& rtl_block_registry()
{
    static std::vector<rtl_block_def> r = {
        {"FlowHash", "flow_hash", device_kind::switch_device, "rtl",
         "The switch's ECMP flow hash (rtl/flow_hash): model, rtl (the Verilated block's hash) "
         "or both (the model's hash, the RTL checked against it; the first mismatch stops the "
         "run with exit code 1).",
         build_flow_hash, 0, "", nullptr, nullptr, ""},
        {"EntropyLoadBalancer", "entropy_lb", device_kind::host, "rtl.entropy_lb",
         "The UET NIC's entropy load balancer (rtl/entropy_lb): model, rtl or both, as for "
         "FlowHash.",
         build_entropy_lb, entropy_lb_latency_cycles, "EntropyLookup",
         &uet_nic_config::entropy_lookup, &nic_config::entropy_lookup_cycles_auto,
         "entropy load balancer"},
        {"SackTracker", "sack_tracker", device_kind::host, "rtl.sack_tracker",
         "The UET NIC receiver's SACK tracker (rtl/sack_tracker): model, rtl or both, as for "
         "FlowHash.",
         build_sack_tracker, sack_tracker_latency_cycles, "SackUpdate",
         &uet_nic_config::sack_update, &nic_config::sack_update_cycles_auto, "SACK tracker"},
    };
    return r;
}

}  // namespace

const std::vector<rtl_block_def>& rtl_blocks()
{
    return rtl_block_registry();
}

const rtl_block_def* find_rtl_block(std::string_view key)
{
    for (const auto& d : rtl_block_registry())
        if (d.key == key) return &d;
    return nullptr;
}

uint32_t rtl_block_latency(const rtl_block_def& def, const rtl_config& device)
{
    const rtl_config::library_path* lib = device.library(def.key);
    if (!lib || !def.stage_auto) return def.latency_cycles;
    try {
        return library_latency(def, load_rtl_block_library(def, lib->resolved));
    } catch (const run_input_error&) {
        // A library that does not load is refused, naming what is wrong, where it is loaded
        // for the run (the Rtl rule, the fabric); until then the stage keeps the built-in's.
        return def.latency_cycles;
    }
}

void resolve_stage_latencies(nic_config& nic, const rtl_config& device)
{
    for (const rtl_block_def& def : rtl_block_registry())
        if (def.stage_auto && nic.*def.stage_auto)
            (nic.uet.*def.stage_field).cycles = rtl_block_latency(def, device);
}

rtl_block_factory replace_rtl_block_factory(std::string_view key, rtl_block_factory f)
{
    for (auto& d : rtl_block_registry())
        if (d.key == key) {
            std::swap(d.build, f);
            return f;
        }
    throw std::invalid_argument("no RTL block " + std::string(key));
}

std::string rtl_component_name(const rtl_block_def& def, const std::string& device)
{
    return device + "." + def.component;
}

std::string rtl_library_key(const rtl_block_def& def)
{
    return "Rtl." + def.key + "Library";
}

const rtl_library_descriptor& load_rtl_block_library(const rtl_block_def& def,
                                                     const std::string& path)
{
    try {
        return load_rtl_library(path, def.key, rtl_library_key(def));
    } catch (const std::invalid_argument& e) {
        throw run_input_error(e.what());
    }
}

}  // namespace uetsim
