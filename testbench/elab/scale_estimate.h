// What a topology costs in memory before a packet moves, from its shape alone (no build): hosts,
// switch ports, and the bytes each takes, as measured at 8,192 hosts and K = 64
// (docs/performance.md, "Scale"). The configuration refuses a fabric that would not fit the
// machine's physical memory instead of letting it swap or be killed half way through elaboration.
#pragma once

#include <cstdint>

#include "testbench/scenario.h"

namespace uetsim {

struct scale_estimate
{
    uint64_t hosts = 0;
    uint64_t switches = 0;
    uint64_t switch_ports = 0;
    uint64_t bytes = 0;  // estimated peak resident memory at elaboration
};

// Measured bytes, rounded up: per host with its NIC (by Nic.Type) and link, per switch port
// with its share of a link, and what any run holds.
inline constexpr uint64_t scale_bytes_fixed = 16ull << 20;
uint64_t scale_bytes_per_host(nic_kind nic);
inline constexpr uint64_t scale_bytes_per_switch_port = 7'500;

scale_estimate estimate_scale(const topology_config& t, nic_kind nic);

// The machine's physical memory in bytes (0 when unknown: nothing is refused).
uint64_t physical_memory_bytes();

}  // namespace uetsim
