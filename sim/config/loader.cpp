#include "sim/config/loader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "sim/default_scenario.h"

namespace uetsim::config {

namespace {

std::string trim(const std::string& s)
{
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::string kind_of(const YAML::Node& n)
{
    if (n.IsSequence()) return "a list";
    if (n.IsMap()) return "a map";
    return "a single value";
}

// Unknown key: the closest known key, else what the section holds.
[[noreturn]] void unknown_key(const YAML::Node& key_node, const std::string& source,
                              const std::string& path)
{
    const auto& sch = schema();
    std::string msg = location(key_node, source) + "unknown key '" + path + "'";
    if (auto c = detail::closest(path, sch.keys.paths()))
        throw config_error(msg + "; did you mean '" + *c + "'?");
    std::string section = path.substr(0, path.find('.'));
    std::vector<std::string> keys;
    for (const auto* k : sch.section_keys(section)) keys.push_back(k->info.path);
    if (sch.find_section(section) && keys.empty())
        msg += "; the " + section + " section has no keys in this version";
    else if (!keys.empty() && keys.size() <= 12)
        msg += "; the " + section + " keys are " + detail::join(keys, ", ");
    else
        msg += "; 'uetsim keys' lists every key";
    throw config_error(msg);
}

[[noreturn]] void unknown_section(const YAML::Node& key_node, const std::string& source,
                                  const std::string& section)
{
    auto names = schema().section_names();
    std::string msg = location(key_node, source) + "unknown section '" + section + "'";
    if (auto c = detail::closest(section, names))
        msg += "; did you mean '" + *c + "'?";
    else
        msg += "; the sections are " + detail::join(names, ", ");
    throw config_error(msg);
}

// A --set value as a YAML node: lists and tables are parsed as YAML flow text
// ("[nd-stats, flow-perf]", "[{Src: 0, Dst: 1, Bytes: 1MB}]"); scalars stay verbatim.
YAML::Node set_value(const key_def<scenario>& key, const std::string& text)
{
    bool yaml = key.info.type == value_type::table ||
                (key.info.type == value_type::choice_list && trim(text).rfind('[', 0) == 0);
    if (!yaml) return YAML::Node(text);
    try {
        YAML::Node n = YAML::Load(text);
        return n;
    } catch (const YAML::Exception& e) {
        throw config_error("--set " + key.info.path + ": malformed YAML value '" + text +
                           "': " + e.msg);
    }
}

}  // namespace

void scenario_builder::load_text(const std::string& yaml_text, const std::string& source)
{
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(yaml_text);
    } catch (const YAML::Exception& e) {
        std::string where = source;
        if (!e.mark.is_null())
            where +=
                ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1);
        throw config_error(where + ": malformed YAML: " + e.msg);
    }
    if (docs.size() > 1)
        throw config_error(source + ": holds " + std::to_string(docs.size()) +
                           " YAML documents; a scenario is a single document");
    if (docs.empty() || docs[0].IsNull()) return;  // an empty scenario: every default
    const YAML::Node& root = docs[0];
    if (!root.IsMap()) {
        throw config_error(location(root, source) +
                           "a scenario must be a map of sections (Simulation, Topology, ...), "
                           "not " +
                           kind_of(root));
    }
    detail::for_each_entry(
        root, {"", source},
        [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
            load_section(key, key_node, value, source);
        });
}

void scenario_builder::load_section(const std::string& section, const YAML::Node& key_node,
                                    const YAML::Node& value, const std::string& source)
{
    const auto& sch = schema();
    const section_def* sec = sch.find_section(section);
    if (!sec) unknown_section(key_node, source, section);
    value_context ctx{section, source, key_node.Mark()};
    if (sec->is_list) {
        if (const auto* key = sch.keys.find(section)) return assign(*key, value, ctx);
        if (value.IsNull() || (value.IsSequence() && value.size() == 0)) return;
        fail(value, ctx, "not supported in this version (the list must be empty)");
    }
    if (value.IsNull()) return;  // "Switch:" with nothing under it
    if (!value.IsMap()) fail(value, ctx, "expected a map of keys, got " + kind_of(value));
    detail::for_each_entry(value, ctx,
                           [&](const std::string& key, const YAML::Node& kn, const YAML::Node& v) {
                               std::string path = section + "." + key;
                               const auto* k = sch.keys.find(path);
                               if (!k) unknown_key(kn, source, path);
                               assign(*k, v, {path, source, kn.Mark()});
                           });
}

