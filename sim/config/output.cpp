#include "sim/config/output.h"

#include <algorithm>
#include <sstream>

#include "sim/config/key_name.h"
#include "sim/config/scenario_keys.h"
#include "sim/units.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

std::string cell(std::string s)
{
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else
            out += c;
    }
    return out;
}

std::string code(const std::string& s)
{
    return s.empty() ? "" : "`" + s + "`";
}

std::string type_text(const key_doc& d)
{
    std::string t(type_name(d.type));
    if (!d.unit.empty() && d.type != value_type::bytes) t += " (" + d.unit + ")";
    return t;
}

void markdown_row(std::ostream& os, const key_doc& d)
{
    os << "| " << code(d.path) << " | " << type_text(d) << " | " << code(cell(d.default_value))
       << " | " << cell(d.allowed) << " | " << cell(d.doc) << " |\n";
}

// The per-device keys grouped by Section[glob], each group in the order it first appears; a key's
// value is read back from a scratch scenario the override is applied to.
struct override_group
{
    std::string name;  // Switch[leaf*]
    std::vector<const device_override*> keys;
};

std::vector<override_group> override_groups(const scenario& sc)
{
    std::vector<override_group> out;
    for (const auto& o : sc.overrides) {
        const std::string name = o.section + "[" + o.glob + "]";
        auto it = std::find_if(out.begin(), out.end(), [&](auto& g) { return g.name == name; });
        if (it == out.end()) it = out.insert(out.end(), override_group{name, {}});
        it->keys.push_back(&o);
    }
    return out;
}

template <class Emit>
void for_each_override(const scenario& sc, Emit emit)
{
    const auto& sch = schema();
    for (const auto& g : override_groups(sc)) {
        for (const auto* o : g.keys) {
            scenario scratch;
            o->apply(scratch);
            emit(g.name, key_name(o->key), *sch.keys.find(o->key), scratch);
        }
    }
}

}  // namespace

std::string scenario_yaml(const scenario& sc)
{
    const auto& sch = schema();
    YAML::Node root(YAML::NodeType::Map);
    for (const auto& sec : sch.sections) {
        auto keys = sch.section_keys(sec.name);
        if (keys.empty()) continue;
        if (sec.is_list) {
            root[sec.name] = keys.front()->to_yaml(sc);
            continue;
        }
        YAML::Node m(YAML::NodeType::Map);
        for (const auto* k : keys)
            if (!k->info.deprecated) m[key_name(k->info.path)] = k->to_yaml(sc);
        root[sec.name] = m;
    }
    for_each_override(
        sc, [&](const std::string& group, const std::string& key, const key_def<scenario>& k,
                const scenario& value) { root[group][key] = k.to_yaml(value); });
    YAML::Emitter e;
    e << root;
    return std::string(e.c_str()) + "\n";
}

nlohmann::ordered_json scenario_json(const scenario& sc)
{
    const auto& sch = schema();
    nlohmann::ordered_json root = nlohmann::ordered_json::object();
    for (const auto& sec : sch.sections) {
        auto keys = sch.section_keys(sec.name);
        if (keys.empty()) continue;
        if (sec.is_list) {
            root[sec.name] = keys.front()->to_json(sc);
            continue;
        }
        nlohmann::ordered_json m = nlohmann::ordered_json::object();
        for (const auto* k : keys)
            if (!k->info.deprecated) m[key_name(k->info.path)] = k->to_json(sc);
        root[sec.name] = m;
    }
    for_each_override(
        sc, [&](const std::string& group, const std::string& key, const key_def<scenario>& k,
                const scenario& value) { root[group][key] = k.to_json(value); });
    return root;
}

nlohmann::ordered_json instances_json(const scenario& sc)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    if (sc.overrides.empty()) return out;
    const auto& sch = schema();
    const topology topo = build_topology(sc);
    for (const auto& d : topo.devices) {
        std::vector<std::string> paths;  // the keys overridden for this device, once each
        for (const auto& o : sc.overrides) {
            if (override_kind(o) != instance_kind_of(d) || !matches(o, d.name)) continue;
            if (std::find(paths.begin(), paths.end(), o.key) == paths.end()) paths.push_back(o.key);
        }
        if (paths.empty()) continue;
        const scenario resolved = scenario_for_device(sc, d.name);
        nlohmann::ordered_json diff = nlohmann::ordered_json::object();
        for (const auto& p : paths) {
            const auto& k = *sch.keys.find(p);
            auto v = k.to_json(resolved);
            if (v != k.to_json(sc)) diff[p] = std::move(v);
        }
        if (!diff.empty()) out[d.name] = std::move(diff);
    }
    return out;
}

