// A scenario as resolved from YAML, --set overrides and defaults: everything a run needs.
// sim/ fills it (and validates every key); testbench/ builds the fabric from it.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "hw/kernel/time_base.h"
#include "hw/nic/roce/roce_nic_config.h"
#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/nscc_config.h"
#include "hw/nic/uet/uet_nic_config.h"
#include "hw/nic/uet/uet_nic_params.h"
#include "hw/pcie/pcie_config.h"
#include "hw/switch/switch_config.h"
#include "rtl/common/rtl_mode.h"
#include "tlm/delivery_mode.h"
#include "testbench/traffic/app/timeline.h"
#include "testbench/records/record_names.h"
#include "testbench/records/uet_monitor_selection.h"
#include "testbench/traffic/chakra/chakra_config.h"

namespace uetsim {

enum class topology_kind { leaf_spine, fat_tree, single_switch };

// What sits at each host's network port (Nic.Type), by its key spelling: a UET NIC, a RoCE NIC,
// or a NIC-less raw port that sends Flows packets at line rate with no transport (for exercising
// the fabric alone). Open: a NIC type added from outside (testbench/elab/nic_factory.h) names its
// own; `name` refers to storage that lives as long as the program.
struct nic_kind
{
    std::string_view name;

    static const nic_kind uet, raw, roce;
    friend constexpr bool operator==(nic_kind a, nic_kind b) { return a.name == b.name; }
    friend constexpr bool operator!=(nic_kind a, nic_kind b) { return !(a == b); }
};
inline constexpr nic_kind nic_kind::uet{"uet"};
inline constexpr nic_kind nic_kind::raw{"raw"};
inline constexpr nic_kind nic_kind::roce{"roce"};

struct simulation_config
{
    std::string name = "uetsim";
    uint64_t random_seed = 18760;
    // Hard stop in simulated seconds. A Flows run also stops as soon as every message is done.
    double stop_time_s = 1.0;
    double nd_stats_interval_s = 1e-3;              // NDStatsReportInterval
    double network_buffer_stats_interval_s = 1e-3;  // NetworkBufferStatsReportingInterval
    // time_utc columns are this epoch plus simulated time, so records stay deterministic.
    std::string epoch_utc = "2026-01-01T00:00:00Z";
    // The RDMA application's run timeline (StartTime .. CoolDown); with the application on, the
    // run ends at its stop time (or at StopTime if that is given and earlier).
    timeline_params timeline;
    double beacon_interval_s = 1e-3;                             // BeaconReportInterval
    uetsim::time_base time_base = uetsim::time_base::decoupled;  // TimeBase
    // TLM-2.0 global quantum: how far the decoupled model runs ahead of the kernel, and the
    // slice between two looks at the stop flag (testbench/run/run_control.h).
    double quantum_s = 10e-6;
    // StallTimeout: stop a run whose outstanding work has made no progress for this long of
    // simulated time (testbench/run/stall_watch.h); 0: never.
    double stall_timeout_s = 0;
};

struct topology_config
{
    topology_kind kind = topology_kind::leaf_spine;
    uint32_t hosts = 16;             // leaf-spine, single-switch
    uint32_t hosts_per_leaf = 8;     // leaf-spine
    uint32_t spines = 8;             // leaf-spine
    uint32_t uplinks_per_spine = 1;  // parallel links between a leaf and each spine
    uint32_t k = 4;                  // fat-tree arity (k pods, k^3/4 hosts)
    double link_rate_bps = 400e9;    // every link unless a device side is slower
};

enum class link_llr { off, both, a_only, b_only };

struct link_config
{
    double nic_delay_s = 100e-9;     // propagation delay of host-to-switch links
    double switch_delay_s = 500e-9;  // propagation delay of switch-to-switch links
    // One link's own values (Link[glob].Rate, .Delay, .BitErrorRate; docs/topologies.md). auto:
    // Topology.LinkRate, and NicDelay for a host's link or SwitchDelay between switches.
    double rate_bps = 400e9;
    bool rate_auto = true;
    double delay_s = 100e-9;
    bool delay_auto = true;
    double bit_error_rate = 0;  // per bit; a frame is lost with 1 - (1 - BER)^(wire bits)
    // Link Level Retry (docs/link-layer.md): on both ends, off, or asked for on one end only
    // (a and b exist to be refused: LLR needs both ends).
    link_llr llr = link_llr::off;
    uint64_t llr_replay_buffer_bytes = 0;  // each end's; auto: the LLR round trip's bytes
    bool llr_replay_buffer_auto = true;
    double llr_replay_timeout_s = 0;  // auto: twice the LLR round trip
    bool llr_replay_timeout_auto = true;
    uint32_t llr_control_bytes = 8;  // an LLR_ACK or LLR_NACK control ordered set on the wire
    uint32_t llr_ack_spacing_bytes = 2048;  // CTLOS target spacing: at most one ACK per this
    // Credit-based flow control (Link[glob].Cbfc...; docs/link-layer.md).
    bool cbfc = false;
    std::string cbfc_vc_map = "0:0, 1:1";  // class:VC pairs
    uint32_t cbfc_credit_unit_bytes = 64;
    double cbfc_credit_update_interval_s = 1e-6;
    uint32_t cbfc_update_frame_bytes = 64;
    double cbfc_sync_interval_s = 100e-6;
    uint32_t cbfc_vc_buffer_bytes = 0;  // advertised per VC; 0: the line-rate need
};

// One message of the Flows list: sent as MSS-sized raw packets by a NIC-less host port.
// Where an application measures a message's completion: at the initiator (its NIC's completion
// once every byte is acknowledged) or at the target (the target NIC's receive completion, once
// every byte is placed in the target's memory).
enum class completion_point : uint8_t { initiator, target };

struct flow_spec
{
    uint32_t src = 0;
    uint32_t dst = 0;
    uint64_t bytes = 0;
    double start_s = 0.0;
    // Entropy value (UDP source port) of the first packet; -1 draws one from the run's seed.
    int32_t entropy = -1;
    // How many consecutive values the packets cycle through (1 = one fixed value per flow).
    uint32_t entropy_values = 1;
    uint8_t traffic_class = 0;
    completion_point completion_at = completion_point::initiator;
    // When the receiver posts the message's buffer (RecvPostedAt); below 0: before the message
    // starts, an ordinary send. At or above 0 the message is a deferrable send.
    double recv_posted_s = -1;
    delivery_mode mode = delivery_mode::rud;  // UET NIC: the PDS delivery mode
    uint32_t job_id = 0;                      // UET NIC: the JobID its requests carry
};

struct flows_config
{
    std::vector<flow_spec> messages;  // packets carry at most UetNic.RdmaDataMSS bytes
};

enum class fault_action { down, up, degrade, loss, pause, resume };

// One entry of the Faults list: at `at_s`, on the link named `link` (e.g. leaf0-spine3), both
// directions.
struct fault_spec
{
    double at_s = 0;
    std::string link;
    fault_action action = fault_action::down;
    double rate_bps = 0;         // degrade: the new rate
    double loss = 0;             // loss: probability that a frame is lost, 0..1
    uint32_t traffic_class = 0;  // pause, resume: the class the link's lower end pauses
};

// The RDMA application (RdmaApplication.*): Initiators and Responders placed on the hosts,
// NumConnections per pair, each keeping MaxPendingWQEs RDMA WRITEs outstanding.
struct rdma_app_config
{
    // Resolved by the scenario rules: RdmaApplication.Enabled if given, else on exactly when
    // Flows is empty. Off here so that a scenario built in code runs only what it lists.
    bool enabled = false;
    double initiator_ratio = 0.5;
    double responder_ratio = 0.5;
    uint32_t num_connections = 1;    // 1..1024 per pair
    uint32_t max_pending_wqes = 10;  // per connection; 0 posts nothing
    start_type start = start_type::simultaneous;
    uint64_t wqe_bytes = 250000;           // every WQE is an RDMA WRITE of this size
    uint32_t doorbell_payload_bytes = 64;  // plus 28 bytes of UDP/IPv4 on PCIe
    uint8_t data_tc = 0;                   // RdmaDataPacketTC: DSCP = 8 x class
    uint8_t control_tc = 1;                // RdmaControlPacketTC: the RoCE NIC's ACKs and NAKs
    completion_point completion_at = completion_point::initiator;  // what rdma-perf times
    delivery_mode mode = delivery_mode::rud;  // Mode: the WQEs' PDS delivery mode (UET)
    uint32_t job_id = 0;                      // JobId: the JobID of its WQEs' requests (UET)
};

struct records_config
{
    // Records written; the default is every record Records.Enabled lists (the registry,
    // testbench/records/record_registry.h).
    std::vector<std::string> enabled = default_enabled_records();
    // The per-packet uet-monitor record: Records.UetMonitor and the ScalaUETMonitor filters and
    // triggers.
    uet_monitor_settings monitor;
};

struct capture_config
{
    std::vector<std::string> links;  // link names whose frames go to pcap files
};

// Trace.*: waveforms of NIC, switch and link state (testbench/trace/waveforms.h).
enum class trace_trigger_kind { none, rto, nack, trim, drop, freeze, pause, queue, monitor };

struct trace_trigger_config
{
    trace_trigger_kind on = trace_trigger_kind::none;
    std::string component = "*";   // glob over device names
    uint64_t threshold_bytes = 0;  // On: queue
};

struct trace_config
{
    bool enabled = false;
    std::string file;                          // empty: {Name}.fst; .fst or .vcd
    std::vector<std::string> components{"*"};  // device and link name globs
    std::vector<std::string> signals{"*"};     // signal name globs
    double start_s = 0;
    double stop_s = 100;  // the largest Simulation.StopTime: the end of the run
    uint32_t group_slots = 4;
    std::vector<trace_trigger_config> trigger;  // at most one: Trace.Trigger
    double pre_trigger_s = 10e-6;
    double post_trigger_s = 50e-6;
};

// Rtl.*: how each RTL block runs (testbench/elab/rtl_blocks.h lists the blocks), by the block's key
// name (FlowHash); a block not listed runs the model. Per device through Rtl[glob].Key.
struct rtl_config
{
    std::map<std::string, rtl_mode, std::less<>> modes;
    // Rtl.<key>Library: a block library built by `uetsim rtl-build` (rtl/library/rtl_library.h)
    // that replaces the built-in RTL of block `key` in rtl and both mode; none: the built-in.
    struct library_path
    {
        std::string given;     // as written
        std::string resolved;  // relative to the scenario file's folder
    };
    std::map<std::string, library_path, std::less<>> libraries;