void scenario_builder::assign(const key_def<scenario>& key, const YAML::Node& value,
                              const value_context& ctx)
{
    key.assign(m_scenario, value, ctx);
    m_given.insert(key.info.path);
}

void scenario_builder::load_file(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw config_error("cannot read scenario file '" + path + "': no such file");
    if (fs::is_directory(path, ec))
        throw config_error("cannot read scenario file '" + path + "': it is a folder");
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    if (f) ss << f.rdbuf();
    if (!f || f.bad()) {
        throw config_error("cannot read scenario file '" + path +
                           "': " + std::string(std::strerror(errno)));
    }
    load_text(ss.str(), path);
}

void scenario_builder::load_default()
{
    load_text(std::string(default_scenario_yaml()), "default scenario");
}

void scenario_builder::apply_set(const std::string& assignment)
{
    auto eq = assignment.find('=');
    std::string path = trim(assignment.substr(0, eq));
    if (eq == std::string::npos || path.empty()) {
        throw config_error("--set '" + assignment +
                           "': expected Section.Key=VALUE, e.g. --set Topology.Hosts=32");
    }
    std::string text = trim(assignment.substr(eq + 1));
    const auto& sch = schema();

    // One cell of a table row: Flows[3].Bytes=1MiB.
    static const std::regex cell(R"(([A-Za-z]+)\[(\d+)\]\.([A-Za-z0-9_]+))");
    std::smatch m;
    if (std::regex_match(path, m, cell)) {
        const auto* key = sch.keys.find(m[1].str());
        if (!key || key->info.type != value_type::table)
            throw config_error("--set " + path + ": only list sections such as Flows take [index]");
        size_t rows = key->rows(m_scenario);
        size_t i = std::stoul(m[2]);
        std::string row = key->info.path + "[" + m[2].str() + "]";
        if (i >= rows) {
            throw config_error("--set " + path + ": there is no " + row + "; the scenario has " +
                               std::to_string(rows) + " " + key->info.path +
                               (rows ? " (0.." + std::to_string(rows - 1) + ")" : ""));
        }
        key->assign_cell(m_scenario, i, m[3].str(), YAML::Node(text), {row, ""});
        m_given.insert(key->info.path);
        return;
    }
    if (path.find_first_of("[]") != std::string::npos)
        throw config_error("--set " + path + ": expected a key such as Flows[3].Bytes");

    const auto* key = sch.keys.find(path);
    if (!key) {
        const section_def* sec = sch.find_section(path);
        if (sec && sec->is_list)
            throw config_error(path + ": not supported in this version (the list must be empty)");
        if (sec) {
            auto keys = sch.section_keys(path);
            std::string example = keys.empty() ? path + ".Key" : keys.front()->info.path;
            throw config_error("--set " + path + ": " + path +
                               " is a section; --set takes a key such as " + example + "=VALUE");
        }
        unknown_key(YAML::Node(), "", path);
    }
    assign(*key, set_value(*key, text), {path, ""});
}

scenario scenario_builder::finish()
{
    for (const auto& rule : schema().rules) rule.apply(m_scenario, m_given);
    return m_scenario;
}

scenario resolve_scenario(const std::string& file, const std::vector<std::string>& overrides)
{
    scenario_builder b;
    if (file.empty())
        b.load_default();
    else
        b.load_file(file);
    for (const auto& o : overrides) b.apply_set(o);
    return b.finish();
}

scenario resolve_text(const std::string& yaml_text, const std::vector<std::string>& overrides)
{
    scenario_builder b;
    b.load_text(yaml_text, "scenario.yaml");
    for (const auto& o : overrides) b.apply_set(o);
    return b.finish();
}

}  // namespace uetsim::config