std::string instances_text(const scenario& sc)
{
    const auto& sch = schema();
    std::ostringstream os;
    const nlohmann::ordered_json per_device = instances_json(sc);
    for (const auto& [device, keys] : per_device.items()) {
        const scenario resolved = scenario_for_device(sc, device);
        for (const auto& [path, value] : keys.items())
            os << "# " << device << ": " << path << ": "
               << detail::emit(sch.keys.find(path)->to_yaml(resolved)) << "\n";
    }
    return os.str();
}

std::string keys_markdown()
{
    const auto& sch = schema();
    std::vector<std::string> device_sections;
    for (const auto& sec : sch.sections)
        if (sec.instances != instance_kind::none) device_sections.push_back("`" + sec.name + "`");
    std::vector<std::string> fabric_wide;
    for (const auto& k : sch.keys.keys())
        if (!k.info.per_instance) fabric_wide.push_back("`" + k.info.path + "`");
    std::ostringstream os;
    os << "# Scenario keys\n\n"
       << "<!-- Generated from the key schema (sim/config/keys_*.cpp) by "
          "`uetsim keys --markdown`; do not edit by hand. tests/unit/config_docs_test.cpp checks "
          "that it is up to date. -->\n\n"
       << "A scenario file is YAML: a map of sections, each optional, each a map of keys "
          "(`Flows` and `Faults` are lists). `--set Section.Key=VALUE` overrides one key after "
          "the file; `--set Flows[3].Bytes=1MiB` one field of one flow.\n\n"
       << "Values: a number in SI base units (seconds, bits per second, bytes, hertz) or a "
          "string with a unit. Times: "
       << unit_list(dimension::time) << ". Rates: " << unit_list(dimension::rate)
       << ". Sizes: " << unit_list(dimension::bytes)
       << " (KB, MB, GB are decimal: 1 KB = 1000 B; KiB, MiB, GiB are binary). Frequencies: "
       << unit_list(dimension::frequency)
       << ". A value of the wrong kind (a time for a rate) is an error.\n\n"
       << "An unknown section or key, a value of the wrong type, out of range or not among the "
          "allowed spellings stops the program with exit code 2 and a message naming the key.\n\n"
       << "Per-device keys: a top-level `Section[glob]` map, or `--set 'Section[glob].Key=VALUE'`, "
          "overrides a key for the devices whose names match the glob (`*`, `?`, `[..]`), e.g. "
          "`Switch[leaf*].EcmpHashMethod: crc32`, after the plain keys and in the order given. "
          "Sections that take them: "
       << detail::join(device_sections, ", ")
       << "; keys that hold for the whole fabric: " << detail::join(fabric_wide, ", ")
       << ". See [configuration.md](configuration.md).\n";
    for (const auto& sec : sch.sections) {
        os << "\n## " << sec.name << "\n\n" << sec.doc << "\n";
        auto keys = sch.section_keys(sec.name);
        if (keys.empty()) {
            os << (sec.is_list ? "\nNot supported in this version: the list must be empty.\n"
                               : "\nNo keys in this version: any key here is an unknown key.\n");
            continue;
        }
        if (sec.is_list) {
            const key_doc& d = keys.front()->info;
            os << "\n"
               << code(d.path) << ": " << d.doc << " Default: `" << d.default_value
               << "`. Each element is a map:\n\n"
               << "| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
            for (const auto& e : d.elements) markdown_row(os, e);
            continue;
        }
        os << "\n| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
        for (const auto* k : keys) {
            markdown_row(os, k->info);
            if (k->info.type != value_type::map) continue;
            for (key_doc e : k->info.elements) {  // a map's keys, by their full path
                e.path = k->info.path + "." + e.path;
                markdown_row(os, e);
            }
        }
    }
    os << "\n## Rules between keys\n\n";
    for (const auto& r : sch.rules) os << "- " << r.doc << "\n";
    return os.str();
}

std::string keys_text()
{
    std::ostringstream os;
    auto line = [&](const key_doc& d, const std::string& indent) {
        os << indent << d.path << " = " << d.default_value << "  [" << type_text(d);
        if (!d.allowed.empty()) os << "; " << d.allowed;
        os << "]  " << d.doc << "\n";
    };
    for (const auto& k : schema().keys.keys()) {
        line(k.info, "");
        for (const auto& e : k.info.elements) line(e, "  ");
    }
    return os.str();
}

}  // namespace uetsim::config
