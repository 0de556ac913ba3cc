#include "sim/config/output.h"

#include <sstream>

#include "sim/config/scenario_keys.h"
#include "sim/units.h"

namespace uetsim::config {

namespace {

std::string key_name(const std::string& path)
{
    auto dot = path.find('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

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
        for (const auto* k : keys) m[key_name(k->info.path)] = k->to_yaml(sc);
        root[sec.name] = m;
    }
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
        for (const auto* k : keys) m[key_name(k->info.path)] = k->to_json(sc);
        root[sec.name] = m;
    }
    return root;
}

std::string keys_markdown()
{
    const auto& sch = schema();
    std::ostringstream os;
    os << "# Scenario keys\n\n"
       << "<!-- Generated from the key schema (sim/config/scenario_keys.cpp) by "
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
          "allowed spellings stops the program with exit code 2 and a message naming the key.\n";
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
        for (const auto* k : keys) markdown_row(os, k->info);
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
