// The fabric's unloaded round trip: the slowest of the shortest paths (the switches spread
// traffic over all of them) from a host to the host farthest from it and back. In the three
// topologies uetsim builds every host sees the same fabric while the links of a tier are alike,
// so host0's longest path is the fabric's; with Link[glob] overrides that make them differ, it is
// the slowest over every pair of hosts as many hops apart.
#include "testbench/elab/fabric_rtt.h"

#include <algorithm>
#include <deque>
#include <limits>

#include "hw/common/picoseconds.h"
#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

constexpr uint32_t k_unreached = std::numeric_limits<uint32_t>::max();

// Devices in breadth-first order from `target`, and each one's hop distance to it.
void hops_to(const topology& t, uint32_t target, std::vector<uint32_t>& dist,
             std::vector<uint32_t>& order)
{
    dist.assign(t.devices.size(), k_unreached);
    order.clear();
    std::deque<uint32_t> q{target};
    dist[target] = 0;
    while (!q.empty()) {
        const uint32_t d = q.front();
        q.pop_front();
        order.push_back(d);
        // A host is an end, never a way through.
        if (d != target && t.devices[d].kind == device_kind::host) continue;
        for (size_t p = 0; p < t.devices[d].ports.size(); ++p) {
            const uint32_t u = t.peer(d, p);
            if (dist[u] == k_unreached) dist[u] = dist[d] + 1, q.push_back(u);
        }
    }
}

// One direction of the trip, ps: every link's propagation and serialization (the sending NIC's
// included), and the forwarding latency of each switch passed.
struct one_way
{
    uint64_t propagation = 0;
    uint64_t serialization = 0;
    uint64_t forwarding = 0;
    uint32_t next = k_unreached;  // the next device towards the destination

    uint64_t total() const { return propagation + serialization + forwarding; }
};

// The slowest shortest path from every device to host `dst` (breadth-first `dist` and `order`
// towards it) for a frame of `bytes`. A path's cost is the same both ways over a link, so it is
// also the slowest path from `dst` back to each device.
std::vector<one_way> slowest_towards(const topology& t, uint32_t dst, uint32_t bytes,
                                     uint64_t forwarding_ps, const std::vector<uint32_t>& dist,
                                     const std::vector<uint32_t>& order)
{
    std::vector<one_way> best(t.devices.size());
    for (uint32_t d : order) {
        if (d == dst) continue;
        one_way& b = best[d];
        bool found = false;
        for (size_t p = 0; p < t.devices[d].ports.size(); ++p) {
            const uint32_t u = t.peer(d, p);
            if (dist[u] + 1 != dist[d]) continue;
            const link_spec& l = t.links[t.devices[d].ports[p].link];
            one_way w = best[u];
            w.propagation += ps_from_seconds(l.delay_s);
            w.serialization += serialization_ps(bytes, l.rate_bps);
            if (u != dst) w.forwarding += forwarding_ps;
            w.next = u;
            if (!found || w.total() > b.total()) b = w, found = true;
        }
    }
    return best;
}

// The devices on the path `best` leads from `src` to `dst`.
std::vector<std::string> path_of(const topology& t, const std::vector<one_way>& best, uint32_t src,
                                 uint32_t dst)
{
    std::vector<std::string> path;
    for (uint32_t d = src; d != k_unreached; d = d == dst ? k_unreached : best[d].next)
        path.push_back(t.devices[d].name);
    return path;
}

std::string micros(uint64_t ps)
{
    std::string s = std::to_string(double(ps) * 1e-6);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s + "us";
}

// Whether every host link has one rate and delay and every switch-to-switch link another.
bool tiers_alike(const topology& t)
{
    const link_spec* host = nullptr;
    const link_spec* between = nullptr;
    for (const link_spec& l : t.links) {
        const link_spec*& first = t.devices[l.a_device].kind == device_kind::host ? host : between;
        if (!first)
            first = &l;
        else if (l.rate_bps != first->rate_bps || l.delay_s != first->delay_s)
            return false;
    }
    return true;
}

// The round trip of a data packet from host `src` to host `dst` over `data` and its ACK back over
// `ack`: the two one-way sums and the NIC's own parts.
fabric_round_trip round_trip(const topology& t, uint32_t src, one_way data, const one_way& ack,
                             const nic_config& nic_section, const pcie_config& pcie)
{
    fabric_round_trip r;
    const uint32_t mss = nic_section.uet.rdma_data_mss;  // a UET NIC's round trip
    // The sample starts when the data packet's serialization at the sender ends.
    data.serialization -=
        serialization_ps(mss + wire::uet_data_overhead, t.host_link(src).rate_bps);

    const uet_nic_config& nic = nic_section.uet;
    const uint64_t cycle = ps_from_seconds(nic.cycle_s());
    const uint64_t rx_cycles = uint64_t(nic.rx_parse.cycles) + nic.pdc_lookup.cycles +
                               nic.sack_update.cycles + nic.host_write.cycles;
    // Both ends pass the receive stages (the data at the receiver, the ACK at the sender).
    r.nic_stages_ps = (2 * rx_cycles + nic.ack_build.cycles) * cycle;
    // The ACK waits for the packet's bytes at the NIC-to-host rate (nothing else waiting at
    // idle) and reports that in whole 128 ns steps, which the sender takes off its sample.
    const uint64_t hold =
        uint64_t(double(mss + wire::uet_nominal_overhead) * 8e12 / pcie.nic_to_host_bps() + 0.5);
    r.ack_hold_ps = hold - std::min<uint64_t>(65535, hold / 128'000) * 128'000;

    r.propagation_ps = data.propagation + ack.propagation;
    r.serialization_ps = data.serialization + ack.serialization;
    r.forwarding_ps = data.forwarding + ack.forwarding;
    r.unloaded_rtt_ps =
        r.propagation_ps + r.serialization_ps + r.forwarding_ps + r.nic_stages_ps + r.ack_hold_ps;
    return r;
}

}  // namespace

