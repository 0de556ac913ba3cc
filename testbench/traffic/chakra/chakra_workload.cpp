#include "testbench/traffic/chakra/chakra_workload.h"

#include <fmt/format.h>

#include "testbench/run/run_input_error.h"
#include "testbench/traffic/chakra/collectives_list.h"
#include "testbench/traffic/chakra/et_reader.h"
#include "testbench/traffic/chakra/trace_preparation.h"

namespace uetsim::chakra {

loaded_workload load_workload(const chakra_config& cfg, uint32_t host_count)
{
    loaded_workload w;
    try {
        w.traces = cfg.traces.empty() ? collectives_traceset(cfg, host_count, "Collectives")
                                      : read_traceset(cfg.traces.resolved);
        const uint32_t ranks = uint32_t(w.traces.ranks.size());
        if (ranks > host_count)
            throw run_input_error(fmt::format(
                "Chakra.Traces: the traceset {} has {} ranks but the topology has {} hosts: "
                "give the topology at least as many hosts as ranks (Topology.Hosts)",
                cfg.traces.given, ranks, host_count));
        w.prepared = prepare_traces(w.traces, cfg);
        w.placement.host.resize(ranks);
        w.placement.group.assign(ranks, -1);
        w.placement.subgroup.assign(ranks, -1);
        for (uint32_t r = 0; r < ranks; ++r) w.placement.host[r] = r;
        if (!cfg.mapping_file.empty() && cfg.use_mapping) {
            mapping m = read_mapping_file(cfg.mapping_file.resolved);
            check_mapping(m, ranks, host_count, cfg.mapping_file.given);
            for (uint32_t r = 0; r < ranks; ++r) {
                const mapping_entry& e = m.by_rank[r];
                w.placement.host[r] = e.server;
                if (e.group) {
                    w.placement.group[r] = *e.group;
                    w.placement.subgroup[r] = *e.subgroup;
                }
            }
            w.map = std::move(m);
        }
        if (ranks < host_count)
            w.notes.push_back(fmt::format(
                "the Chakra workload has {} ranks on a topology of {} hosts: {} hosts run no "
                "rank and stay idle",
                ranks, host_count, host_count - ranks));
        for (const std::string& warning : w.prepared.warnings)
            w.notes.push_back("trace preparation: " + warning);
        if (w.prepared.warnings_total > w.prepared.warnings.size())
            w.notes.push_back(
                fmt::format("trace preparation: {} more warning(s) not shown "
                            "(Chakra.MaxCountWarningsLoggedPerInstance)",
                            w.prepared.warnings_total - w.prepared.warnings.size()));
    } catch (const trace_error& e) {
        throw run_input_error(std::string("Chakra trace: ") + e.what());
    } catch (const mapping_error& e) {
        throw run_input_error(std::string("Chakra.MappingFile: ") + e.what());
    }
    return w;
}

}  // namespace uetsim::chakra
