#include "sim/sweep/sweep_file.h"

#include <filesystem>
#include <optional>

#include <yaml-cpp/yaml.h>

#include "sim/config/loader.h"

namespace uetsim::sweep {

namespace {

namespace fs = std::filesystem;
using config::config_error;

const std::vector<std::string> top_keys = {"Base", "Set", "Axes", "Exclude"};

std::string line_of(const YAML::Node& n)
{
    return n.Mark().is_null() ? "" : ":" + std::to_string(n.Mark().line + 1);
}

// The loader's verdict on Base + the given assignments: empty when the scenario resolves.
std::string scenario_problem(const plan& p, const std::vector<std::string>& sets)
{
    try {
        config::resolve_scenario(p.base, sets);
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}

axis read_axis(const std::string& file, const std::string& key, const YAML::Node& v)
{
    const std::string where = file + line_of(v) + ": Axes: " + key;
    axis a{key, {}};
    if (v.IsSequence()) {
        for (const auto& e : v) a.values.push_back(value_text(e));
        if (a.values.empty()) throw config_error(where + ": the axis has no values");
        return a;
    }
    if (v.IsMap()) {
        std::optional<std::string> from, to, step;
        for (const auto& kv : v) {
            const std::string k = kv.first.Scalar();
            if (!kv.second.IsScalar()) throw config_error(where + ": " + k + " must be a number");
            if (k == "From")
                from = kv.second.Scalar();
            else if (k == "To")
                to = kv.second.Scalar();
            else if (k == "Step")
                step = kv.second.Scalar();
            else
                throw config_error(where + ": unknown range key '" + k +
                                   "'; a range is {From, To, Step}");
        }
        if (!from || !to)
            throw config_error(where + ": a range needs From and To (Step defaults to 1)");
        try {
            a.values = range_values(*from, *to, step ? *step : "1");
        } catch (const std::invalid_argument& e) {
            throw config_error(where + ": bad range: " + e.what());
        }
        return a;
    }
    throw config_error(where + ": expected a list of values or {From, To, Step}, got '" +
                       value_text(v) + "'");
}

}  // namespace

std::string value_text(const YAML::Node& n)
{
    if (n.IsScalar()) return n.Scalar();
    YAML::Emitter e;
    e.SetMapFormat(YAML::Flow);
    e.SetSeqFormat(YAML::Flow);
    e << n;
    return e.c_str();
}

plan read_sweep_file(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw config_error("cannot read sweep file '" + path + "': no such file");
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::Exception& e) {
        throw config_error(path + line_of(YAML::Node()) + ": malformed YAML: " + e.what());
    }
    if (!root.IsMap())
        throw config_error(path + ": a sweep file is a map with Base, Set, Axes and Exclude");
    for (const auto& kv : root) {
        const std::string k = kv.first.Scalar();
        if (std::find(top_keys.begin(), top_keys.end(), k) == top_keys.end()) {
            std::string hint = "; the keys are Base, Set, Axes, Exclude";
            if (auto c = config::detail::closest(k, top_keys))
                hint = "; did you mean '" + *c + "'?";
            throw config_error(path + line_of(kv.first) + ": unknown key '" + k + "'" + hint);
        }
    }

    plan p;
    if (const auto base = root["Base"]; base && !base.IsNull()) {
        if (!base.IsScalar())
            throw config_error(path + line_of(base) + ": Base: expected a scenario file name");
        fs::path b = base.Scalar();
        if (b.is_relative()) b = fs::absolute(path).parent_path() / b;
        p.base = b.lexically_normal().string();
        if (!fs::is_regular_file(p.base, ec))
            throw config_error(path + line_of(base) + ": Base: no scenario file '" + p.base + "'");
    }
    if (const auto set = root["Set"]; set && !set.IsNull()) {
        if (!set.IsMap())
            throw config_error(path + line_of(set) + ": Set: expected a map {Section.Key: value}");
        for (const auto& kv : set)
            p.sets.push_back(kv.first.Scalar() + "=" + value_text(kv.second));
    }
    if (auto problem = scenario_problem(p, p.sets); !problem.empty())
        throw config_error(path + ": Base and Set do not resolve: " + problem);

    const auto axes = root["Axes"];
    if (!axes || axes.IsNull() || (axes.IsMap() && axes.size() == 0))
        throw config_error(path + ": Axes: a sweep needs at least one axis");
    if (!axes.IsMap())
        throw config_error(path + line_of(axes) + ": Axes: expected a map {Section.Key: values}");
    for (const auto& kv : axes) {
        axis a = read_axis(path, kv.first.Scalar(), kv.second);
        for (const auto& other : p.axes)
            if (other.key == a.key)
                throw config_error(path + ": Axes: " + a.key + " appears twice");
        // An axis none of whose values resolves is a mistake in the sweep file (most often an
        // unknown key); a value that fails only for some runs is a failed run of the sweep.
        std::string first_problem;
        bool any_ok = false;
        for (const auto& v : a.values) {
            std::vector<std::string> sets = p.sets;
            sets.push_back(a.key + "=" + v);
            std::string problem = scenario_problem(p, sets);
            if (problem.empty()) {
                any_ok = true;
                break;
            }
            if (first_problem.empty()) first_problem = problem;
        }
        if (!any_ok)
            throw config_error(path + line_of(kv.first) + ": Axes: " + a.key +
                               ": no value works: " + first_problem);
        p.axes.push_back(std::move(a));
    }

    if (const auto ex = root["Exclude"]; ex && !ex.IsNull()) {
        if (!ex.IsSequence())
            throw config_error(path + line_of(ex) + ": Exclude: expected a list of {axis: value}");
        for (size_t i = 0; i < ex.size(); ++i) {
            const std::string where =
                path + line_of(ex[i]) + ": Exclude[" + std::to_string(i) + "]";
            if (!ex[i].IsMap() || ex[i].size() == 0)
                throw config_error(where + ": expected a map {axis: value, ...}");
            exclude_rule rule;
            for (const auto& kv : ex[i]) {
                const std::string k = kv.first.Scalar();
                size_t ax = 0;
                while (ax < p.axes.size() && p.axes[ax].key != k) ++ax;
                if (ax == p.axes.size()) {
                    std::vector<std::string> keys;
                    for (const auto& a : p.axes) keys.push_back(a.key);
                    throw config_error(where + ": '" + k + "' is not an axis; the axes are " +
                                       config::detail::join(keys, ", "));
                }
                const std::string v = value_text(kv.second);
                const auto& vals = p.axes[ax].values;
                size_t vi = 0;
                while (vi < vals.size() && !same_value(vals[vi], v)) ++vi;
                if (vi == vals.size())
                    throw config_error(where + ": " + k + ": '" + v +
                                       "' is not one of the axis values (" +
                                       config::detail::join(vals, ", ") + ")");
                rule.match.push_back({ax, vi});
            }
            p.excludes.push_back(std::move(rule));
        }
    }
    if (p.runs().empty()) throw config_error(path + ": Exclude leaves no run");
    return p;
}

}  // namespace uetsim::sweep
