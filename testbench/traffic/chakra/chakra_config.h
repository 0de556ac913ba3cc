// The Chakra workload's scenario sections as resolved: Chakra.* (the ChakraConfiguration
// attributes of the Chakra configuration page, plus Chakra.Traces and Chakra.MappingFile) and
// the Collectives list, which builds the same kind of traceset without files.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "testbench/traffic/chakra/collective_plan.h"
#include "tlm/delivery_mode.h"
#include "testbench/traffic/chakra/trace_model.h"

namespace uetsim::chakra {

// TraceFamily: whether concurrent compute nodes of a rank share its NPU.
enum class trace_family { synthesized, compiled, collected };

// Ranks of one Collectives entry: every host, a list of hosts, or the range From..To.
struct rank_selection
{
    enum class kind { all, list, range } form = kind::all;
    std::vector<uint32_t> hosts;  // list
    uint32_t from = 0, to = 0;    // range, both included

    // The hosts, in order, for a topology of `host_count` hosts.
    std::vector<uint32_t> resolve(uint32_t host_count) const
    {
        std::vector<uint32_t> out;
        switch (form) {
            case kind::all:
                for (uint32_t h = 0; h < host_count; ++h) out.push_back(h);
                break;
            case kind::list:
                out = hosts;
                break;
            case kind::range:
                for (uint32_t h = from; h <= to; ++h) out.push_back(h);
                break;
        }
        return out;
    }
};

// One entry of the Collectives list: `iterations` collectives of one type, one after another, on
// `ranks`, from `start_s`.
struct collective_spec
{
    collective_type type = collective_type::all_reduce;
    uint64_t bytes = 0;
    rank_selection ranks;
    std::string algorithm;  // empty: Chakra.<Type>Algorithm
    uint32_t iterations = 1;
    double start_s = 0;
    int64_t root = -1;  // a host of `ranks`; -1: the group's first rank
};

// A file a scenario names: as given, and resolved against the scenario file's folder.
struct scenario_path
{
    std::string given;
    std::string resolved;
    bool empty() const { return given.empty(); }
};

struct chakra_config
{
    scenario_path traces;        // Chakra.Traces: the traceset prefix
    scenario_path mapping_file;  // Chakra.MappingFile
    bool use_mapping = true;     // UseMapping
    // <Type>Algorithm, by collective_type value.
    std::array<algorithm, k_collective_types> algorithms = {
        algorithm::ring,   algorithm::ring,        algorithm::ring,        algorithm::direct,
        algorithm::direct, algorithm::interleaved, algorithm::interleaved, algorithm::ring,
        algorithm::ring,   algorithm::ring};
    bool process_group_serialization = true;
    bool comm_collective_synchronization = true;
    bool use_max_as_comm_collective_start_time = true;
    bool abort_on_chakra_warning = false;
    uint32_t max_count_warnings_logged_per_instance = 30000;
    trace_family family = trace_family::synthesized;
    bool scaling = false;
    double scaling_factor = 1.0;
    bool profiling_enabled = false;
    double profiling_interval_s = 0.001;
    uint64_t scale_up_header_size = 24;
    uint64_t scale_up_max_payload_size = 4096;
    bool scale_up_stats_enabled = false;
    // RdmaDataPacketTC of the transfers.
    uint8_t traffic_class = 0;
    delivery_mode mode = delivery_mode::rud;  // Chakra.Mode: the transfers' PDS delivery mode
    uint32_t job_id = 0;  // Chakra.JobId: the JobID of the transfers' requests (UET)

    std::vector<collective_spec> collectives;  // the Collectives list

    bool enabled() const { return !traces.empty() || !collectives.empty(); }
    algorithm algorithm_for(collective_type t) const { return algorithms[size_t(t)]; }
};

}  // namespace uetsim::chakra
