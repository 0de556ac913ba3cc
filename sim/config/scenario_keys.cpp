// The scenario schema: its sections in order, then each section's keys and rules, registered by
// the keys_<section>.cpp files in section order. Defaults come from the structs in
// testbench/scenario.h and hw/*/..._config.h. A new section adds one keys file and one line here.
#include "sim/config/keys_common.h"

#include <filesystem>
#include <stdexcept>

namespace uetsim::config {

namespace {

// [a-z]+[0-9]+-[a-z]+[0-9]+(\.[0-9]+)?, scanned: std::regex's matcher recurses once per
// character and overflowed the stack on a long value.
bool is_link_name(const std::string& s)
{
    size_t i = 0;
    const auto run = [&](char lo, char hi) {
        const size_t from = i;
        while (i < s.size() && s[i] >= lo && s[i] <= hi) ++i;
        return i > from;
    };
    const auto device = [&] { return run('a', 'z') && run('0', '9'); };
    if (!device() || i == s.size() || s[i++] != '-' || !device()) return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!run('0', '9')) return false;
    }
    return i == s.size();
}

}  // namespace

const text_rule link_name{
    "link names such as host3-leaf0 or leaf0-spine2",
    [](const std::string& s) -> std::optional<std::string> {
        if (is_link_name(s)) return std::nullopt;
        return "is not a link name (two device names joined by '-', lower tier "
               "first, e.g. host3-leaf0)";
    }};

std::string relative_to_source(const std::string& path, const std::string& source)
{
    namespace fs = std::filesystem;
    if (path.empty() || fs::path(path).is_absolute() || source.empty()) return path;
    const fs::path folder = fs::path(source).parent_path();
    return folder.empty() ? path : (folder / path).lexically_normal().string();
}

text_rule any_path()
{
    return {"a file path",
            [](const std::string&) -> std::optional<std::string> { return std::nullopt; }};
}

void fail_rule(const std::string& msg)
{
    throw config_error(msg);
}

std::string num(double v)
{
    return detail::format_real(v);
}

namespace {

struct schema_section
{
    section_def section;
    void (*add_keys)(scenario_schema&);
};

std::vector<schema_section>& added_sections()
{
    static std::vector<schema_section> added;
    return added;
}

bool schema_in_use = false;

scenario_schema build()
{
    scenario_schema s;
    s.sections = {
        {"Simulation", false,
         "Run control: name, seed, stop time, the RDMA application's run timeline, record "
         "intervals."},
        {"Topology", false, "The fabric: its shape, size and link rate."},
        {"Link", false,
         "The links: propagation delays by tier, and each link's rate, delay and bit error "
         "rate (Link[glob] by link name, e.g. Link[leaf0-spine*]).",
         instance_kind::links},
        {"Nic", false,
         "What sits at each host's network port (Nic[glob].Type by host name, e.g. "
         "Nic[host[4-7]]: a fabric of RoCE and UET NICs).",
         instance_kind::hosts},
        {"Switch", false, "Every fabric switch (the switch pages' attributes).",
         instance_kind::switches},
        {"UetNic", false, "The UET NIC, its PDS manager and packet spraying.",
         instance_kind::hosts},
        {"RoceNic", false,
         "The RoCE v2 NIC (Nic.Type: roce): its queue pair manager, transport layer, ECN handler "
         "and buffers.",
         instance_kind::hosts},
        {"Pcie", false,
         "Each host's PCIe link between host and NIC: lanes and lane rate per direction, transfer "
         "size and overhead, latency.",
         instance_kind::hosts},
        {"RdmaApplication", false,
         "The RDMA application: Initiators and Responders placed on the hosts and paired, "
         "NumConnections per pair, each connection keeping MaxPendingWQEs RDMA WRITEs "
         "outstanding from the end of the client start window to the stop time."},
        {"Flows", true,
         "Directed messages between hosts, an alternative to RdmaApplication for directed "
         "experiments."},
        {"Chakra", false,
         "The Chakra workload: execution traces replayed per rank, collectives expanded by the "
         "selected algorithms (docs/collectives.md)."},
        {"Collectives", true,
         "Built-in collectives (AllReduce, AllToAll, ...) over chosen hosts, replayed as a Chakra "
         "traceset."},
        {"Faults", true, "Link faults at given times: down, up, degraded rate, random loss."},
        {"Records", false, "Which records the run writes."},
        {"Trace", false, "Waveforms of NIC, switch and link state (FST or VCD, for gtkwave)."},
        {"Rtl", false,
         "Verilated RTL blocks in place of, or in lockstep with, parts of the model: model, rtl "
         "or both per block and device (docs/rtl.md).",
         instance_kind::devices},
        {"Capture", false, "Packet captures (pcap) of chosen links."},
        {"Check", false, "Run-time checks (no keys yet)."},
    };
    for (const schema_section& a : added_sections()) {
        if (s.find_section(a.section.name))
            throw std::logic_error("section " + a.section.name + " is uetsim's own");
        s.sections.push_back(a.section);
    }
    add_simulation_keys(s);
    add_topology_keys(s);
    add_link_keys(s);
    add_nic_keys(s);
    add_switch_keys(s);
    add_uet_nic_keys(s);
    add_pcie_keys(s);
    add_rdma_application_keys(s);
    // After the application's rule, which resolves RdmaApplication.Enabled and the control
    // class that the RoCE rules read.
    add_roce_nic_keys(s);
    add_flows_keys(s);
    add_chakra_keys(s);  // after the application's rule: it turns the application off
    add_faults_keys(s);
    add_mixed_fabric_rules(s);
    add_records_keys(s);
    add_trace_keys(s);
    add_rtl_keys(s);
    add_capture_keys(s);
    for (const schema_section& a : added_sections()) a.add_keys(s);
    s.check_rule_keys();
    return s;
}

}  // namespace

const section_def* scenario_schema::find_section(const std::string& name) const
{
    for (const auto& sec : sections)
        if (sec.name == name) return &sec;
    return nullptr;
}

std::vector<std::string> scenario_schema::section_names() const
{
    std::vector<std::string> out;
    for (const auto& sec : sections) out.push_back(sec.name);
    return out;
}

std::vector<const key_def<scenario>*> scenario_schema::section_keys(
    const std::string& section) const
{
    std::vector<const key_def<scenario>*> out;
    for (const auto& k : keys.keys()) {
        const std::string& p = k.info.path;
        if (p == section || p.rfind(section + ".", 0) == 0) out.push_back(&k);
    }
    return out;
}

void scenario_schema::check_rule_keys() const
{
    for (const auto& r : rules)
        for (const auto& path : r.keys)
            if (!keys.find(path))
                throw std::logic_error("the rule '" + r.doc + "' names " + path +
                                       ", which is not a registered scenario key");
}

const scenario_schema& schema()
{
    schema_in_use = true;
    static const scenario_schema s = build();
    return s;
}

void add_schema_section(section_def section, void (*add_keys)(scenario_schema&))
{
    if (schema_in_use)
        throw std::logic_error("section " + section.name +
                               " is added after the scenario schema was first used");
    for (const schema_section& a : added_sections())
        if (a.section.name == section.name)
            throw std::logic_error("section " + section.name + " is added twice");
    added_sections().push_back({std::move(section), add_keys});
}

}  // namespace uetsim::config
