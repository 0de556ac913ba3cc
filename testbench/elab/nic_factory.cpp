#include "testbench/elab/nic_factory.h"

#include <algorithm>

#include <deque>
#include <stdexcept>

#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/scale_estimate.h"
#include "testbench/nics/roce_nic_entry.h"
#include "testbench/nics/uet_nic_entry.h"
#include "tlm/dscp.h"
#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

// NIC-less ports: Flows packets at line rate in UET data framing, cut at UetNic.RdmaDataMSS.
nic_type raw_port_type()
{
    nic_type t;
    t.kind = nic_kind::raw;
    t.doc =
        "a NIC-less port that sends Flows packets at line rate with no transport (to "
        "exercise the fabric alone)";
    t.data_mss = [](const nic_config& n) { return n.uet.rdma_data_mss; };
    t.data_overhead_bytes = wire::uet_data_overhead;
    t.framing = "uet";
    t.bytes_per_host = scale_bytes_raw_host;
    // As the Flows source marks its packets (testbench/traffic/flows.cpp).
    t.data_marking = [](const nic_config&, uint8_t tc) {
        return ip_marking{dscp::make(tc, dscp::role::trimmable), ecn::ect1};
    };
    return t;
}

std::deque<nic_type>& nic_type_registry()
{
    // One line per NIC type, in Nic.Type's order (a deque: rows stay where they are when one
    // is added).
    static std::deque<nic_type> types = {
        uet_nic_type(),
        raw_port_type(),
        roce_nic_type(),
    };
    return types;
}

}  // namespace

const nic_type* find_nic_type(nic_kind kind)
{
    for (const nic_type& t : nic_type_registry())
        if (t.kind == kind) return &t;
    return nullptr;
}

const nic_type& nic_type_of(const nic_config& nic)
{
    if (const nic_type* t = find_nic_type(nic.type)) return *t;
    throw std::logic_error("Nic.Type " + std::string(nic.type.name) + " is not registered");
}

std::vector<const nic_type*> nic_types()
{
    std::vector<const nic_type*> out;
    for (const nic_type& t : nic_type_registry()) out.push_back(&t);
    return out;
}

void add_nic_type(const nic_type& t)
{
    if (find_nic_type(t.kind))
        throw std::logic_error("Nic.Type " + std::string(t.kind.name) + " is registered twice");
    nic_type_registry().push_back(t);
}

uint32_t nic_data_mss(const nic_config& nic)
{
    return nic_type_of(nic).data_mss(nic);
}

nic_data_framing nic_framing_of(const nic_config& nic)
{
    const nic_type& t = nic_type_of(nic);
    return {t.framing, t.data_mss(nic), t.data_overhead_bytes};
}

uint32_t largest_data_frame(const scenario& sc, uint32_t hosts)
{
    uint32_t largest = 0;
    nic_config n = sc.nic;
    for (const nic_kind k : nic_kinds_in_use(sc, hosts)) {
        n.type = k;
        const nic_data_framing f = nic_framing_of(n);
        largest = std::max(largest, f.mss + f.overhead_bytes);
    }
    return largest;
}

std::vector<uint32_t> host_data_mss(const scenario& sc, uint32_t hosts)
{
    // One MSS per type in use, looked up once (a NIC section is large to copy per host).
    std::vector<std::pair<nic_kind, uint32_t>> by_kind;
    nic_config n = sc.nic;
    for (const nic_kind k : nic_kinds_in_use(sc, hosts)) {
        n.type = k;
        by_kind.emplace_back(k, nic_data_mss(n));
    }
    std::vector<uint32_t> out;
    out.reserve(hosts);
    for (const nic_kind k : host_nic_kinds(sc, hosts))
        for (const auto& [kind, mss] : by_kind)
            if (kind == k) out.push_back(mss);
    return out;
}

std::unique_ptr<host_nic> make_nic(const std::string& name, const nic_config& nic,
                                   const nic_context& ctx, double link_rate_bps)
{
    const nic_builder b = nic_type_of(nic).build;
    if (!b) throw std::logic_error("no NIC is built for Nic.Type " + std::string(nic.type.name));
    return b(name, nic, ctx, link_rate_bps);
}

}  // namespace uetsim
