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

// Measured bytes, rounded up: per host with its link and a raw port or a NIC (each NIC type's
// entry says which: testbench/elab/nic_factory.h), per switch port with its share of a link, and
// what any run holds. 8,192-host fat trees and leaf-spines and K = 64 with UET or RoCE NICs, with
// PFC state made on first use and ports that are not modules: about 26 KB per host (its NIC, host
// memory, PCIe link and host interface; RoCE about 24 KB).
inline constexpr uint64_t scale_bytes_fixed = 16ull << 20;
inline constexpr uint64_t scale_bytes_raw_host = 8'000;
inline constexpr uint64_t scale_bytes_nic_host = 29'000;
inline constexpr uint64_t scale_bytes_per_switch_port = 7'500;

// `bytes_per_host`: the Nic.Type's (nic_type::bytes_per_host).
scale_estimate estimate_scale(const topology_config& t, uint64_t bytes_per_host);

// The machine's physical memory in bytes (0 when unknown: nothing is refused).
uint64_t physical_memory_bytes();

}  // namespace uetsim
