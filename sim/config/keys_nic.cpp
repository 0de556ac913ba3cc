// Nic.* keys: what sits at each host's network port, per host with Nic[glob].Type. Nic.Type's
// spellings are the registered NIC types (testbench/elab/nic_factory.h), so a type added from
// outside is a choice too. The rules of a fabric that mixes types are here too
// (docs/mixed-fabric.md).
#include "sim/config/keys_common.h"

#include <algorithm>

#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

// "host0..host3, host8": the hosts of type `kind`, consecutive ones as a range.
std::string hosts_of(const std::vector<nic_kind>& kinds, nic_kind kind)
{
    std::string out;
    for (size_t h = 0; h < kinds.size();) {
        if (kinds[h] != kind) {
            ++h;
            continue;
        }
        size_t last = h;
        while (last + 1 < kinds.size() && kinds[last + 1] == kind) ++last;
        out += (out.empty() ? "" : ", ") + std::string("host") + std::to_string(h) +
               (last > h ? "..host" + std::to_string(last) : "");
        h = last + 1;
    }
    return out;
}

// "uet: host0..host7; roce: host8..host15".
std::string types_and_hosts(const std::vector<nic_kind>& kinds, const std::vector<nic_kind>& used)
{
    std::string out;
    for (const nic_kind k : used)
        out += (out.empty() ? "" : "; ") + std::string(k.name) + ": " + hosts_of(kinds, k);
    return out;
}

// A fabric whose hosts have more than one NIC type: raw ports stay among themselves, the
// applications that pair every host with every other stay on one type, and a Flows message
// goes between two NICs of one type (a RoCE NIC and a UET NIC share no transport).
void check_mixed_fabric(const scenario& sc)
{
    if (!sets_nic_type_per_host(sc)) return;
    const uint32_t hosts = host_count(sc.topology);
    const std::vector<nic_kind> used = nic_kinds_in_use(sc, hosts);
    if (used.size() < 2) return;
    const std::vector<nic_kind> kinds = host_nic_kinds(sc, hosts);
    const std::string mix = types_and_hosts(kinds, used);
    if (std::find(used.begin(), used.end(), nic_kind::raw) != used.end())
        fail_rule("Nic.Type: raw ports share the fabric with NICs (" + mix +
                  "): a raw port has no transport to answer a NIC or to honour PFC; allowed: "
                  "raw for every host or for none");
    if (sc.rdma.enabled)
        fail_rule("RdmaApplication.Enabled is true but the hosts have more than one Nic.Type (" +
                  mix +
                  "): the application pairs Initiators and Responders across every host; "
                  "allowed on a mixed fabric: Flows (RdmaApplication.Enabled: false), or one "
                  "Nic.Type for every host");
    if (sc.chakra.enabled())
        fail_rule(
            "Chakra.Traces or Collectives is given but the hosts have more than one "
            "Nic.Type (" +
            mix +
            "): the workload's ranks send to each other across every host; allowed on "
            "a mixed fabric: Flows, or one Nic.Type for every host");
    for (size_t i = 0; i < sc.flows.messages.size(); ++i) {
        const flow_spec& f = sc.flows.messages[i];
        if (f.src >= hosts || f.dst >= hosts || kinds[f.src] == kinds[f.dst]) continue;
        fail_rule("Flows[" + std::to_string(i) + "]: Src " + std::to_string(f.src) + " (host" +
                  std::to_string(f.src) + ", Nic.Type " + std::string(kinds[f.src].name) +
                  ") and Dst " + std::to_string(f.dst) + " (host" + std::to_string(f.dst) +
                  ", Nic.Type " + std::string(kinds[f.dst].name) +
                  ") have NICs of different types, which share no transport; allowed: a Dst "
                  "with Nic.Type " +
                  std::string(kinds[f.src].name) + " (" + hosts_of(kinds, kinds[f.src]) + ")");
    }
}

}  // namespace

void add_nic_keys(scenario_schema& s)
{
    std::vector<std::pair<std::string, nic_kind>> values;
    std::string doc;
    for (const nic_type* t : nic_types()) {
        values.emplace_back(std::string(t->kind.name), t->kind);
        doc += (doc.empty() ? "" : "; ") + std::string(t->kind.name) + ": " + std::string(t->doc);
    }
    s.keys.choice("Nic.Type", UETSIM_FIELD(nic.type), std::move(values),
                  doc +
                      ". Nic[glob].Type gives hosts a type of their own (a mixed fabric: "
                      "docs/mixed-fabric.md).");
}

void add_mixed_fabric_rules(scenario_schema& s)
{
    s.rules.push_back(
        {"Nic[glob].Type with more than one type: no raw port beside NICs, no RDMA application "
         "or Chakra workload, and every Flows message between two hosts of one type.",
         {"Nic.Type", "Flows", "RdmaApplication.Enabled", "Chakra.Traces", "Collectives"},
         [](scenario& sc, const given_keys&) { check_mixed_fabric(sc); }});
}

}  // namespace uetsim::config
