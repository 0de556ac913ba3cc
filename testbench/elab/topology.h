// Topology builders: leaf-spine, 3-tier k-ary fat-tree, single switch. A topology is plain data
// (devices, ports, links, names) so that it can be checked without the kernel; fabric.h turns it
// into modules and routing tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/cbfc/cbfc_settings.h"
#include "hw/switch/routing_table.h"
#include "testbench/scenario.h"

namespace uetsim {

enum class device_kind { host, switch_device };

// Tiers as in nd-stats: 0 spine (SSW), 1 fabric (FSW), 2 rack (RSW), 3 NIC.
enum tier : int { tier_spine = 0, tier_fabric = 1, tier_rack = 2, tier_nic = 3 };

struct device
{
    device_kind kind;
    std::string name;  // host3, leaf0, spine2, edge0, agg1, core3, switch0
    uint32_t node_id;  // unique over all devices: hosts first, then switches
    int tier;
    uint32_t index;  // host number, or switch number among switches
    // Port i connects to link ports[i].link at its end ports[i].end (0 = A, 1 = B).
    struct port_ref
    {
        uint32_t link;
        int end;
        bool uplink;  // towards a higher tier (lower tier number)
    };
    std::vector<port_ref> ports;
};

struct link_spec
{
    std::string name;  // lower tier first: host3-leaf0, leaf0-spine2 (.N for parallel links)
    uint32_t a_device, a_port;  // A = the lower device (host side)
    uint32_t b_device, b_port;
    double rate_bps;
    double delay_s;
    double bit_error_rate = 0;
    // Link Level Retry as the Link[glob] keys give it (auto buffer and timeout: 0 here, derived
    // from the link and its largest frame by llr_sizing.h where the link is built).
    link_llr llr = link_llr::off;
    uint64_t llr_replay_buffer_bytes = 0;
    double llr_replay_timeout_s = 0;
    uint32_t llr_control_bytes = 8;
    uint32_t llr_ack_spacing_bytes = 2048;
    // CBFC on the link (both ends alike): its VC map, unit, advertised credit per VC (resolved:
    // the line-rate need when the key is 0), update interval and frame size.
    cbfc_settings cbfc;
    std::string cbfc_vc_map;          // as written, for messages and inspect
    uint64_t cbfc_vc_buffer_key = 0;  // Link.CbfcVcBufferBytes as written (0: the need)
    uint64_t cbfc_residence_ps = 0;   // the slower receiving end's hold of a frame (the need's)
};

// A link's LLR numbers with its `auto` settings resolved (docs/link-layer.md): `max_frame_bytes`
// is the largest frame of the run (the data MSS + headers, nic_framing_of).
struct link_llr_values
{
    uint64_t replay_buffer_bytes = 0;
    double replay_timeout_s = 0;
    double round_trip_s = 0;
    uint32_t max_frame_bytes = 0;
};
link_llr_values llr_values(const link_spec& l, uint32_t max_frame_bytes);

// A CbfcVcMap ("0:0, 1:1": class:VC pairs) into `s.vc_of_tc`: "" when valid, else what is
// wrong (a class twice, a class or VC outside 0..7, bad syntax).
std::string parse_cbfc_vc_map(const std::string& text, cbfc_settings& s);
// The largest frame a link carries: the larger of the UET and RoCE data frames (MSS + headers).
uint32_t largest_frame_bytes(const scenario& sc);

struct topology
{
    std::vector<device> devices;  // hosts first (index == host number), then switches
    std::vector<link_spec> links;
    uint32_t hosts = 0;
    topology_config shape;  // what it was built from (computed routes read the position)

    uint32_t switch_count() const { return uint32_t(devices.size()) - hosts; }
    const device& host(uint32_t h) const { return devices[h]; }
    // The link and port a host's NIC is attached by (its only port).
    const link_spec& host_link(uint32_t h) const { return links[devices[h].ports[0].link]; }
    int find_link(const std::string& name) const;
    // The device at the other end of port `port` of device `d`.
    uint32_t peer(uint32_t d, size_t port) const;
    // Device names by node id (records that name a NIC from its FEP id).
    std::vector<std::string> names_by_node_id() const
    {
        std::vector<std::string> names(devices.size());
        for (const auto& d : devices) names[d.node_id] = d.name;
        return names;
    }
};

// The spellings of Topology.Kind, in the order the key reference lists them: the one table of
// them (the schema and the records read it).
struct topology_kind_spelling
{
    const char* name;
    topology_kind kind;
};
inline constexpr topology_kind_spelling topology_kind_spellings[] = {
    {"leaf-spine", topology_kind::leaf_spine},
    {"fat-tree", topology_kind::fat_tree},
    {"single-switch", topology_kind::single_switch},
};
const char* to_string(topology_kind kind);

// Limits of the shape: a packet names its hosts in 16 bits (packet::dst_node) and a switch its
// ports in 16 bits; a single switch's routes are a table per host, built in O(hosts^2).
inline constexpr uint32_t max_hosts = 65536;
inline constexpr uint32_t max_switch_ports = 65536;
inline constexpr uint32_t max_single_switch_hosts = 4096;

// Host count a topology configuration resolves to (fat-tree: k^3/4).
uint32_t host_count(const topology_config& cfg);

// Every link with the section's rate and delays (a unit's fabric, no per-link overrides).
topology build_topology(const topology_config& cfg, const link_config& links);
// The scenario's fabric: every link with its Link[glob] overrides resolved. The one topology of a
// run: elaboration, the key rules, inspect and the fabric's round trip all build it here.
topology build_topology(const scenario& sc);

// Routing tables of every switch (indexed by switch number): towards each host, the ports that
// start a shortest path. Computed from each switch's position for leaf-spines and fat-trees
// (computed_routes.h), by build_routes_bfs otherwise.
std::vector<routing_table> build_routes(const topology& t);
// A breadth-first search from every host: O(hosts x ports), a table per destination host. The
// reference the computed routes are tested against, and the routes of any other shape.
std::vector<routing_table> build_routes_bfs(const topology& t);

// IPv4 address of host h: 10.0.0.0 + h + 1, so that dpr's (destination - 1) is the host number.
inline uint32_t host_ip(uint32_t h)
{
    return 0x0A000000u + h + 1;
}

}  // namespace uetsim
