#include "testbench/elab/topology.h"

#include "hw/common/picoseconds.h"
#include "hw/link/llr_sizing.h"
#include "testbench/elab/computed_routes.h"
#include "tlm/header_sizes.h"

#include <fnmatch.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace uetsim {

namespace {

class builder
{
public:
    explicit builder(topology& t) : m_t(t) {}

    uint32_t add(device_kind kind, std::string name, int tier, uint32_t index)
    {
        const uint32_t id = uint32_t(m_t.devices.size());
        m_t.devices.push_back(device{kind, std::move(name), id, tier, index, {}});
        return id;
    }

    // `lower` is the device nearer the hosts.
    void connect(uint32_t lower, uint32_t upper, std::string name, double rate, double delay)
    {
        const uint32_t l = uint32_t(m_t.links.size());
        auto& lo = m_t.devices[lower];
        auto& up = m_t.devices[upper];
        link_spec s;  // the link layer's settings at their defaults
        s.name = std::move(name);
        s.a_device = lower;
        s.a_port = uint32_t(lo.ports.size());
        s.b_device = upper;
        s.b_port = uint32_t(up.ports.size());
        s.rate_bps = rate;
        s.delay_s = delay;
        m_t.links.push_back(std::move(s));
        lo.ports.push_back({l, 0, true});
        up.ports.push_back({l, 1, false});
    }

private:
    topology& m_t;
};

std::string parallel_name(const std::string& base, uint32_t j, uint32_t count)
{
    return count == 1 ? base : base + "." + std::to_string(j);
}

}  // namespace

const char* to_string(topology_kind kind)
{
    for (const auto& s : topology_kind_spellings)
        if (s.kind == kind) return s.name;
    return "?";
}

uint32_t host_count(const topology_config& cfg)
{
    if (cfg.kind == topology_kind::fat_tree) return cfg.k * cfg.k * cfg.k / 4;
    return cfg.hosts;
}

topology build_topology(const topology_config& cfg, const link_config& lc)
{
    topology t;
    builder b(t);
    t.shape = cfg;
    t.hosts = host_count(cfg);
    for (uint32_t h = 0; h < t.hosts; ++h)
        b.add(device_kind::host, "host" + std::to_string(h), tier_nic, h);
    const double rate = cfg.link_rate_bps;
    uint32_t sw = 0;

    switch (cfg.kind) {
        case topology_kind::single_switch: {
            const uint32_t s = b.add(device_kind::switch_device, "switch0", tier_rack, sw++);
            for (uint32_t h = 0; h < t.hosts; ++h)
                b.connect(h, s, "host" + std::to_string(h) + "-switch0", rate, lc.nic_delay_s);
            break;
        }
        case topology_kind::leaf_spine: {
            if (cfg.hosts_per_leaf == 0 || cfg.hosts % cfg.hosts_per_leaf != 0)
                throw std::invalid_argument(
                    "Topology.Hosts must be a multiple of Topology.HostsPerLeaf");
            const uint32_t leaves = cfg.hosts / cfg.hosts_per_leaf;
            std::vector<uint32_t> leaf, spine;
            for (uint32_t l = 0; l < leaves; ++l)
                leaf.push_back(
                    b.add(device_kind::switch_device, "leaf" + std::to_string(l), tier_rack, sw++));
            for (uint32_t s = 0; s < cfg.spines; ++s)
                spine.push_back(b.add(device_kind::switch_device, "spine" + std::to_string(s),
                                      tier_spine, sw++));
            for (uint32_t h = 0; h < t.hosts; ++h) {
                const uint32_t l = h / cfg.hosts_per_leaf;
                b.connect(h, leaf[l], "host" + std::to_string(h) + "-leaf" + std::to_string(l),
                          rate, lc.nic_delay_s);
            }
            for (uint32_t l = 0; l < leaves; ++l)
                for (uint32_t s = 0; s < cfg.spines; ++s)
                    for (uint32_t j = 0; j < cfg.uplinks_per_spine; ++j)
                        b.connect(
                            leaf[l], spine[s],
                            parallel_name("leaf" + std::to_string(l) + "-spine" + std::to_string(s),
                                          j, cfg.uplinks_per_spine),
                            rate, lc.switch_delay_s);
            break;
        }
        case topology_kind::fat_tree: {
            const uint32_t k = cfg.k, half = cfg.k / 2;
            std::vector<uint32_t> edge, agg, core;
            for (uint32_t e = 0; e < k * half; ++e)
                edge.push_back(
                    b.add(device_kind::switch_device, "edge" + std::to_string(e), tier_rack, sw++));
            for (uint32_t a = 0; a < k * half; ++a)
                agg.push_back(b.add(device_kind::switch_device, "agg" + std::to_string(a),
                                    tier_fabric, sw++));
            for (uint32_t c = 0; c < half * half; ++c)
                core.push_back(b.add(device_kind::switch_device, "core" + std::to_string(c),
                                     tier_spine, sw++));
            for (uint32_t h = 0; h < t.hosts; ++h)
                b.connect(h, edge[h / half],
                          "host" + std::to_string(h) + "-edge" + std::to_string(h / half), rate,
                          lc.nic_delay_s);
            for (uint32_t p = 0; p < k; ++p)
                for (uint32_t i = 0; i < half; ++i)
                    for (uint32_t j = 0; j < half; ++j) {
                        const uint32_t e = p * half + i, a = p * half + j;
                        b.connect(edge[e], agg[a],
                                  "edge" + std::to_string(e) + "-agg" + std::to_string(a), rate,
                                  lc.switch_delay_s);
                    }
            for (uint32_t p = 0; p < k; ++p)
                for (uint32_t i = 0; i < half; ++i)
                    for (uint32_t j = 0; j < half; ++j) {
                        const uint32_t a = p * half + i, c = i * half + j;
                        b.connect(agg[a], core[c],
                                  "agg" + std::to_string(a) + "-core" + std::to_string(c), rate,
                                  lc.switch_delay_s);
                    }
            break;
        }
    }
    return t;
}

