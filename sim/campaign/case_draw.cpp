#include "sim/campaign/case_draw.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "hw/common/random.h"
#include "sim/config/loader.h"
#include "sim/config/schema.h"
#include "sim/sweep/sweep_file.h"
#include "sim/units.h"
#include "testbench/elab/topology.h"

namespace uetsim::campaign {

namespace {

std::string block_text(const YAML::Node& doc)
{
    YAML::Emitter e;
    e << doc;
    return std::string(e.c_str()) + "\n";
}

std::optional<scenario> resolve(const YAML::Node& doc, std::string& problem)
{
    try {
        config::scenario_builder b;
        b.load_text(block_text(doc), "campaign case");
        return b.finish();
    } catch (const config::config_error& e) {
        problem = e.what();
    }
    return std::nullopt;
}

class drawer
{
public:
    drawer(uint64_t seed, uint32_t index) : m_rng(seed, "campaign.case." + std::to_string(index)) {}
    uint64_t below(uint64_t n) { return m_rng.below(n); }
    // A whole number in [lo, hi].
    uint64_t integer(const range& r)
    {
        const auto lo = uint64_t(r.lo), hi = uint64_t(r.hi);
        return lo + m_rng.below(hi - lo + 1);
    }
    double uniform(const range& r) { return r.lo + (r.hi - r.lo) * m_rng.uniform(); }
    // Log-uniform in [lo, hi] (lo > 0): sizes and error rates spread over decades.
    double log_uniform(const range& r)
    {
        const double lo = std::max(r.lo, 1e-300);
        return std::exp(std::log(lo) +
                        (std::log(std::max(r.hi, lo)) - std::log(lo)) * m_rng.uniform());
    }
    template <typename T>
    const T& pick(const std::vector<T>& v)
    {
        return v[m_rng.below(v.size())];
    }
    uint64_t next() { return m_rng.next(); }

private:
    random_stream m_rng;
};

// Times to the nanosecond, so that the case file spells them exactly.
std::string time_text(double s)
{
    return format_quantity(std::round(s * 1e9) / 1e9, dimension::time);
}

YAML::Node flow(uint32_t src, uint32_t dst, uint64_t bytes, double start_s = 0)
{
    YAML::Node f(YAML::NodeType::Map);
    f["Src"] = src;
    f["Dst"] = dst;
    f["Bytes"] = format_bytes(bytes);
    if (start_s > 0) f["Start"] = time_text(start_s);
    f.SetStyle(YAML::EmitterStyle::Flow);
    return f;
}

// The hosts in a random order (Fisher-Yates).
std::vector<uint32_t> shuffled(uint32_t n, drawer& d)
{
    std::vector<uint32_t> v(n);
    std::iota(v.begin(), v.end(), 0u);
    for (uint32_t i = n; i > 1; --i) std::swap(v[i - 1], v[d.below(i)]);
    return v;
}

void draw_workload(const campaign_spec::workload_spec& w, uint32_t hosts, YAML::Node& doc,
                   drawer& d, drawn_case& c)
{
    const workload_pattern p = d.pick(w.patterns);
    c.pattern = to_string(p);
    const auto size = [&] {
        return std::max<uint64_t>(1, uint64_t(std::llround(d.log_uniform(w.bytes))));
    };
    YAML::Node flows(YAML::NodeType::Sequence);
    uint64_t largest = 0;
    const auto add = [&](uint32_t s, uint32_t t, uint64_t b, double start = 0) {
        flows.push_back(flow(s, t, b, start));
        largest = std::max(largest, b);
    };
    switch (p) {
        case workload_pattern::permutation: {
            // One cycle through the hosts in a random order: no host sends to itself.
            const auto order = shuffled(hosts, d);
            const uint64_t b = size();
            for (uint32_t i = 0; i < hosts; ++i) add(order[i], order[(i + 1) % hosts], b);
            break;
        }
        case workload_pattern::incast: {
            const auto order = shuffled(hosts, d);
            const uint32_t senders = uint32_t(std::min<uint64_t>(d.integer(w.messages), hosts - 1));
            const uint64_t b = size();
            for (uint32_t i = 1; i <= senders; ++i) add(order[i], order[0], b);
            break;
        }
        case workload_pattern::random_pairs: {
            const uint64_t m = d.integer(w.messages);
            for (uint64_t i = 0; i < m; ++i) {
                const uint32_t s = uint32_t(d.below(hosts));
                const uint32_t t = uint32_t((s + 1 + d.below(hosts - 1)) % hosts);
                add(s, t, size(), d.uniform(w.start));
            }
            break;
        }
        case workload_pattern::all_to_all: {
            const uint64_t b = size();
            for (uint32_t s = 0; s < hosts; ++s)
                for (uint32_t t = 0; t < hosts; ++t)
                    if (s != t) add(s, t, b);
            break;
        }
        case workload_pattern::collective: {
            // Whole chunks for every rank: a multiple of 64 B per host.
            const uint64_t unit = 64ull * hosts;
            const uint64_t b = (size() + unit - 1) / unit * unit;
            YAML::Node coll(YAML::NodeType::Map);
            coll["Type"] = d.pick(w.collectives);
            coll["Bytes"] = format_bytes(b);
            coll["Ranks"] = "all";
            coll.SetStyle(YAML::EmitterStyle::Flow);
            doc["Collectives"].push_back(coll);
            c.messages = 1;
            c.bytes = b;
            return;
        }
    }
    c.messages = uint32_t(flows.size());
    c.bytes = largest;
    doc["Flows"] = flows;
}

// One entry of the Faults list, kept as data until the list is sorted: assigning a YAML::Node
// over another writes into the node it refers to, so nodes cannot be sorted in place.
struct timed_fault
{
    double at_s;
    std::string link;
    const char* action;
    const char* extra_key = nullptr;  // Rate, Loss or Class
    std::string extra_value;

