#include "testbench/elab/scale_estimate.h"

#include <unistd.h>

namespace uetsim {

uint64_t scale_bytes_per_host(nic_kind nic)
{
    switch (nic) {
        case nic_kind::raw:
            return 8'000;
        case nic_kind::uet:
        case nic_kind::roce:
            break;
    }
    // 8,192-host fat trees and leaf-spines and K = 64 with UET or RoCE NICs, with PFC state
    // made on first use and ports that are not modules: about 36 KB per host (its NIC, host
    // memory, PCIe link and host interface; RoCE about 34 KB).
    return 38'000;
}

scale_estimate estimate_scale(const topology_config& t, nic_kind nic)
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
    e.bytes = scale_bytes_fixed + e.hosts * scale_bytes_per_host(nic) +
              e.switch_ports * scale_bytes_per_switch_port;
    return e;
}

uint64_t physical_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

}  // namespace uetsim
