#include "testbench/traffic/chakra/chakra_inspect.h"

namespace uetsim::chakra {

nlohmann::ordered_json chakra_json(const loaded_workload& w, double link_bps)
{
    const prepared_workload& p = w.prepared;
    nlohmann::ordered_json j;
    j["ranks"] = p.ranks.size();
    j["traceset"] = w.traces.prefix;
    j["placement"] = w.placement.host;
    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (const prepared_group& g : p.groups)
        groups.push_back({{"name", g.name}, {"ranks", g.ranks}});
    j["process_groups"] = groups;
    nlohmann::ordered_json colls = nlohmann::ordered_json::array();
    for (const collective_instance& c : p.collectives) {
        const collective_plan& plan = p.plan_of(c);
        const uint32_t n = uint32_t(p.groups[c.group].ranks.size());
        nlohmann::ordered_json e = {
            {"id", c.id},
            {"type", collective_name(c.type)},
            {"algorithm", algorithm_name(c.alg)},
            {"process_group", p.groups[c.group].name},
            {"group_size", n},
            {"comm_size", c.comm_size},
            {"root", p.groups[c.group].ranks[c.root_position]},
            {"transfers", plan.transfers()},
            {"bytes", plan.bytes()},
            {"steps", plan.max_steps()},
            {"synchronization_transfers",
             c.synchronized ? p.plans[c.barrier_plan]->transfers() : 0},
        };
        if (c.type == collective_type::barrier)
            e["ideal_time_s"] = nullptr;
        else
            e["ideal_time_s"] = ideal_time_s(c.type, c.alg, n, c.comm_size, link_bps);
        colls.push_back(std::move(e));
    }
    j["collectives"] = colls;
    j["totals"] = {{"sends", p.total_sends},
                   {"receives", p.total_recvs},
                   {"send_bytes", p.total_send_bytes},
                   {"computations", p.total_computations}};
    j["warnings"] = p.warnings;
    return j;
}

}  // namespace uetsim::chakra
