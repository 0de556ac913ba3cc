#include "testbench/elab/computed_routes.h"

#include <stdexcept>

namespace uetsim {

namespace {

std::vector<uint16_t> port_range(uint32_t first, uint32_t count)
{
    std::vector<uint16_t> ports(count);
    for (uint32_t i = 0; i < count; ++i) ports[i] = uint16_t(first + i);
    return ports;
}

// A switch whose hosts [first, first + count) go down, `block` hosts per port (port p serves
// block p, `per_block` parallel ports from down_first + p * per_block), and every other host up
// over `up_count` ports from up_first. The breadth-first build numbers sets by the first host
// that uses them: the uplink set comes first when hosts below `first` exist, else last.
routing_table down_up(uint32_t hosts, uint32_t first, uint32_t count, uint32_t block,
                      uint32_t down_first, uint32_t per_block, uint32_t up_first, uint32_t up_count)
{
    routing_table rt;
    const bool others = count < hosts && up_count > 0;
    host_blocks rule{hosts, first, count, block, 0, routing_table::no_route};
    if (others && first > 0) rule.other_set = rt.add_set(port_range(up_first, up_count));
    rule.first_set = int32_t(rt.set_count());
    for (uint32_t b = 0; b < count / block; ++b)
        rt.add_set(port_range(down_first + b * per_block, per_block));
    if (others && first == 0) rule.other_set = rt.add_set(port_range(up_first, up_count));
    rt.map_hosts(rule);
    return rt;
}

}  // namespace

bool has_computed_routes(const topology& t)
{
    return t.shape.kind == topology_kind::leaf_spine || t.shape.kind == topology_kind::fat_tree;
}

routing_table computed_routes(const topology& t, uint32_t s)
{
    const topology_config& c = t.shape;
    const uint32_t hosts = t.hosts;
    if (c.kind == topology_kind::leaf_spine) {
        // Leaves first (ports: its hosts, then per spine its parallel uplinks), then spines
        // (ports: per leaf its parallel links).
        const uint32_t per_leaf = c.hosts_per_leaf, leaves = hosts / per_leaf;
        const uint32_t ups = c.uplinks_per_spine;
        if (s < leaves)
            return down_up(hosts, s * per_leaf, per_leaf, 1, 0, 1, per_leaf, c.spines * ups);
        return down_up(hosts, 0, hosts, per_leaf, 0, ups, 0, 0);
    }
    if (c.kind == topology_kind::fat_tree) {
        // Edges, aggregations (k/2 per pod each), then cores: ports down first, then up.
        const uint32_t k = c.k, half = k / 2, pod_hosts = half * half;
        if (s < k * half) return down_up(hosts, s * half, half, 1, 0, 1, half, half);
        s -= k * half;
        if (s < k * half)
            return down_up(hosts, (s / half) * pod_hosts, pod_hosts, half, 0, 1, half, half);
        return down_up(hosts, 0, hosts, pod_hosts, 0, 1, 0, 0);
    }
    throw std::logic_error("computed_routes: no computed routes for this topology kind");
}

}  // namespace uetsim
