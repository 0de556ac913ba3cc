// The memory estimate the configuration checks a fabric against: hosts and switch ports from
// the shape alone, and bytes that grow with both.
#include <gtest/gtest.h>

#include "testbench/elab/scale_estimate.h"
#include "testbench/elab/topology.h"

using namespace uetsim;

TEST(scale_estimate, counts_hosts_switches_and_ports_as_the_builder_makes_them)
{
    topology_config shapes[4];
    shapes[0].kind = topology_kind::fat_tree;
    shapes[0].k = 8;
    shapes[1].hosts = 96;  // leaf-spine: 12 leaves of 8, 8 spines
    shapes[2].hosts = 24;
    shapes[2].hosts_per_leaf = 4;
    shapes[2].spines = 3;
    shapes[2].uplinks_per_spine = 2;
    shapes[3].kind = topology_kind::single_switch;
    shapes[3].hosts = 9;
    for (const auto& c : shapes) {
        const topology t = build_topology(c, link_config{});
        size_t ports = 0;
        for (uint32_t d = t.hosts; d < t.devices.size(); ++d) ports += t.devices[d].ports.size();
        const scale_estimate e = estimate_scale(c, scale_bytes_raw_host);
        EXPECT_EQ(e.hosts, t.hosts);
        EXPECT_EQ(e.switches, t.switch_count());
        EXPECT_EQ(e.switch_ports, ports);
        EXPECT_EQ(e.bytes, scale_bytes_fixed + e.hosts * scale_bytes_raw_host +
                               ports * scale_bytes_per_switch_port);
    }
}

// T4 of #15: 65,536 hosts in 8 GB. Measured 3.95 GB with UET NICs (docs/performance.md).
TEST(scale_estimate, k64_fits_the_8_gb_target_with_or_without_nics_and_nics_cost_more)
{
    topology_config c;
    c.kind = topology_kind::fat_tree;
    c.k = 64;
    const scale_estimate raw = estimate_scale(c, scale_bytes_raw_host);
    EXPECT_EQ(raw.hosts, 65536u);
    EXPECT_EQ(raw.switches, 5120u);
    EXPECT_EQ(raw.switch_ports, 327680u);
    EXPECT_LT(raw.bytes, 8'000'000'000ull);
    const scale_estimate uet = estimate_scale(c, scale_bytes_nic_host);
    EXPECT_GT(uet.bytes, raw.bytes);
    EXPECT_LT(uet.bytes, 8'000'000'000ull);
    EXPECT_GT(uet.bytes, 3'953'000'000ull);  // not below what K = 64 was measured to take
    EXPECT_GT(physical_memory_bytes(), 0u);
}