namespace {

// How long the link's slower receiving end holds a frame before it can free its credit: a
// switch its forwarding latency (Switch[glob] overrides applied in `scratch`; the kernel-free
// library has no default scenario to start one from) and the frame's serialization out; a NIC
// end's receive stages are left to the two frames of margin.
uint64_t cbfc_residence_ps(const scenario& sc, scenario& scratch, const topology& t,
                           const link_spec& l, uint32_t largest_frame_bytes)
{
    uint64_t r = 0;
    for (uint32_t d : {l.a_device, l.b_device}) {
        const device& dev = t.devices[d];
        if (dev.kind == device_kind::host) continue;
        scratch.sw = sc.sw;
        for (const auto& o : sc.overrides)
            if (o.section == "Switch" && fnmatch(o.glob.c_str(), dev.name.c_str(), 0) == 0)
                o.apply(scratch);
        const uint64_t fwd = ps_from_seconds(scratch.sw.forwarding_latency_s);
        const uint64_t out = uint64_t(double(largest_frame_bytes) * 8e12 / l.rate_bps + 0.5);
        r = std::max(r, fwd + out);
    }
    return r;
}

}  // namespace

topology build_topology(const scenario& sc)
{
    topology t = build_topology(sc.topology, sc.link);
    std::vector<const device_override*> link_overrides;
    for (const auto& o : sc.overrides)
        if (o.section == "Link") link_overrides.push_back(&o);
    const link_config& section = sc.link;
    if (link_overrides.empty() && section.rate_auto && section.delay_auto &&
        section.bit_error_rate == 0 && section.llr == link_llr::off && !section.cbfc)
        return t;
    const uint32_t largest = largest_frame_bytes(sc);
    // Holds one link's section while its overrides are applied in order (a copy: the kernel-free
    // library has no default scenario).
    scenario scratch = sc;
    for (link_spec& l : t.links) {
        scratch.link = section;
        for (const device_override* o : link_overrides)
            if (fnmatch(o->glob.c_str(), l.name.c_str(), 0) == 0) o->apply(scratch);
        const link_config& c = scratch.link;
        const bool host_link = t.devices[l.a_device].kind == device_kind::host;
        if (!c.rate_auto) l.rate_bps = c.rate_bps;
        if (!c.delay_auto)
            l.delay_s = c.delay_s;
        else
            l.delay_s = host_link ? c.nic_delay_s : c.switch_delay_s;
        l.bit_error_rate = c.bit_error_rate;
        l.llr = c.llr;
        l.llr_replay_buffer_bytes = c.llr_replay_buffer_auto ? 0 : c.llr_replay_buffer_bytes;
        l.llr_replay_timeout_s = c.llr_replay_timeout_auto ? 0 : c.llr_replay_timeout_s;
        l.llr_control_bytes = c.llr_control_bytes;
        l.llr_ack_spacing_bytes = c.llr_ack_spacing_bytes;
        if (!c.cbfc) continue;
        cbfc_settings& cb = l.cbfc;
        l.cbfc_vc_map = c.cbfc_vc_map;
        cb.enabled = parse_cbfc_vc_map(c.cbfc_vc_map, cb).empty();  // the rules refuse a bad one
        cb.credit_unit_bytes = c.cbfc_credit_unit_bytes == 0 ? 1 : c.cbfc_credit_unit_bytes;
        cb.update_interval_ps = ps_from_seconds(c.cbfc_credit_update_interval_s);
        cb.update_frame_bytes = c.cbfc_update_frame_bytes;
        cb.sync_interval_ps = ps_from_seconds(c.cbfc_sync_interval_s);
        l.cbfc_residence_ps = cbfc_residence_ps(sc, scratch, t, l, largest);
        const uint64_t need = cbfc_line_rate_buffer_bytes(
            l.rate_bps, ps_from_seconds(l.delay_s), cb.update_interval_ps, l.cbfc_residence_ps,
            largest, cb.update_frame_bytes, cb.credit_unit_bytes);
        l.cbfc_vc_buffer_key = c.cbfc_vc_buffer_bytes;
        const uint64_t bytes = c.cbfc_vc_buffer_bytes ? c.cbfc_vc_buffer_bytes : need;
        cb.vc_credits = uint32_t(bytes / cb.credit_unit_bytes);
    }
    return t;
}

