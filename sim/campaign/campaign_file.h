// A campaign file (docs/campaign.md): how many random cases to run, the scenario every case
// starts from, the values each case draws one of (Draw), the workload patterns and sizes, and the
// fault schedule's kinds and ranges. Read and checked whole before any case runs: every problem
// is a config_error naming the file, the key and what is allowed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace uetsim::campaign {

enum class workload_pattern { permutation, incast, random_pairs, all_to_all, collective };
enum class fault_kind { flap, degrade, loss, storm, ber };

// The spellings, in the order docs/campaign.md lists them.
const std::vector<std::pair<std::string, workload_pattern>>& pattern_names();
const std::vector<std::pair<std::string, fault_kind>>& fault_kind_names();
std::string to_string(workload_pattern p);
std::string to_string(fault_kind k);

// A closed range [lo, hi] a case draws a number from.
struct range
{
    double lo = 0, hi = 0;
};

// Draw: one entry per key, a case takes one of its values. The key is a scenario key
// (Nic.Type) or a section (Topology) whose values are maps of that section's keys.
struct draw_entry
{
    std::string key;
    std::vector<YAML::Node> values;
};

struct campaign_spec
{
    std::string path;  // the campaign file, for messages
    uint32_t cases = 50;
    uint64_t seed = 1;
    double case_timeout_s = 300;    // wall time of one case before it counts as a hang
    double stall_timeout_s = 2e-3;  // Simulation.StallTimeout of every case
    YAML::Node base;                // scenario document every case starts from (a map)
    std::vector<draw_entry> draws;

    struct workload_spec
    {
        std::vector<workload_pattern> patterns = {workload_pattern::permutation};
        range messages{1, 8};                  // incast senders, random-pair messages
        range bytes{1024, 1 << 20};            // message size, B, drawn log-uniformly
        range start{0, 0};                     // random-pair start times, s
        std::vector<std::string> collectives;  // collective: Type values (AllReduce, ...)
    } workload;

    struct fault_spec
    {
        range count{0, 0};
        std::vector<fault_kind> kinds;
        range at{0, 100e-6};          // when a fault starts, s
        range duration{5e-6, 50e-6};  // how long a flap, degrade, loss or storm lasts, s
        range loss{0.001, 0.1};       // loss probability
        range rate{10e9, 100e9};      // degraded rate, bit/s
        range bit_error_rate{1e-9, 1e-6};
        uint32_t storm_class = 0;  // the traffic class a storm pauses
    } faults;
};

campaign_spec read_campaign_file(const std::string& path);

}  // namespace uetsim::campaign
