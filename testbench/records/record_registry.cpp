// The list of records (build order) and what is derived from it: Records.Enabled's names and
// default, file names, headers.
#include "testbench/records/record_registry.h"

#include <algorithm>
#include <stdexcept>

#include "testbench/run/manifest.h"
#include "testbench/records/application_report_record.h"
#include "testbench/records/chakra_records.h"
#include "testbench/records/cpu_mem_stats_record.h"
#include "testbench/records/ecn_pfc_stats_record.h"
#include "testbench/records/flow_perf_record.h"
#include "testbench/records/lb_stats_record.h"
#include "testbench/records/link_stats_record.h"
#include "testbench/records/nd_stats_record.h"
#include "testbench/records/net_buff_stats_record.h"
#include "testbench/records/nic_pipeline_record.h"
#include "testbench/records/pcie_records.h"
#include "testbench/records/perf_record.h"
#include "testbench/records/rdma_records.h"
#include "testbench/records/roce_records.h"
#include "testbench/records/switch_buffer_records.h"
#include "testbench/records/tier_hop_record.h"
#include "testbench/records/topology_report_record.h"
#include "testbench/records/uet_events_record.h"
#include "testbench/records/uet_records.h"

namespace uetsim {

namespace {

std::vector<const record_def*>& mutable_record_registry()
{
    // One record a line.
    // clang-format off
    static std::vector<const record_def*> r = {
        &nd_stats_record(),
        &lb_stats_record(),
        &flow_perf_record(),
        &pcie_stats_record(),
        &uet_transport_record_def(),
        &roce_transport_record_def(),
        &uet_monitor_record_def(),
        &uet_events_record_def(),
        &nic_pipeline_record_def(),
        &ecn_pfc_stats_record(),
        &switch_agg_buff_record(),
        &switch_buff_record(),
        &net_buff_stats_record(),
        &topology_report_record(),
        &tier_hop_record(),
        &link_stats_record(),
        &cpu_mem_stats_record(),
        &rdma_perf_record(),
        &beacon_record(),
        &application_report_record(),
        &perf_record(),
        &chakra_capable_hosts_record(),
        &chakra_mapping_record(),
        &chakra_apps_record(),
        &chakra_perf_record(),
        &chakra_completion_stats_record(),
        &chakra_cdf_record(),
        &chakra_collective_stats_record(),
        &chakra_collective_percentiles_record(),
        &chakra_busbw_record(),
        &manifest_record(),
    };
    // clang-format on
    return r;
}

}  // namespace

const std::vector<const record_def*>& record_registry()
{
    return mutable_record_registry();
}

void add_record(const record_def& r)
{
    if (find_record(r.name)) throw std::logic_error("record " + r.name + " is declared twice");
    if (r.enabled_position >= 0)
        throw std::logic_error("record " + r.name +
                               " from outside cannot be listed in Records.Enabled; its applies "
                               "says when it is written");
    std::vector<const record_def*>& all = mutable_record_registry();
    all.insert(all.end() - 1, &r);  // the manifest stays last
}

const record_def* find_record(const std::string& name)
{
    for (const record_def* r : record_registry())
        if (r->name == name) return r;
    return nullptr;
}

std::string record_def::file_name(const std::string& sim_name) const
{
    return sim_name + "-" + name + (csv ? "-0.csv" : ".json");
}

std::vector<std::string> record_def::header() const
{
    std::vector<std::string> h;
    for (const auto& c : columns) h.push_back(c.name);
    return h;
}

bool record_wanted(const record_def& r, const record_context& ctx)
{
    if (r.enabled_position >= 0) {
        const auto& e = ctx.sc.records.enabled;
        if (std::find(e.begin(), e.end(), r.name) == e.end()) return false;
    }
    return r.applies(ctx);
}

const std::vector<std::string>& enabled_record_names()
{
    // Records.Enabled keeps its published order (pcie-stats came last), which the resolved
    // scenario in every manifest shows; the registry itself is in build order.
    static const std::vector<std::string> names = [] {
        std::vector<const record_def*> listed;
        for (const record_def* r : record_registry())
            if (r->enabled_position >= 0) listed.push_back(r);
        std::stable_sort(listed.begin(), listed.end(), [](const auto* a, const auto* b) {
            return a->enabled_position < b->enabled_position;
        });
        std::vector<std::string> n;
        for (const record_def* r : listed) n.push_back(r->name);
        return n;
    }();
    return names;
}

std::vector<std::pair<std::string, std::string>> renamed_records()
{
    std::vector<std::pair<std::string, std::string>> r;
    for (const record_def* d : record_registry())
        if (!d->old_name.empty()) r.emplace_back(d->old_name, d->name);
    return r;
}

std::vector<std::string> default_enabled_records()
{
    std::vector<std::string> n;
    for (const std::string& name : enabled_record_names())
        if (find_record(name)->on_by_default) n.push_back(name);
    return n;
}

}  // namespace uetsim
