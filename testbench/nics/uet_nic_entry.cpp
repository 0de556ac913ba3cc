#include "testbench/nics/uet_nic_entry.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hw/nic/uet/uet_nic.h"
#include "hw/nic/uet/uet_nic_params.h"
#include "testbench/elab/fabric_rtt.h"
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/instance_config.h"
#include "tlm/dscp.h"
#include "testbench/elab/scale_estimate.h"
#include "testbench/nics/uet_nic_probe.h"
#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

std::unique_ptr<host_nic> make_uet_nic(const std::string& name, const nic_config& nic,
                                       const nic_context& ctx, double link_rate_bps)
{
    uet_nic_params params = derive_uet_nic_params(nic.uet, nic.nscc, nic.spraying, link_rate_bps);
    params.make_entropy_engine = nic.make_entropy_engine;
    params.make_sack_tracker = nic.make_sack_tracker;
    return std::make_unique<uet_nic>(name.c_str(), ctx, std::move(params));
}

// "host0, host1 and 14 more": the devices a warning names.
std::string some_names(const std::vector<std::string>& names)
{
    std::string out;
    for (size_t i = 0; i < names.size() && i < 2; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > 2) out += " and " + std::to_string(names.size() - 2) + " more";
    return out;
}

// The UET NIC page's validation warning: REPS on a NIC and flowlet on a switch both steer
// around congestion, each unaware of the other (a flowlet move changes the path behind an
// entropy value REPS has recycled as good).
std::optional<std::string> reps_flowlet_warning(const scenario& sc, const topology& t)
{
    std::vector<std::string> reps_hosts, flowlet_switches;
    const std::vector<nic_kind> kinds = host_nic_kinds(sc, t.hosts);
    for (uint32_t h = 0; h < t.hosts; ++h)
        if (kinds[h] == nic_kind::uet &&
            nic_for(sc, t.devices[h].name).spraying.type == packet_spraying_type::reps)
            reps_hosts.push_back(t.devices[h].name);
    for (size_t d = t.hosts; d < t.devices.size(); ++d)
        if (switch_for(sc, t.devices[d].name).lb_method == load_balancing_method::flowlet)
            flowlet_switches.push_back(t.devices[d].name);
    if (reps_hosts.empty() || flowlet_switches.empty()) return std::nullopt;
    return "UetNic.PacketSprayingType is Recycled Entropy Packet Spraying (" +
           some_names(reps_hosts) + ") and Switch.LoadBalancingMethod is flowlet (" +
           some_names(flowlet_switches) +
           "): the switches move flows between paths behind the entropy values REPS reuses "
           "as uncongested, so the two react to the same congestion without knowing of each "
           "other";
}

// A UET NIC whose InitialBaseRTT is below the fabric's unloaded round trip reads every sample
// as queueing delay: one warning, for the lowest value any host has. REPS with flowlet
// switches: one more.
std::vector<std::string> uet_warnings(const scenario& sc, const topology& t)
{
    std::vector<std::string> out;
    double lowest = sc.nic.nscc.initial_base_rtt_s;
    for (uint32_t h = 0; h < t.hosts; ++h)
        if (has_overrides(sc, t.devices[h].name))
            lowest = std::min(lowest, nic_for(sc, t.devices[h].name).nscc.initial_base_rtt_s);
    if (auto w = initial_base_rtt_warning(lowest, derive_fabric_rtt(t, sc))) out.push_back(*w);
    if (auto w = reps_flowlet_warning(sc, t)) out.push_back(*w);
    return out;
}

}  // namespace

nic_type uet_nic_type()
{
    nic_type t;
    t.kind = nic_kind::uet;
    t.doc = "a UET NIC at every host";
    t.build = &make_uet_nic;
    t.data_mss = [](const nic_config& n) { return n.uet.rdma_data_mss; };
    t.data_overhead_bytes = wire::uet_data_overhead;
    t.framing = "uet";
    t.bytes_per_host = scale_bytes_nic_host;
    t.warnings = &uet_warnings;
    // As uet_nic::data_packet marks a first transmission.
    t.data_marking = [](const nic_config& n, uint8_t tc) {
        return ip_marking{
            dscp::make(tc, n.uet.trimming_enabled ? dscp::role::trimmable : dscp::role::no_trim),
            ecn::ect1};
    };
    t.make_probe = &make_uet_nic_probe;
    return t;
}

uet_nic* as_uet_nic(host_nic& nic)
{
    return dynamic_cast<uet_nic*>(&nic);
}

const uet_nic* as_uet_nic(const host_nic& nic)
{
    return dynamic_cast<const uet_nic*>(&nic);
}

}  // namespace uetsim