    rtl_mode mode(std::string_view key) const
    {
        const auto it = modes.find(key);
        return it == modes.end() ? rtl_mode::model : it->second;
    }
    // The library for block `key`, or null.
    const library_path* library(std::string_view key) const
    {
        const auto it = libraries.find(key);
        return it == libraries.end() || it->second.given.empty() ? nullptr : &it->second;
    }
};

struct nic_config
{
    nic_kind type = nic_kind::uet;
    uet_nic_config uet;       // UetNic.*
    nscc_config nscc;         // UetNic.* (congestion control)
    entropy_config spraying;  // UetNic.* (packet spraying)
    roce_nic_config roce;     // RoceNic.*
    // UetNic.InitialBaseRTT: auto. The rules replace nscc.initial_base_rtt_s with the fabric's
    // unloaded round trip (testbench/elab/fabric_rtt.h) and clear the flag; nic_for does the same
    // for a device whose override says auto.
    bool initial_base_rtt_auto = false;
    // UetNic.EntropyLookupCycles / SackUpdateCycles: auto (the default): the latency of the block
    // the stage consults (testbench/elab/rtl_blocks.h). The rules fill in the section's cycles
    // and keep the flag, so that the fabric resolves each device's with its own Rtl keys
    // (resolve_stage_latencies).
    bool entropy_lookup_cycles_auto = true;
    bool sack_update_cycles_auto = true;
    // RTL engines (Rtl.EntropyLoadBalancer, Rtl.SackTracker) the testbench's block registry
    // injects for this device; empty: the C++ models. Not scenario keys.
    entropy_engine_factory make_entropy_engine;
    sack_tracker_factory make_sack_tracker;

