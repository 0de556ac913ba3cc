#include "testbench/elab/host_nic_types.h"

#include <algorithm>

#include "testbench/elab/instance_config.h"

namespace uetsim {

namespace {

constexpr const char* k_type_key = "Nic.Type";

// Only the Type overrides, applied in order to `scratch`: the rest of the section does not
// decide the type.
nic_kind kind_of(const scenario& sc, scenario& scratch, uint32_t host)
{
    const std::string name = "host" + std::to_string(host);
    scratch.nic.type = sc.nic.type;
    for (const device_override& o : sc.overrides)
        if (o.key == k_type_key && matches(o, name)) o.apply(scratch);
    return scratch.nic.type;
}

}  // namespace

bool sets_nic_type_per_host(const scenario& sc)
{
    return std::any_of(sc.overrides.begin(), sc.overrides.end(),
                       [](const device_override& o) { return o.key == k_type_key; });
}

nic_kind host_nic_kind(const scenario& sc, uint32_t host)
{
    if (!sets_nic_type_per_host(sc)) return sc.nic.type;
    scenario scratch;
    return kind_of(sc, scratch, host);
}

std::vector<nic_kind> host_nic_kinds(const scenario& sc, uint32_t hosts)
{
    if (!sets_nic_type_per_host(sc)) return std::vector<nic_kind>(hosts, sc.nic.type);
    std::vector<nic_kind> out;
    out.reserve(hosts);
    scenario scratch;
    for (uint32_t h = 0; h < hosts; ++h) out.push_back(kind_of(sc, scratch, h));
    return out;
}

std::vector<nic_kind> nic_kinds_in_use(const scenario& sc, uint32_t hosts)
{
    if (!sets_nic_type_per_host(sc)) return {sc.nic.type};
    std::vector<nic_kind> out;
    for (const nic_kind k : host_nic_kinds(sc, hosts))
        if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    return out;
}

nic_config fabric_nic(const scenario& sc, uint32_t hosts)
{
    nic_config n = sc.nic;
    const std::vector<nic_kind> kinds = nic_kinds_in_use(sc, hosts);
    if (kinds.size() == 1) n.type = kinds.front();
    return n;
}

}  // namespace uetsim
