#include "sim/config/loader.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "sim/config/key_name.h"
#include "sim/default_scenario.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

std::string trim(const std::string& s)
{
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

// Section[index].Key: a table row (Flows[3].Bytes) or a per-device key (Switch[leaf*].Ecmp...).
// The index runs to the last "]." that only key characters follow. Plain scanning, not
// std::regex, whose matcher recurses once per character and overflows the stack on long input.
struct indexed_path
{
    std::string section, index, key;
};

std::optional<indexed_path> split_indexed(const std::string& path)
{
    const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
    const auto key_char = [&](char c) { return letter(c) || (c >= '0' && c <= '9') || c == '_'; };
    size_t open = 0;
    while (open < path.size() && letter(path[open])) ++open;
    if (open == 0 || open == path.size() || path[open] != '[') return std::nullopt;
    size_t key = path.size();
    while (key > 0 && key_char(path[key - 1])) --key;
    if (key == path.size() || key < open + 3 || path[key - 1] != '.' || path[key - 2] != ']')
        return std::nullopt;
    std::string index = path.substr(open + 1, key - 2 - (open + 1));
    if (index.find_first_of("\n\r") != std::string::npos) return std::nullopt;
    return indexed_path{path.substr(0, open), std::move(index), path.substr(key)};
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

// "Switch[leaf*]" is section Switch, device-name glob leaf*.
bool split_instance(const std::string& name, std::string& section, std::string& glob)
{
    const auto open = name.find('[');
    if (open == std::string::npos || open == 0 || name.back() != ']') return false;
    section = name.substr(0, open);
    glob = name.substr(open + 1, name.size() - open - 2);
    return true;
}

std::string instance_name(const std::string& section, const std::string& glob)
{
    return section + "[" + glob + "]";
}

// The section of Section[glob] (`shown`), refused where per-device values make no sense.
const section_def& instance_section(const std::string& section, const std::string& glob,
                                    const std::string& shown, const YAML::Node& key_node,
                                    const std::string& source)
{
    const auto& sch = schema();
    const section_def* sec = sch.find_section(section);
    if (!sec) unknown_section(key_node, source, section);
    const std::string where = location(key_node, source) + shown + ": ";
    if (sec->instances == instance_kind::none) {
        std::vector<std::string> device_sections;
        for (const auto& s : sch.sections)
            if (s.instances != instance_kind::none) device_sections.push_back(s.name);
        throw config_error(where + section +
                           " is not a device section: its keys hold for the whole run; "
                           "per-device keys (Section[glob].Key) are for " +
                           detail::join(device_sections, ", "));
    }
    if (glob.empty())
        throw config_error(where + "no device-name glob between [ and ], e.g. " + section +
                           (sec->instances == instance_kind::hosts   ? "[host3]"
                            : sec->instances == instance_kind::links ? "[leaf0-spine*]"
                                                                     : "[leaf*]"));
    return *sec;
}

// "leaf0..leaf3, spine0..spine7": device names grouped by their kind (the letters before the
// number), in topology order.
std::string name_ranges(const std::vector<std::string>& names)
{
    std::vector<std::string> parts;
    for (size_t i = 0; i < names.size();) {
        const std::string kind = names[i].substr(0, names[i].find_first_of("0123456789"));
        size_t j = i;
        while (j + 1 < names.size() && names[j + 1].rfind(kind, 0) == 0 &&
               names[j + 1].find_first_of("0123456789") == kind.size())
            ++j;
        parts.push_back(j == i ? names[i] : names[i] + ".." + names[j]);
        i = j + 1;
    }
    return detail::join(parts, ", ");
}

// "leaf0, leaf1" or "host0, host1, host2 and 13 more".
std::string device_list(const std::vector<std::string>& names)
{
    if (names.size() <= 4) return detail::join(names, ", ");
    return names[0] + ", " + names[1] + ", " + names[2] + " and " +
           std::to_string(names.size() - 3) + " more";
}

// A --set value as a YAML node: lists and tables are parsed as YAML flow text
// ("[nd-stats, flow-perf]", "[{Src: 0, Dst: 1, Bytes: 1MB}]"); scalars stay verbatim.
YAML::Node set_value(const key_def<scenario>& key, const std::string& text)
{
    bool yaml = key.info.type == value_type::table || key.info.type == value_type::map ||
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

// Counts the YAML documents of `text`, stopping at two. yaml-cpp 0.7's LoadAll never returns on
// a ',' outside a flow collection at the top (its parser starts a new, empty document there
// forever without consuming the comma), so the count is bounded and the one document is then
// read with Load.
size_t yaml_documents_up_to_two(const std::string& text)
{
    struct ignore_events : YAML::EventHandler
    {
        void OnDocumentStart(const YAML::Mark&) override {}
        void OnDocumentEnd() override {}
        void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
        void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
        void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                      const std::string&) override
        {
        }
        void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                             YAML::EmitterStyle::value) override
        {
        }
        void OnSequenceEnd() override {}
        void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                        YAML::EmitterStyle::value) override
        {
        }
        void OnMapEnd() override {}
    } events;
    std::istringstream in(text);
    YAML::Parser parser(in);
    size_t n = 0;
    while (n < 2 && parser.HandleNextDocument(events)) ++n;
    return n;
}

}  // namespace