fabric_round_trip derive_fabric_rtt(const topology& t, const switch_config& sw,
                                    const nic_config& nic, const pcie_config& pcie)
{
    if (t.hosts < 2) return {};
    std::vector<uint32_t> dist, order;
    hops_to(t, 0, dist, order);
    uint32_t far = 1;
    for (uint32_t h = 1; h < t.hosts; ++h)
        if (dist[h] != k_unreached && dist[h] > dist[far]) far = h;
    if (dist[far] == k_unreached) return {};
    const uint32_t data_bytes = nic.uet.rdma_data_mss + wire::uet_data_overhead;
    const uint64_t forwarding = ps_from_seconds(sw.forwarding_latency_s);

    if (tiers_alike(t)) {
        const std::vector<one_way> ack =
            slowest_towards(t, 0, wire::uet_ack_bytes, forwarding, dist, order);
        hops_to(t, far, dist, order);
        const std::vector<one_way> data =
            slowest_towards(t, far, data_bytes, forwarding, dist, order);
        fabric_round_trip r = round_trip(t, 0, data[0], ack[far], nic, pcie);
        r.longest_path = path_of(t, data, 0, far);
        return r;
    }
    // Links of a tier differ: every pair of hosts as far apart as host0 and `far` (in the
    // shapes uetsim builds, every host is that far from some); only with such overrides. Every
    // path to a host ends on its one link, so one search towards the first host of each rack
    // switch serves its other hosts too: their own link's cost in place of the first's.
    const uint32_t longest = dist[far];
    auto own_link = [&](uint32_t h, uint32_t bytes) {
        const link_spec& l = t.host_link(h);
        one_way w;
        w.propagation = ps_from_seconds(l.delay_s);
        w.serialization = serialization_ps(bytes, l.rate_bps);
        return w;
    };
    auto swap_last = [](one_way w, const one_way& from, const one_way& to) {
        w.propagation = w.propagation - from.propagation + to.propagation;
        w.serialization = w.serialization - from.serialization + to.serialization;
        return w;
    };
    fabric_round_trip slowest;
    std::vector<bool> searched(t.devices.size(), false);
    for (uint32_t first = 0; first < t.hosts; ++first) {
        const uint32_t rack = t.peer(first, 0);
        if (searched[rack]) continue;
        searched[rack] = true;
        // The rack's host whose own link costs most, data and ACK together (the first such).
        uint32_t dst = first;
        auto cost = [&](uint32_t h) {
            return own_link(h, data_bytes).total() + own_link(h, wire::uet_ack_bytes).total();
        };
        for (uint32_t h = first + 1; h < t.hosts; ++h)
            if (t.peer(h, 0) == rack && cost(h) > cost(dst)) dst = h;
        hops_to(t, first, dist, order);
        const std::vector<one_way> data =
            slowest_towards(t, first, data_bytes, forwarding, dist, order);
        const std::vector<one_way> ack =
            slowest_towards(t, first, wire::uet_ack_bytes, forwarding, dist, order);
        const one_way data_from = own_link(first, data_bytes), data_to = own_link(dst, data_bytes);
        const one_way ack_from = own_link(first, wire::uet_ack_bytes),
                      ack_to = own_link(dst, wire::uet_ack_bytes);
        for (uint32_t src = 0; src < t.hosts; ++src) {
            if (dist[src] != longest) continue;
            fabric_round_trip r = round_trip(t, src, swap_last(data[src], data_from, data_to),
                                             swap_last(ack[src], ack_from, ack_to), nic, pcie);
            if (slowest.longest_path.empty() || r.unloaded_rtt_ps > slowest.unloaded_rtt_ps) {
                slowest = r;
                slowest.longest_path = path_of(t, data, src, first);
                slowest.longest_path.back() = t.devices[dst].name;
            }
        }
    }
    return slowest;
}

fabric_round_trip derive_fabric_rtt(const topology& t, const scenario& sc)
{
    return derive_fabric_rtt(t, sc.sw, sc.nic, sc.pcie);
}

fabric_round_trip derive_fabric_rtt(const scenario& sc)
{
    return derive_fabric_rtt(build_topology(sc), sc);
}

std::optional<std::string> initial_base_rtt_warning(double initial_base_rtt_s,
                                                    const fabric_round_trip& rtt)
{
    if (rtt.longest_path.empty() || ps_from_seconds(initial_base_rtt_s) >= rtt.unloaded_rtt_ps)
        return std::nullopt;
    return "UetNic.InitialBaseRTT: " + micros(ps_from_seconds(initial_base_rtt_s)) +
           " is below the fabric's unloaded round trip of " + micros(rtt.unloaded_rtt_ps) + " (" +
           rtt.longest_path.front() + " to " + rtt.longest_path.back() +
           "), so every RTT sample reads as queueing delay; UetNic.InitialBaseRTT: auto starts "
           "from the fabric's round trip";
}

}  // namespace uetsim
