#include "testbench/elab/scale_estimate.h"

#include <unistd.h>

namespace uetsim {

scale_estimate estimate_scale(const topology_config& t, uint64_t bytes_per_host)
{
    scale_estimate e;
    switch (t.kind) {
        case topology_kind::single_switch:
            e.hosts = t.hosts;
            e.switches = 1;
            e.switch_ports = t.hosts;
            break;
        case topology_kind::leaf_spine: {
            // Leaf: its hosts and Spines x UplinksPerSpine uplinks; spine: the other ends.
            e.hosts = t.hosts;
            const uint64_t leaves = t.hosts_per_leaf ? t.hosts / t.hosts_per_leaf : 0;
            e.switches = leaves + t.spines;
            e.switch_ports = e.hosts + 2 * leaves * t.spines * t.uplinks_per_spine;
            break;
        }
        case topology_kind::fat_tree: {
            // K^3/4 hosts; 5K^2/4 switches of K ports.
            const uint64_t k = t.k;
            e.hosts = k * k * k / 4;
            e.switches = 5 * k * k / 4;
            e.switch_ports = e.switches * k;
            break;
        }
    }
    e.bytes =
        scale_bytes_fixed + e.hosts * bytes_per_host + e.switch_ports * scale_bytes_per_switch_port;
    return e;
}

uint64_t physical_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

}  // namespace uetsim
