// The RTL block registry: one entry per Verilated block that can stand in for a part of the
// model (docs/rtl.md, "Adding your own block"). An entry names its scenario key (Rtl.<key>,
// model | rtl | both, per device through Rtl[glob].<key>), the kind of device it sits in, and
// the factory that builds the block's wrapper or engine for one device in rtl or both mode.
// sim/config registers one key per entry; the fabric calls the factory for every device whose
// mode is not model; the manifest and the waveforms read the instances back.
//
// Adding a block is one entry in rtl_blocks.cpp. An entry without a factory is a block this
// build does not have: rtl or both is refused with exit code 2 ("not available in this build").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rtl/common/rtl_mode.h"
#include "rtl/common/rtl_pins.h"
#include "rtl/library/rtl_library.h"
#include "testbench/scenario.h"
#include "testbench/elab/topology.h"

namespace uetsim {

class fabric_switch;

// Where one block instance goes: the device, its mode, and the member of its device kind. The
// fabric builds switch blocks after the switch (sw set) and NIC blocks before the NIC is built
// (nic set: the NIC's own configuration, which an engine factory can be injected into).
struct rtl_block_site
{
    const scenario& sc;
    std::string device;     // leaf0, host3
    std::string component;  // the name in mismatch reports: leaf0.flow_hash
    rtl_mode mode;          // rtl or both
    // Rtl.<key>Library for this device: a block library (rtl/library/rtl_library.h) loaded and
    // checked, whose block the factory builds in place of the built-in; null: the built-in.
    const rtl_library_descriptor* library = nullptr;
    fabric_switch* sw = nullptr;
    nic_config* nic = nullptr;
};

// One built block, as the run sees it afterwards (counts for the manifest, pins for Trace).
class rtl_block_instance
{
public:
    virtual ~rtl_block_instance() = default;
    virtual uint64_t requests() const = 0;  // answered by the RTL
    virtual uint64_t checked() const = 0;   // of which compared with the model (both mode)
    // The block's pins for the run's waveform ({device}.rtl.{pin}); null: none traced.
    virtual rtl_pin_set* pins() { return nullptr; }
};

using rtl_block_factory = std::function<std::unique_ptr<rtl_block_instance>(rtl_block_site&)>;

struct rtl_block_def
{
    std::string key;         // FlowHash: the key Rtl.FlowHash
    std::string component;   // flow_hash: reports name {device}.flow_hash
    device_kind applies_to;  // the devices that have the block
    // The pins' scope in the run's waveform: {device}.{trace_scope}.{pin} (leaf0.rtl.hash);
    // distinct per device kind, since several blocks share a NIC.
    std::string trace_scope;
    std::string doc;          // the key's doc line
    rtl_block_factory build;  // null: not available in this build
    // A block that a UET NIC pipeline stage consults (the entropy load balancer, the SACK
    // tracker): its latency in NIC cycles, as the rtl layer exports it beside the wrapper (the
    // built-in block's `latency` pin), the stage (UetNic.<stage>Cycles), the stage's field and
    // the flag of its `auto`, and the block's name in messages. Latency 0 and no stage: a
    // block no stage waits on (FlowHash).
    uint32_t latency_cycles = 0;
    std::string stage;
    pipeline_stage_timing uet_nic_config::*stage_field = nullptr;
    bool nic_config::*stage_auto = nullptr;
    std::string title;  // "entropy load balancer"
};

// The entries, in key order of the docs.
const std::vector<rtl_block_def>& rtl_blocks();
const rtl_block_def* find_rtl_block(std::string_view key);

// The latency in NIC cycles of the block that stands for `def` on a device whose Rtl keys are
// `device` (in every mode: model, rtl and both keep the same timing). The one place a block
// loaded from elsewhere would give its own latency.
uint32_t rtl_block_latency(const rtl_block_def& def, const rtl_config& device);

// UetNic.<stage>Cycles: auto of each stage that consults a block: the block's latency for a
// device whose Rtl keys are `device`. The flags stay set: the rules resolve the section's, the
// fabric each device's (its own UetNic and Rtl keys applied).
void resolve_stage_latencies(nic_config& nic, const rtl_config& device);

// Tests: replace an entry's factory (e.g. a mutant block); returns the previous one.
rtl_block_factory replace_rtl_block_factory(std::string_view key, rtl_block_factory f);

// "host3.sack_tracker".
std::string rtl_component_name(const rtl_block_def& def, const std::string& device);

// "Rtl.SackTrackerLibrary".
std::string rtl_library_key(const rtl_block_def& def);

// The library at `path` for block `def`, loaded once and checked (rtl_library_loader.h); a
// library that is missing, does not load or does not fit is bad input: run_input_error (exit 2).
const rtl_library_descriptor& load_rtl_block_library(const rtl_block_def& def,
                                                     const std::string& path);

}  // namespace uetsim
