// Routes of a leaf-spine or fat-tree switch computed from its position (tier, index) instead of
// a breadth-first search per host: the same sets, numbered and ordered as build_routes_bfs
// numbers them (in order of the first destination host that uses each), with a rule
// (host_blocks) in place of a table per destination host. O(ports) per switch.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/switch/routing_table.h"
#include "testbench/elab/topology.h"

namespace uetsim {

// Whether the topology's shape has computed routes (leaf-spine, fat-tree).
bool has_computed_routes(const topology& t);

// The routing table of switch `switch_index` (its number among switches); the topology must be
// one build_topology made with a shape has_computed_routes accepts.
routing_table computed_routes(const topology& t, uint32_t switch_index);

}  // namespace uetsim