void scenario_builder::load_text(const std::string& yaml_text, const std::string& source)
{
    YAML::Node root;
    try {
        if (yaml_documents_up_to_two(yaml_text) > 1)
            throw config_error(source +
                               ": holds more than one YAML document (a '---' line, or a ',' "
                               "outside [ ] and { }); a scenario is a single document");
        root = YAML::Load(yaml_text);
    } catch (const YAML::Exception& e) {
        std::string where = source;
        if (!e.mark.is_null())
            where +=
                ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1);
        throw config_error(where + ": malformed YAML: " + e.msg);
    }
    if (root.IsNull()) return;  // an empty scenario: every default
    if (!root.IsMap()) {
        throw config_error(location(root, source) +
                           "a scenario must be a map of sections (Simulation, Topology, ...), "
                           "not " +
                           kind_of(root));
    }
    detail::for_each_entry(
        root, {"", source},
        [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
            std::string section, glob;
            if (split_instance(key, section, glob))
                load_instance_section(section, glob, key_node, value, source);
            else
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

void scenario_builder::load_instance_section(const std::string& section, const std::string& glob,
                                             const YAML::Node& key_node, const YAML::Node& value,
                                             const std::string& source)
{
    const std::string shown = instance_name(section, glob);
    const section_def& sec = instance_section(section, glob, shown, key_node, source);
    value_context ctx{shown, source, key_node.Mark()};
    if (value.IsNull()) return;  // "Switch[leaf*]:" with nothing under it
    if (!value.IsMap()) fail(value, ctx, "expected a map of keys, got " + kind_of(value));
    detail::for_each_entry(value, ctx,
                           [&](const std::string& key, const YAML::Node& kn, const YAML::Node& v) {
                               add_override(sec, glob, section + "." + key, kn, v,
                                            {shown + "." + key, source, kn.Mark()});
                           });
}

void scenario_builder::add_override(const section_def& section, const std::string& glob,
                                    const std::string& path, const YAML::Node& key_node,
                                    const YAML::Node& value, const value_context& ctx)
{
    const auto& sch = schema();
    const key_def<scenario>* key = sch.keys.find(path);
    if (!key) {
        std::vector<std::string> known;
        for (const auto* k : sch.section_keys(section.name))
            known.push_back(instance_name(section.name, glob) + "." + key_name(k->info.path));
        detail::unknown_key(key_node, ctx, ctx.name, known);
    }
    if (!key->info.per_instance) {
        throw config_error(location(key_node, ctx.source) + ctx.name + ": " + path +
                           " holds for the whole fabric and cannot be set per device; set " + path +
                           " instead");
    }
    // The plain key's checks and messages, naming the per-instance path.
    scenario scratch;
    key->assign(scratch, value, ctx);
    // The same key for the same glob again: the later value is the only one that counts.
    auto& list = m_scenario.overrides;
    list.erase(
        std::remove_if(list.begin(), list.end(),
                       [&](const device_override& o) { return o.glob == glob && o.key == path; }),
        list.end());
    list.push_back({section.name, glob, path,
                    [key, value, ctx](scenario& sc) { key->assign(sc, value, ctx); }});
}

void scenario_builder::check_overrides()
{
    const auto& overrides = m_scenario.overrides;
    if (overrides.empty()) return;
    const auto& sch = schema();
    const topology topo = build_topology(m_scenario);
    auto kind_of_section = [](const device_override& o) { return override_kind(o); };
    auto is_kind = [](const device& d, instance_kind k) { return instance_kind_of(d) == k; };
    for (const auto& o : overrides) {
        const instance_kind k = kind_of_section(o);
        std::vector<std::string> names;
        bool matched = false;
        if (k == instance_kind::links) {
            for (const auto& l : topo.links) {
                names.push_back(l.name);
                matched = matched || matches(o, l.name);
            }
            if (matched) continue;
            throw config_error(instance_name(o.section, o.glob) + "." + key_name(o.key) + ": '" +
                               o.glob + "' matches no link of this topology; its links are " +
                               name_ranges(names));
        }
        for (const auto& d : topo.devices) {
            if (!is_kind(d, k)) continue;
            names.push_back(d.name);
            matched = matched || matches(o, d.name);
        }
        if (matched) continue;
        const bool hosts = k == instance_kind::hosts;
        const std::string applies = sch.find_section(o.section)->instances == instance_kind::devices
                                        ? std::string(" (") + o.key + " is a block of the " +
                                              (hosts ? "hosts" : "switches") + ")"
                                        : "";
        throw config_error(instance_name(o.section, o.glob) + "." + key_name(o.key) + ": '" +
                           o.glob + "' matches no " + (hosts ? "host" : "switch") +
                           " of this topology" + applies + "; its " +
                           (hosts ? "hosts" : "switches") + " are " + name_ranges(names));
    }
    // Each distinct set of overrides that some devices get is a configuration the rules must
    // accept, as they accept the sections' own values.
    std::map<std::vector<size_t>, std::vector<std::string>> resolutions;
    for (const auto& d : topo.devices) {
        std::vector<size_t> applied;
        for (size_t i = 0; i < overrides.size(); ++i)
            if (is_kind(d, kind_of_section(overrides[i])) && matches(overrides[i], d.name))
                applied.push_back(i);
        if (!applied.empty()) resolutions[applied].push_back(d.name);
    }
    for (const auto& [applied, devices] : resolutions) {
        scenario resolved = m_scenario;
        std::vector<std::string> paths;
        for (size_t i : applied) {
            overrides[i].apply(resolved);
            paths.push_back(instance_name(overrides[i].section, overrides[i].glob) + "." +
                            key_name(overrides[i].key));
        }
        // The sections now hold these devices' configuration; a rule that reads the overrides
        // per device (the stage latencies) must not apply them to every device again. The links'
        // own stay: the fabric the rules build is the run's.
        auto& rest = resolved.overrides;
        rest.erase(std::remove_if(rest.begin(), rest.end(),
                                  [](const device_override& o) { return o.section != "Link"; }),
                   rest.end());
        try {
            for (const auto& rule : sch.rules) rule.apply(resolved, m_given);
        } catch (const config_error& e) {
            throw config_error(device_list(devices) + " with " + detail::join(paths, ", ") + ": " +
                               e.what());
        }
    }
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

    // One cell of a table row (Flows[3].Bytes=1MiB) or a per-device key
    // (Switch[leaf*].EcmpHashMethod=crc32).
    if (const std::optional<indexed_path> ip = split_indexed(path)) {
        const indexed_path& m = *ip;
        const auto* key = sch.keys.find(m.section);
        if (!key || key->info.type != value_type::table) {
            const std::string section = m.section, glob = m.index;
            const section_def& sec =
                instance_section(section, glob, instance_name(section, glob), YAML::Node(), "");
            add_override(sec, glob, section + "." + m.key, YAML::Node(), YAML::Node(text),
                         {path, ""});
            return;
        }
        if (m.index.find_first_not_of("0123456789") != std::string::npos || m.index.empty())
            throw config_error("--set " + path + ": a row of " + key->info.path +
                               " is chosen by its number, e.g. " + key->info.path + "[3]");
        size_t rows = key->rows(m_scenario);
        const std::string& digits = m.index;
        size_t i = 0;  // a number too large for size_t is no row either
        const bool fits =
            std::from_chars(digits.data(), digits.data() + digits.size(), i).ec == std::errc();
        std::string row = key->info.path + "[" + digits + "]";
        if (!fits || i >= rows) {
            throw config_error("--set " + path + ": there is no " + row + "; the scenario has " +
                               std::to_string(rows) + " " + key->info.path +
                               (rows ? " (0.." + std::to_string(rows - 1) + ")" : ""));
        }
        key->assign_cell(m_scenario, i, m.key, YAML::Node(text), {row, ""});
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
    check_overrides();
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
