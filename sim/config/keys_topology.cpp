// Topology.* and Link.* keys: the fabric's shape, size, link rate and propagation delays, and
// the rules that tie the host count to the shape.
#include "sim/config/keys_common.h"

#include "testbench/topology.h"

namespace uetsim::config {

namespace {

std::vector<std::pair<std::string, topology_kind>> topology_kinds()
{
    std::vector<std::pair<std::string, topology_kind>> out;
    for (const auto& s : topology_kind_spellings) out.emplace_back(s.name, s.kind);
    return out;
}

}  // namespace

void add_topology_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.choice("Topology.Kind", UETSIM_FIELD(topology.kind), topology_kinds(),
             "Shape of the fabric.");
    k.integer("Topology.Hosts", UETSIM_FIELD(topology.hosts), {1, 4096},
              "Number of hosts (leaf-spine, single-switch; a fat-tree has K^3/4).");
    k.integer("Topology.HostsPerLeaf", UETSIM_FIELD(topology.hosts_per_leaf), {1, 512},
              "Hosts under each leaf (leaf-spine).");
    k.integer("Topology.Spines", UETSIM_FIELD(topology.spines), {1, 256},
              "Number of spines (leaf-spine).");
    k.integer("Topology.UplinksPerSpine", UETSIM_FIELD(topology.uplinks_per_spine), {1, 16},
              "Parallel links between a leaf and each spine (leaf-spine).");
    k.integer("Topology.K", UETSIM_FIELD(topology.k), {2, 32, 2},
              "Fat-tree arity: K pods, K^3/4 hosts (fat-tree).");
    k.rate("Topology.LinkRate", UETSIM_FIELD(topology.link_rate_bps), {1e9, 3.2e12},
           "Rate of every link.");

    s.rules.push_back(
        {"Topology.Hosts is a multiple of Topology.HostsPerLeaf (leaf-spine).",
         {"Topology.Kind", "Topology.Hosts", "Topology.HostsPerLeaf"},
         [](scenario& sc, const given_keys&) {
             const auto& t = sc.topology;
             if (t.kind != topology_kind::leaf_spine || t.hosts % t.hosts_per_leaf == 0) return;
             fail_rule("Topology.Hosts (" + std::to_string(t.hosts) +
                       ") must be a multiple of Topology.HostsPerLeaf (" +
                       std::to_string(t.hosts_per_leaf) + ") for a leaf-spine topology");
         }});
    s.rules.push_back(
        {"A fat-tree has K^3/4 hosts: Topology.Hosts is derived and may only be given with that "
         "value.",
         {"Topology.Kind", "Topology.Hosts", "Topology.K"},
         [hosts = s.keys.key("Topology.Hosts").info.path](scenario& sc, const given_keys& given) {
             auto& t = sc.topology;
             if (t.kind != topology_kind::fat_tree) return;
             uint32_t derived = host_count(sc.topology);
             if (given.count(hosts) && t.hosts != derived) {
                 fail_rule("Topology.Hosts: " + std::to_string(t.hosts) +
                           " cannot be set for a fat-tree: its host count is derived from "
                           "Topology.K (K^3/4 = " +
                           std::to_string(derived) + " for K = " + std::to_string(t.k) +
                           "); remove Topology.Hosts or change Topology.K");
             }
             t.hosts = derived;
         }});
}

void add_link_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.time("Link.NicDelay", UETSIM_FIELD(link.nic_delay_s), {0, 1e-3},
           "Propagation delay of host-to-switch links.");
    k.time("Link.SwitchDelay", UETSIM_FIELD(link.switch_delay_s), {0, 1e-3},
           "Propagation delay of switch-to-switch links.");
}

}  // namespace uetsim::config
