// The Chakra workload: Chakra.* (the ChakraConfiguration attributes of the Chakra configuration
// page, the traceset and the mapping file) and the Collectives list, with the rules that make
// either one the run's only application and derive its stop time.
#include "sim/config/keys_common.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/topology.h"
#include "testbench/traffic/chakra/collective_plan.h"

namespace uetsim::config {

namespace {

using chakra::algorithm;
using chakra::collective_type;
using chakra::rank_selection;

const std::vector<std::pair<std::string, collective_type>>& type_spellings()
{
    static const std::vector<std::pair<std::string, collective_type>> v = [] {
        std::vector<std::pair<std::string, collective_type>> out;
        for (int t = 0; t < chakra::k_collective_types; ++t)
            out.push_back({chakra::collective_name(collective_type(t)), collective_type(t)});
        return out;
    }();
    return v;
}

std::vector<std::pair<std::string, algorithm>> algorithm_spellings(collective_type t)
{
    std::vector<std::pair<std::string, algorithm>> out;
    for (algorithm a : chakra::algorithms_for(t)) out.push_back({chakra::algorithm_name(a), a});
    return out;
}

// Ranks: all | [0, 2, 5] | {From: 0, To: 7}.
rank_selection read_ranks(const YAML::Node& n, const value_context& c)
{
    const char* what = "all, a list of host numbers such as [0, 1, 2, 3], or {From: 0, To: 7}";
    rank_selection r;
    if (n.IsScalar()) {
        if (n.Scalar() == "all") return r;
        YAML::Node parsed;
        try {
            parsed = YAML::Load(n.Scalar());
        } catch (const YAML::Exception&) {
            fail(n, c, "'" + n.Scalar() + "' is not " + what);
        }
        if (parsed.IsScalar()) fail(n, c, "'" + n.Scalar() + "' is not " + what);
        return read_ranks(parsed, c);
    }
    auto host = [&](const YAML::Node& v, const std::string& name) {
        return uint32_t(detail::read_int(v, {name, c.source}, {0, u32_max}));
    };
    if (n.IsSequence()) {
        r.form = rank_selection::kind::list;
        for (size_t i = 0; i < n.size(); ++i)
            r.hosts.push_back(host(n[i], c.name + "[" + std::to_string(i) + "]"));
        if (r.hosts.empty()) fail(n, c, "the list is empty; give " + std::string(what));
        return r;
    }
    if (n.IsMap()) {
        r.form = rank_selection::kind::range;
        if (!n["From"] || !n["To"] || n.size() != 2) fail(n, c, std::string("expected ") + what);
        r.from = host(n["From"], c.name + ".From");
        r.to = host(n["To"], c.name + ".To");
        if (r.to < r.from)
            fail(
                n, c,
                "To (" + std::to_string(r.to) + ") is below From (" + std::to_string(r.from) + ")");
        return r;
    }
    fail(n, c, std::string("expected ") + what);
}

YAML::Node ranks_yaml(const rank_selection& r)
{
    switch (r.form) {
        case rank_selection::kind::all:
            return YAML::Node("all");
        case rank_selection::kind::range: {
            YAML::Node m(YAML::NodeType::Map);
            m["From"] = r.from;
            m["To"] = r.to;
            m.SetStyle(YAML::EmitterStyle::Flow);
            return m;
        }
        case rank_selection::kind::list:
            break;
    }
    YAML::Node seq(YAML::NodeType::Sequence);
    for (uint32_t h : r.hosts) seq.push_back(h);
    seq.SetStyle(YAML::EmitterStyle::Flow);
    return seq;
}

nlohmann::ordered_json ranks_json(const rank_selection& r)
{
    switch (r.form) {
        case rank_selection::kind::all:
            return "all";
        case rank_selection::kind::range:
            return {{"From", r.from}, {"To", r.to}};
        case rank_selection::kind::list:
            break;
    }
    return r.hosts;
}

// A file path key: the text as given, resolved against the scenario file's folder.
chakra::scenario_path read_path(const YAML::Node& n, const value_context& c)
{
    chakra::scenario_path p;
    p.given = detail::read_text(n, c, any_path());
    p.resolved = relative_to_source(p.given, c.source);
    return p;
}

key_table<chakra::collective_spec> collective_keys()
{
    key_table<chakra::collective_spec> t;
    t.choice("Type", UETSIM_FIELD(type), type_spellings(), "The collective.").required();
    t.bytes("Bytes", UETSIM_FIELD(bytes), {0, 1ull << 40},
            "The collective's size S as a Chakra trace's comm_size gives it (AllReduce: the "
            "buffer every rank reduces; AllGather and Gather: what each rank contributes; "
            "AllToAll: what each rank sends in all). A Barrier moves no data.");
    t.custom("Ranks", UETSIM_FIELD(ranks), "all, a list of host numbers, or {From: host, To: host}",
             read_ranks, ranks_yaml, ranks_json,
             "The process group, in the order the algorithm uses: rank r is host r.");
    t.text("Algorithm", UETSIM_FIELD(algorithm),
           {"one of the type's algorithms, or empty for Chakra.<Type>Algorithm",
            [](const std::string& s) -> std::optional<std::string> {
                if (s.empty() || chakra::parse_algorithm(s)) return std::nullopt;
                return "is not an algorithm (ring, tree, double-tree, halving-doubling, halving, "
                       "sequential, interleaved, direct)";
            }},
           "The algorithm; empty: the Chakra section's <Type>Algorithm.");
    t.integer("Iterations", UETSIM_FIELD(iterations), {1, 1000000},
              "How many times the collective runs, one after another on each rank.");
    t.time("Start", UETSIM_FIELD(start_s), {0, 100},
           "When the first iteration starts on each rank, after Simulation.StartTime; whole "
           "microseconds (a Chakra memory node of that duration holds it back).");
    t.integer("Root", UETSIM_FIELD(root), {-1, u32_max},
              "Broadcast, Gather, Scatter, Reduce: the root host (one of Ranks); -1: the "
              "group's first rank.");
    return t;
}

}  // namespace

void add_chakra_keys(scenario_schema& s)
{
    auto& k = s.keys;
    auto path_yaml = [](const chakra::scenario_path& p) { return YAML::Node(p.given); };
    auto path_json = [](const chakra::scenario_path& p) { return nlohmann::ordered_json(p.given); };
    k.custom("Chakra.Traces", UETSIM_FIELD(chakra.traces), "a traceset prefix", read_path,
             path_yaml, path_json,
             "The Chakra execution traces to replay: the files <prefix>.<rank>.et for ranks "
             "0..N-1, the prefix relative to the scenario file's folder. Makes the Chakra "
             "workload the run's only application; empty: no traces.");
    k.custom("Chakra.MappingFile", UETSIM_FIELD(chakra.mapping_file), "a file path", read_path,
             path_yaml, path_json,
             "A Chakra mapping file (docs/collectives.md): which host runs each rank, and the "
             "scale-up groups; relative to the scenario file's folder. Empty: ranks in order.");
    k.boolean("Chakra.UseMapping", UETSIM_FIELD(chakra.use_mapping),
              "Place ranks by Chakra.MappingFile when one is given (ranks are placed in order "
              "without one, whatever this says).");
    struct named
    {
        const char* key;
        collective_type type;
    };
    for (const named& n : {named{"AllReduceAlgorithm", collective_type::all_reduce},
                           {"ReduceAlgorithm", collective_type::reduce},
                           {"AllGatherAlgorithm", collective_type::all_gather},
                           {"ReduceScatterAlgorithm", collective_type::reduce_scatter},
                           {"ReduceScatterBlockAlgorithm", collective_type::reduce_scatter_block},
                           {"BroadcastAlgorithm", collective_type::broadcast},
                           {"GatherAlgorithm", collective_type::gather},
                           {"ScatterAlgorithm", collective_type::scatter},
                           {"AllToAllAlgorithm", collective_type::all_to_all},
                           {"BarrierAlgorithm", collective_type::barrier}}) {
        const size_t i = size_t(n.type);
        k.choice(
            std::string("Chakra.") + n.key,
            [i](auto& o) -> auto& { return o.chakra.algorithms[i]; }, algorithm_spellings(n.type),
            std::string("The algorithm that expands every ") + chakra::collective_name(n.type) +
                " (docs/collectives.md).");
    }
    k.choice(
        "Chakra.Mode", UETSIM_FIELD(chakra.mode),
        {{"RUD", delivery_mode::rud}, {"ROD", delivery_mode::rod}, {"RUDI", delivery_mode::rudi}},
        "Nic.Type uet only: the PDS delivery mode of every transfer of the Chakra workload "
        "(Chakra.Traces or Collectives); RUDI: no PDC at the target, a RUDI_RESP "
        "per packet. UUD (unacknowledged, lossy) is for Flows only "
        "(docs/delivery-modes.md).",
        {"UUD"});
    k.integer("Chakra.JobId", UETSIM_FIELD(chakra.job_id), {0, 16777215},
              "Nic.Type uet only: the JobID (24 bits) of the workload, carried in the SES header "
              "of every transfer's requests (docs/jobs-and-profiles.md).");
    k.boolean("Chakra.ProcessGroupSerialization", UETSIM_FIELD(chakra.process_group_serialization),
              "Each rank runs at most one collective of a process group at a time, in node id "
              "order (the sends that name the group are ordered with them).");
    k.boolean("Chakra.CommCollectiveSynchronization",
              UETSIM_FIELD(chakra.comm_collective_synchronization),
              "Every rank of a process group passes a zero-byte tree barrier (2(N-1) transfers) "
              "before each of the group's collectives.");
    k.boolean("Chakra.UseMaxAsCommCollectiveStartTime",
              UETSIM_FIELD(chakra.use_max_as_comm_collective_start_time),
              "The collective records take a collective's start as its participants' latest "
              "start (true) or earliest (false). Records only.");
    k.boolean("Chakra.AbortOnChakraWarning", UETSIM_FIELD(chakra.abort_on_chakra_warning),
              "A warning of trace preparation stops the run before the simulation starts.");
    k.integer("Chakra.MaxCountWarningsLoggedPerInstance",
              UETSIM_FIELD(chakra.max_count_warnings_logged_per_instance), {0, 40000},
              "Warning lines printed per trace-preparation step (every warning is counted).");
    k.choice("Chakra.TraceFamily", UETSIM_FIELD(chakra.family),
             {{"synthesized", chakra::trace_family::synthesized},
              {"compiled", chakra::trace_family::compiled},
              {"collected", chakra::trace_family::collected}},
             "synthesized and compiled: compute nodes running at once on a rank share its NPU "
             "equally; collected: each runs for its recorded duration.");
    k.boolean("Chakra.Scaling", UETSIM_FIELD(chakra.scaling),
              "Multiply every comm_size and durationMicros by ScalingFactor (truncated).");
    k.real("Chakra.ScalingFactor", UETSIM_FIELD(chakra.scaling_factor), {0, 1},
           "The factor of Scaling.");
    k.boolean("Chakra.ProfilingEnabled", UETSIM_FIELD(chakra.profiling_enabled),
              "Each rank writes a profiling file listing its running nodes every "
              "ProfilingInterval.");
    k.time("Chakra.ProfilingInterval", UETSIM_FIELD(chakra.profiling_interval_s), {0, 100, true},
           "Simulated time between the profiling file's blocks.");
    k.bytes("Chakra.ScaleUpHeaderSize", UETSIM_FIELD(chakra.scale_up_header_size), {0, 64ull << 20},
            "Header bytes of each scale-up packet.");
    k.bytes("Chakra.ScaleUpMaxPayloadSize", UETSIM_FIELD(chakra.scale_up_max_payload_size),
            {1, 64ull << 20}, "Data bytes of one scale-up packet at most.");
    k.boolean("Chakra.ScaleUpStatsEnabled", UETSIM_FIELD(chakra.scale_up_stats_enabled),
              "Every rank of a scale-up group gets a ChakraScaleUpNetDevice row in nd-stats.");

    k.table("Collectives", UETSIM_FIELD(chakra.collectives), collective_keys(),
            "{Type: AllReduce, Bytes: 64MiB, Ranks: all}",
            "Built-in collectives, no trace file needed: each entry becomes COMM_COLL_NODEs of a "
            "traceset with one rank per host (uetsim chakra-gen writes it), replayed and "
            "recorded like Chakra.Traces.");

    s.rules.push_back(
        {"Chakra.Traces or Collectives makes the Chakra workload the run's only application: "
         "not with Flows or RdmaApplication.Enabled: true, on uet or roce NICs; Chakra.Traces "
         "and Collectives exclude each other; each Collectives entry's ranks are distinct hosts "
         "of the topology, its Root one of them, its Algorithm one of its type's and its Start "
         "whole microseconds; the stop time is Simulation.StartTime + WarmUp + RunTime + "
         "CoolDown (or StopTime if given and earlier).",
         {"Chakra.Traces", "Collectives", "Flows", "RdmaApplication.Enabled", "Nic.Type",
          "Topology.Hosts", "Simulation.StartTime", "Simulation.WarmUp", "Simulation.RunTime",
          "Simulation.CoolDown", "Simulation.StopTime", "RdmaApplication.RdmaDataPacketTC"},
         [enabled = s.keys.key("RdmaApplication.Enabled").info.path,
          stop_time = s.keys.key("Simulation.StopTime").info.path](scenario& sc,
                                                                   const given_keys& given) {
             auto& c = sc.chakra;
             if (!c.enabled()) return;
             const char* what = c.traces.empty() ? "Collectives" : "Chakra.Traces";
             if (!c.traces.empty() && !c.collectives.empty())
                 fail_rule(
                     "Chakra.Traces and Collectives are both given: the run replays one "
                     "workload; give the traces or the list");
             if (!sc.flows.messages.empty())
                 fail_rule(std::string(what) +
                           " is given with Flows: the Chakra workload is the only application "
                           "of its run; remove Flows");
             if (sc.rdma.enabled && given.count(enabled))
                 fail_rule(std::string(what) +
                           " is given with RdmaApplication.Enabled: true: the Chakra workload "
                           "is the only application of its run");
             sc.rdma.enabled = false;
             if (fabric_nic(sc, host_count(sc.topology)).type == nic_kind::raw)
                 fail_rule(std::string("Nic.Type is raw but ") + what +
                           " sends its transfers as RDMA WRITEs: set Nic.Type: uet or roce");
             c.traffic_class = sc.rdma.data_tc;
             const uint32_t hosts = host_count(sc.topology);
             for (size_t i = 0; i < c.collectives.size(); ++i) {
                 const auto& e = c.collectives[i];
                 const std::string name = "Collectives[" + std::to_string(i) + "]";
                 const std::vector<uint32_t> ranks = e.ranks.resolve(hosts);
                 std::vector<uint32_t> sorted = ranks;
                 std::sort(sorted.begin(), sorted.end());
                 for (size_t j = 0; j < sorted.size(); ++j) {
                     if (sorted[j] >= hosts)
                         fail_rule(name + ".Ranks: host " + std::to_string(sorted[j]) +
                                   " is out of range 0.." + std::to_string(hosts - 1) +
                                   " (the topology has " + std::to_string(hosts) + " hosts)");
                     if (j && sorted[j] == sorted[j - 1])
                         fail_rule(name + ".Ranks: host " + std::to_string(sorted[j]) +
                                   " is listed twice");
                 }
                 if (e.root >= 0 &&
                     std::find(ranks.begin(), ranks.end(), uint32_t(e.root)) == ranks.end())
                     fail_rule(name + ".Root: " + std::to_string(e.root) +
                               " is not one of the entry's Ranks");
                 if (!e.algorithm.empty()) {
                     const auto a = chakra::parse_algorithm(e.algorithm);
                     if (!chakra::allows(e.type, *a)) {
                         std::string allowed;
                         for (algorithm x : chakra::algorithms_for(e.type))
                             allowed += std::string(allowed.empty() ? "" : ", ") +
                                        chakra::algorithm_name(x);
                         fail_rule(name + ".Algorithm: " + e.algorithm +
                                   " is not an algorithm of " + chakra::collective_name(e.type) +
                                   " (allowed: " + allowed + ")");
                     }
                 }
                 const double us = e.start_s * 1e6;
                 if (std::fabs(us - std::round(us)) > 1e-6)
                     fail_rule(name + ".Start: " + format_quantity(e.start_s, dimension::time) +
                               " is not a whole number of microseconds");
             }
             const auto& t = sc.simulation.timeline;
             const double stop = t.start_time + t.warm_up + t.run_time + t.cool_down;
             if (!(stop > t.start_time))
                 fail_rule(
                     "Simulation.WarmUp + RunTime + CoolDown = 0s: the Chakra workload's "
                     "run must last longer than 0s after Simulation.StartTime");
             sc.simulation.stop_time_s =
                 given.count(stop_time) ? std::min(sc.simulation.stop_time_s, stop) : stop;
         }});
}

}  // namespace uetsim::config
