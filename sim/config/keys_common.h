// What the keys_<section>.cpp files share: the registration function of each section (called by
// scenario_keys.cpp in section order), the limits and text rules more than one section uses, and
// the failure of a rule between keys.
#pragma once

#include <cstdint>
#include <string>

#include "hw/common/value_range.h"
#include "sim/config/scenario_keys.h"

namespace uetsim::config {

inline constexpr uint64_t u32_max = 4'294'967'295ull;
inline constexpr uint64_t u64_max = 18'446'744'073'709'551'615ull;

// A range declared in hw's config headers (hw/common/value_range.h) as the schema's range.
inline int_range ints(value_range r)
{
    return {int64_t(r.lo), uint64_t(r.hi)};
}
inline real_range reals(value_range r)
{
    return {r.lo, r.hi};
}

// A link name (Faults, Capture.Links): two device names joined by '-', lower tier first.
extern const text_rule link_name;

// A path given in a scenario file is relative to the file's folder; one given with --set (no
// source) is relative to the working folder (Chakra.Traces, Rtl.<Block>Library).
std::string relative_to_source(const std::string& path, const std::string& source);
text_rule any_path();

// A rule between keys is broken: throws config_error(msg).
[[noreturn]] void fail_rule(const std::string& msg);

// A real as the key reference prints it (shortest round-trip form).
std::string num(double v);

// One per section, in section order: its keys, then its rules.
void add_simulation_keys(scenario_schema& s);
void add_topology_keys(scenario_schema& s);
void add_link_keys(scenario_schema& s);
void add_nic_keys(scenario_schema& s);
void add_switch_keys(scenario_schema& s);
void add_uet_nic_keys(scenario_schema& s);
void add_roce_nic_keys(scenario_schema& s);
void add_pcie_keys(scenario_schema& s);
void add_rdma_application_keys(scenario_schema& s);
void add_flows_keys(scenario_schema& s);
void add_chakra_keys(scenario_schema& s);
void add_faults_keys(scenario_schema& s);
// After Flows, the application and Chakra: the rules of a fabric of more than one Nic.Type.
void add_mixed_fabric_rules(scenario_schema& s);
void add_records_keys(scenario_schema& s);
void add_capture_keys(scenario_schema& s);
void add_trace_keys(scenario_schema& s);
void add_rtl_keys(scenario_schema& s);

}  // namespace uetsim::config
