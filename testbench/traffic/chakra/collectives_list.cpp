#include "testbench/traffic/chakra/collectives_list.h"

#include <cmath>
#include <map>

namespace uetsim::chakra {

traceset collectives_traceset(const chakra_config& cfg, uint32_t host_count,
                              const std::string& prefix)
{
    traceset ts;
    ts.prefix = prefix;
    ts.ranks.resize(host_count);
    for (uint32_t r = 0; r < host_count; ++r) {
        ts.ranks[r].rank = r;
        ts.ranks[r].file = prefix + "." + std::to_string(r) + ".et";
    }
    // One process group per distinct member list, named "0", "1", ... in order of first use.
    std::map<std::vector<uint32_t>, std::string> group_names;
    std::vector<process_group> groups;
    for (size_t i = 0; i < cfg.collectives.size(); ++i) {
        const collective_spec& e = cfg.collectives[i];
        const std::vector<uint32_t> members = e.ranks.resolve(host_count);
        auto [it, added] = group_names.emplace(members, std::to_string(groups.size()));
        if (added) groups.push_back({it->second, members});
        const std::string entry = "Collectives[" + std::to_string(i) + "]";
        const uint64_t start_us = uint64_t(std::llround(e.start_s * 1e6));
        for (uint32_t h : members) {
            rank_trace& t = ts.ranks[h];
            std::optional<uint64_t> previous;
            auto add = [&](node n) {
                n.id = t.nodes.size();
                if (previous) n.data_deps.push_back(*previous);
                previous = n.id;
                t.nodes.push_back(std::move(n));
            };
            if (start_us) {
                node wait;
                wait.name = entry + ".Start";
                wait.type = node_type::mem_load;
                wait.duration_micros = start_us;
                add(std::move(wait));
            }
            for (uint32_t k = 0; k < e.iterations; ++k) {
                node c;
                c.name = entry + " " + collective_name(e.type) + " " + std::to_string(k);
                c.type = node_type::comm_coll;
                c.comm_type = int64_t(e.type);
                c.comm_size = e.bytes;
                c.pg_name = it->second;
                if (e.root >= 0) c.root = e.root;
                if (!e.algorithm.empty()) c.algorithm = e.algorithm;
                add(std::move(c));
            }
        }
    }
    // Every rank declares every group (a rank uses only those it belongs to).
    for (rank_trace& t : ts.ranks) t.groups = groups;
    return ts;
}

}  // namespace uetsim::chakra