    YAML::Node node() const
    {
        YAML::Node f(YAML::NodeType::Map);
        f["At"] = time_text(at_s);
        f["Link"] = link;
        f["Action"] = action;
        if (extra_key) f[extra_key] = extra_value;
        f.SetStyle(YAML::EmitterStyle::Flow);
        return f;
    }
};

// Every fault ends (an up, a resume) so that delivery stays possible: a case fails only when
// the model loses, duplicates or stalls, never because the draw cut a host off for good.
void draw_faults(const campaign_spec::fault_spec& f, const topology& topo, YAML::Node& doc,
                 drawer& d, drawn_case& c)
{
    const uint64_t n = f.count.hi > 0 ? d.integer(f.count) : 0;
    std::vector<timed_fault> schedule;
    std::vector<uint32_t> host_links;
    for (uint32_t h = 0; h < topo.hosts; ++h) host_links.push_back(topo.devices[h].ports[0].link);
    for (uint64_t i = 0; i < n; ++i) {
        const fault_kind k = d.pick(f.kinds);
        const uint32_t l =
            k == fault_kind::storm ? d.pick(host_links) : uint32_t(d.below(topo.links.size()));
        const std::string& link = topo.links[l].name;
        const double at = std::round(d.uniform(f.at) * 1e9) / 1e9;
        const double end = at + std::max(1e-9, std::round(d.uniform(f.duration) * 1e9) / 1e9);
        std::string what;
        switch (k) {
            case fault_kind::flap:
                schedule.push_back({at, link, "down", nullptr, ""});
                schedule.push_back({end, link, "up", nullptr, ""});
                break;
            case fault_kind::degrade: {
                const double rate = std::max(1e6, std::round(d.uniform(f.rate) / 1e6) * 1e6);
                schedule.push_back(
                    {at, link, "degrade", "Rate", format_quantity(rate, dimension::rate)});
                what = " to " + schedule.back().extra_value;
                schedule.push_back({end, link, "up", nullptr, ""});
                break;
            }
            case fault_kind::loss: {
                const double p = std::max(1e-4, std::round(d.uniform(f.loss) * 1e4) / 1e4);
                schedule.push_back({at, link, "loss", "Loss", fmt::format("{}", p)});
                what = " of " + schedule.back().extra_value;
                schedule.push_back({end, link, "up", nullptr, ""});
                break;
            }
            case fault_kind::storm: {
                const std::string cls = std::to_string(f.storm_class);
                schedule.push_back({at, link, "pause", "Class", cls});
                schedule.push_back({end, link, "resume", "Class", cls});
                break;
            }
            case fault_kind::ber: {
                const std::string ber = fmt::format("{:.3g}", d.log_uniform(f.bit_error_rate));
                doc["Link[" + link + "]"]["BitErrorRate"] = ber;
                c.faults.push_back("ber " + link + " " + ber);
                continue;
            }
        }
        c.faults.push_back(fmt::format("{} {}{} at {} for {}", to_string(k), link, what,
                                       time_text(at), time_text(end - at)));
    }
    if (schedule.empty()) return;
    std::stable_sort(schedule.begin(), schedule.end(),
                     [](const timed_fault& a, const timed_fault& b) { return a.at_s < b.at_s; });
    YAML::Node list(YAML::NodeType::Sequence);
    for (const auto& s : schedule) list.push_back(s.node());
    doc["Faults"] = list;
}

}  // namespace

YAML::Node with_value(const YAML::Node& doc, const std::string& key, const YAML::Node& value)
{
    YAML::Node out = YAML::Clone(doc);
    if (key == "Scenario") {  // sections drawn together: {Nic: {Type: uet}, Switch: {...}}
        for (const auto& section : value)
            out = with_value(out, section.first.Scalar(), section.second);
        return out;
    }
    // Section.Key, Section[glob].Key (the glob may not hold a dot), or a whole Section.
    const size_t close = key.find(']');
    const size_t dot = key.find('.', close == std::string::npos ? 0 : close);
    if (dot == std::string::npos) {
        if (value.IsMap()) {
            for (const auto& kv : value) out[key][kv.first.Scalar()] = YAML::Clone(kv.second);
        } else {
            out[key] = YAML::Clone(value);  // a list section (Flows, Faults) or a bad value
        }
        return out;
    }
    out[key.substr(0, dot)][key.substr(dot + 1)] = YAML::Clone(value);
    return out;
}

std::string scenario_problem(const YAML::Node& doc)
{
    std::string problem;
    resolve(doc, problem);
    return problem;
}

drawn_case draw_case(const campaign_spec& spec, uint32_t index)
{
    drawer d(spec.seed, index);
    drawn_case c;
    c.index = index;
    YAML::Node doc = YAML::Clone(spec.base);
    for (const auto& e : spec.draws) {
        const YAML::Node& v = d.pick(e.values);
        doc = with_value(doc, e.key, v);
        c.draws += (c.draws.empty() ? "" : "; ") + e.key + "=" + sweep::value_text(v);
    }
    doc["Simulation"]["RandomSeed"] = d.next() >> 16;
    doc["Simulation"]["StallTimeout"] = time_text(spec.stall_timeout_s);

    std::string problem;
    auto sc = resolve(doc, problem);
    if (sc) {
        const topology topo = build_topology(*sc);
        c.nic = std::string(sc->nic.type.name);
        c.topology = fmt::format("{} {} hosts", uetsim::to_string(sc->topology.kind), topo.hosts);
        if (topo.hosts >= 2) draw_workload(spec.workload, topo.hosts, doc, d, c);
        draw_faults(spec.faults, topo, doc, d, c);
        sc = resolve(doc, problem);
    }
    if (!sc) c.refused = problem;
    c.yaml = fmt::format(
                 "# Campaign {} case {} (seed {}): a standalone scenario.\n"
                 "#   uetsim run this-file --out DIR   runs the case again.\n"
                 "# Draws: {}\n",
                 spec.path, index, spec.seed, c.draws.empty() ? "(none)" : c.draws) +
             block_text(doc);
    return c;
}

}  // namespace uetsim::campaign