link_llr_values llr_values(const link_spec& l, uint32_t max_frame_bytes)
{
    llr_link_params p;
    p.rate_bps = l.rate_bps;
    p.delay_s = l.delay_s;
    p.max_frame_bytes = max_frame_bytes;
    p.control_bytes = l.llr_control_bytes;
    p.ack_spacing_bytes = l.llr_ack_spacing_bytes;
    link_llr_values v;
    v.round_trip_s = llr_round_trip_s(p);
    v.replay_buffer_bytes =
        l.llr_replay_buffer_bytes ? l.llr_replay_buffer_bytes : llr_auto_buffer_bytes(p);
    v.replay_timeout_s =
        l.llr_replay_timeout_s > 0 ? l.llr_replay_timeout_s : llr_auto_timeout_s(p);
    v.max_frame_bytes = max_frame_bytes;
    return v;
}

std::string parse_cbfc_vc_map(const std::string& text, cbfc_settings& s)
{
    s.vc_of_tc.fill(cbfc_no_vc);
    size_t i = 0, pairs = 0;
    auto skip = [&] {
        while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    };
    auto digit = [&](const char* what, int& out) -> std::string {
        if (i >= text.size() || text[i] < '0' || text[i] > '9')
            return std::string("expected a ") + what + " (0 to 7) at character " +
                   std::to_string(i + 1);
        out = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            out = out * 10 + (text[i++] - '0');
        if (out > 7) return std::string(what) + " " + std::to_string(out) + " is outside 0 to 7";
        return "";
    };
    skip();
    while (i < text.size()) {
        int tc = 0, vc = 0;
        if (std::string e = digit("class", tc); !e.empty()) return e;
        if (i >= text.size() || text[i] != ':')
            return "expected ':' after class " + std::to_string(tc);
        ++i;
        if (std::string e = digit("VC", vc); !e.empty()) return e;
        if (s.vc_of_tc[size_t(tc)] != cbfc_no_vc)
            return "class " + std::to_string(tc) + " is mapped twice";
        s.vc_of_tc[size_t(tc)] = uint8_t(vc);
        ++pairs;
        skip();
    }
    if (pairs == 0) return "no class:VC pair";
    return "";
}

uint32_t largest_frame_bytes(const scenario& sc)
{
    // Either NIC type may sit on a link (Nic[glob].Type): the larger of their data frames.
    return std::max(sc.nic.roce.mss + wire::roce_data_overhead,
                    sc.nic.uet.rdma_data_mss + wire::uet_data_overhead);
}

int topology::find_link(const std::string& name) const
{
    for (size_t i = 0; i < links.size(); ++i)
        if (links[i].name == name) return int(i);
    return -1;
}

uint32_t topology::peer(uint32_t d, size_t port) const
{
    const auto& ref = devices[d].ports[port];
    const auto& l = links[ref.link];
    return ref.end == 0 ? l.b_device : l.a_device;
}

std::vector<routing_table> build_routes(const topology& t)
{
    if (!has_computed_routes(t)) return build_routes_bfs(t);
    std::vector<routing_table> tables;
    tables.reserve(t.switch_count());
    for (uint32_t s = 0; s < t.switch_count(); ++s) tables.push_back(computed_routes(t, s));
    return tables;
}

std::vector<routing_table> build_routes_bfs(const topology& t)
{
    std::vector<routing_table> tables(t.switch_count());
    const uint32_t n = uint32_t(t.devices.size());
    constexpr uint32_t inf = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(n);
    std::deque<uint32_t> frontier;
    for (uint32_t h = 0; h < t.hosts; ++h) {
        // Breadth-first from the host; paths never pass through another host.
        std::fill(dist.begin(), dist.end(), inf);
        dist[h] = 0;
        frontier.assign(1, h);
        while (!frontier.empty()) {
            const uint32_t d = frontier.front();
            frontier.pop_front();
            if (d != h && t.devices[d].kind == device_kind::host) continue;
            for (size_t p = 0; p < t.devices[d].ports.size(); ++p) {
                const uint32_t q = t.peer(d, p);
                if (dist[q] == inf) {
                    dist[q] = dist[d] + 1;
                    frontier.push_back(q);
                }
            }
        }
        for (uint32_t d = t.hosts; d < n; ++d) {
            if (dist[d] == inf) continue;
            std::vector<uint16_t> ports;
            for (size_t p = 0; p < t.devices[d].ports.size(); ++p)
                if (dist[t.peer(d, p)] + 1 == dist[d]) ports.push_back(uint16_t(p));
            tables[t.devices[d].index].add_route(h, std::move(ports));
        }
    }
    return tables;
}

}  // namespace uetsim