    // The configuration of a NIC type added from outside (its keys' struct T), created with T's
    // defaults when first asked for; a const scenario without it reads T's defaults.
    template <class T>
    T& section()
    {
        std::any& a = m_sections[std::type_index(typeid(T))];
        if (!a.has_value()) a = T{};
        return std::any_cast<T&>(a);
    }
    template <class T>
    const T& section() const
    {
        static const T defaults{};
        const auto it = m_sections.find(std::type_index(typeid(T)));
        return it == m_sections.end() ? defaults : std::any_cast<const T&>(it->second);
    }

private:
    std::map<std::type_index, std::any> m_sections;
};

struct scenario;

// One key given for some devices only (Switch[leaf*].EcmpHashMethod: crc32): its value replaces the
// section's for each device whose name matches `glob` (fnmatch: *, ?, [..]). sim/ validates the
// value when it reads it; testbench/elab/instance_config.h resolves a device's configuration.
struct device_override
{
    std::string section;                   // Switch, UetNic, Pcie
    std::string glob;                      // leaf*
    std::string key;                       // the plain key path: Switch.EcmpHashMethod
    std::function<void(scenario&)> apply;  // stores the value into the section's struct
};

struct scenario
{
    simulation_config simulation;
    topology_config topology;
    link_config link;
    switch_config sw;
    nic_config nic;
    pcie_config pcie;
    rdma_app_config rdma;
    flows_config flows;
    chakra::chakra_config chakra;  // Chakra.*, Collectives
    std::vector<fault_spec> faults;
    records_config records;
    capture_config capture;
    trace_config trace;
    rtl_config rtl;
    // Applied over the sections above, in order (a later one wins), for matching devices only.
    std::vector<device_override> overrides;
};

}  // namespace uetsim
