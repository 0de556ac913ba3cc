#include "sim/campaign/campaign_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>

#include "sim/campaign/case_draw.h"
#include "sim/config/loader.h"
#include "sim/config/schema.h"
#include "sim/sweep/sweep_file.h"
#include "sim/units.h"

namespace uetsim::campaign {

using config::config_error;

const std::vector<std::pair<std::string, workload_pattern>>& pattern_names()
{
    static const std::vector<std::pair<std::string, workload_pattern>> n = {
        {"permutation", workload_pattern::permutation},
        {"incast", workload_pattern::incast},
        {"random", workload_pattern::random_pairs},
        {"all-to-all", workload_pattern::all_to_all},
        {"collective", workload_pattern::collective},
    };
    return n;
}

const std::vector<std::pair<std::string, fault_kind>>& fault_kind_names()
{
    static const std::vector<std::pair<std::string, fault_kind>> n = {
        {"flap", fault_kind::flap},   {"degrade", fault_kind::degrade}, {"loss", fault_kind::loss},
        {"storm", fault_kind::storm}, {"ber", fault_kind::ber},
    };
    return n;
}

namespace {

template <typename E>
std::string name_of(const std::vector<std::pair<std::string, E>>& names, E e)
{
    for (const auto& [n, v] : names)
        if (v == e) return n;
    return "?";
}

}  // namespace

std::string to_string(workload_pattern p)
{
    return name_of(pattern_names(), p);
}

std::string to_string(fault_kind k)
{
    return name_of(fault_kind_names(), k);
}

namespace {

// What a number in the file measures: how its text is read.
enum class measure { count, probability, bytes, time, rate };

class reader
{
public:
    explicit reader(std::string path) : m_path(std::move(path)) {}

    [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const
    {
        const std::string line =
            at.Mark().is_null() ? "" : ":" + std::to_string(at.Mark().line + 1);
        throw config_error(m_path + line + ": " + what);
    }

    void only_keys(const YAML::Node& map, const std::string& where,
                   const std::vector<std::string>& allowed) const
    {
        if (!map.IsMap())
            fail(map, where + ": expected a map of " + config::detail::join(allowed, ", "));
        for (const auto& kv : map) {
            const std::string k = kv.first.Scalar();
            if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
            std::string hint = "; the keys are " + config::detail::join(allowed, ", ");
            if (auto c = config::detail::closest(k, allowed)) hint = "; did you mean '" + *c + "'?";
            fail(kv.first, "unknown key '" + (where.empty() ? k : where + "." + k) + "'" + hint);
        }
    }

    // A seed: every 64-bit value, read as an integer (a double would round those above 2^53
    // and cannot hold those above 2^64).
    uint64_t seed(const YAML::Node& n, const std::string& key) const
    {
        if (!n.IsScalar()) fail(n, key + ": expected a value, got a list or map");
        const std::string t = n.Scalar();
        uint64_t v = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (t.empty() || ec != std::errc() || end != t.data() + t.size())
            fail(n, key + ": '" + t + "' is not a whole number from 0 to 18446744073709551615");
        return v;
    }

    double number(const YAML::Node& n, const std::string& key, measure m) const
    {
        if (!n.IsScalar()) fail(n, key + ": expected a value, got a list or map");
        const std::string t = n.Scalar();
        try {
            switch (m) {
                case measure::bytes:
                    return double(parse_bytes(t));
                case measure::time:
                    return parse_quantity(t, dimension::time);
                case measure::rate:
                    return parse_quantity(t, dimension::rate);
                case measure::count:
                case measure::probability: {
                    double v = 0;
                    if (!parse_plain_number(t, v) || v < 0 ||
                        (m == measure::count && v != std::floor(v)) ||
                        (m == measure::probability && v > 1))
                        throw unit_error(
                            "'" + t + "' is not " +
                            (m == measure::count ? "a whole number" : "a probability from 0 to 1"));
                    return v;
                }
            }
        } catch (const unit_error& e) {
            fail(n, key + ": " + e.what());
        }
        return 0;
    }

    // A value, or [low, high] with low <= high.
    range read_range(const YAML::Node& n, const std::string& key, measure m) const
    {
        if (n.IsScalar()) {
            const double v = number(n, key, m);
            return {v, v};
        }
        if (!n.IsSequence() || n.size() != 2)
            fail(n, key + ": expected a value or a range [low, high]");
        range r{number(n[0], key, m), number(n[1], key, m)};
        if (r.lo > r.hi) fail(n, key + ": the range's low end is above its high end");
        return r;
    }

    template <typename E>
    std::vector<E> names(const YAML::Node& n, const std::string& key,
                         const std::vector<std::pair<std::string, E>>& table) const
    {
        if (!n.IsSequence() || n.size() == 0) fail(n, key + ": expected a non-empty list");
        std::vector<std::string> allowed;
        for (const auto& [name, v] : table) allowed.push_back(name);
        std::vector<E> out;
        for (const auto& e : n) {
            const std::string t = e.IsScalar() ? e.Scalar() : "";
            auto it = std::find_if(table.begin(), table.end(),
                                   [&](const auto& p) { return p.first == t; });
            if (it == table.end())
                fail(e, key + ": '" + t + "' is not one of " + config::detail::join(allowed, ", "));
            out.push_back(it->second);
        }
        return out;
    }

private:
    std::string m_path;
};

}  // namespace

campaign_spec read_campaign_file(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw config_error("cannot read campaign file '" + path + "': no such file");
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::Exception& e) {
        throw config_error(path + ": malformed YAML: " + e.what());
    }
    reader r(path);
    r.only_keys(
        root, "",
        {"Cases", "Seed", "CaseTimeout", "StallTimeout", "Base", "Draw", "Workload", "Faults"});
    campaign_spec c;
    c.path = path;
    if (auto n = root["Cases"]) {
        const double v = r.number(n, "Cases", measure::count);
        if (v < 1 || v > 1e6) r.fail(n, "Cases: " + n.Scalar() + " is outside 1 .. 1000000");
        c.cases = uint32_t(v);
    }
    if (auto n = root["Seed"]) c.seed = r.seed(n, "Seed");
    if (auto n = root["CaseTimeout"]) {
        c.case_timeout_s = r.number(n, "CaseTimeout", measure::time);
        if (c.case_timeout_s <= 0) r.fail(n, "CaseTimeout: must be above 0");
    }
    if (auto n = root["StallTimeout"]) {
        c.stall_timeout_s = r.number(n, "StallTimeout", measure::time);
        if (c.stall_timeout_s <= 0 || c.stall_timeout_s > 100)
            r.fail(n, "StallTimeout: " + n.Scalar() +
                          " is outside (0, 100s]: every case watches "
                          "for stalls");
    }
    c.base = YAML::Node(YAML::NodeType::Map);
    if (auto n = root["Base"]; n && !n.IsNull()) {
        if (!n.IsMap()) r.fail(n, "Base: expected a scenario document (a map of sections)");
        c.base = YAML::Clone(n);
    }
    if (auto n = root["Draw"]; n && !n.IsNull()) {
        if (!n.IsMap()) r.fail(n, "Draw: expected a map {Section.Key or Section: [values]}");
        for (const auto& kv : n) {
            const std::string key = kv.first.Scalar();
            if (!kv.second.IsSequence() || kv.second.size() == 0)
                r.fail(kv.second, "Draw." + key + ": expected a non-empty list of values");
            if (key == "Scenario")
                for (const auto& v : kv.second)
                    if (!v.IsMap())
                        r.fail(v,
                               "Draw.Scenario: each value is a map of sections, e.g. {Nic: "
                               "{Type: roce}, Switch: {UETPolicyEnabled: false}}");
            draw_entry d{key, {}};
            for (const auto& v : kv.second) d.values.push_back(YAML::Clone(v));
            c.draws.push_back(std::move(d));
        }
    }
    if (auto w = root["Workload"]; w && !w.IsNull()) {
        r.only_keys(w, "Workload", {"Patterns", "Messages", "Bytes", "Start", "Collectives"});
        auto& s = c.workload;
        if (auto n = w["Patterns"]) s.patterns = r.names(n, "Workload.Patterns", pattern_names());
        if (auto n = w["Messages"]) {
            s.messages = r.read_range(n, "Workload.Messages", measure::count);
            if (s.messages.lo < 1) r.fail(n, "Workload.Messages: at least 1");
        }
        if (auto n = w["Bytes"]) s.bytes = r.read_range(n, "Workload.Bytes", measure::bytes);
        if (auto n = w["Start"]) s.start = r.read_range(n, "Workload.Start", measure::time);
        if (auto n = w["Collectives"]) {
            if (!n.IsSequence() || n.size() == 0)
                r.fail(n, "Workload.Collectives: expected a non-empty list of collective types");
            for (const auto& e : n) s.collectives.push_back(e.Scalar());
        }
        const bool collective =
            std::count(s.patterns.begin(), s.patterns.end(), workload_pattern::collective) > 0;
        if (collective && s.collectives.empty())
            r.fail(w,
                   "Workload.Patterns: collective needs Workload.Collectives, e.g. "
                   "[AllReduce, AllToAll]");
    }
    if (auto f = root["Faults"]; f && !f.IsNull()) {
        r.only_keys(
            f, "Faults",
            {"Count", "Kinds", "At", "Duration", "Loss", "Rate", "BitErrorRate", "StormClass"});
        auto& s = c.faults;
        if (auto n = f["Count"]) s.count = r.read_range(n, "Faults.Count", measure::count);
        if (auto n = f["Kinds"]) s.kinds = r.names(n, "Faults.Kinds", fault_kind_names());
        if (auto n = f["At"]) s.at = r.read_range(n, "Faults.At", measure::time);
        if (auto n = f["Duration"]) s.duration = r.read_range(n, "Faults.Duration", measure::time);
        if (auto n = f["Loss"]) s.loss = r.read_range(n, "Faults.Loss", measure::probability);
        if (auto n = f["Rate"]) s.rate = r.read_range(n, "Faults.Rate", measure::rate);
        if (auto n = f["BitErrorRate"]) {
            s.bit_error_rate = r.read_range(n, "Faults.BitErrorRate", measure::probability);
            if (s.bit_error_rate.lo <= 0)
                r.fail(n, "Faults.BitErrorRate: drawn log-uniformly, so above 0");
        }
        if (auto n = f["StormClass"]) {
            const double v = r.number(n, "Faults.StormClass", measure::count);
            if (v > 7) r.fail(n, "Faults.StormClass: " + n.Scalar() + " is outside 0 .. 7");
            s.storm_class = uint32_t(v);
        }
        if (s.count.hi > 0 && s.kinds.empty())
            r.fail(f, "Faults.Kinds: a campaign with faults names their kinds, e.g. [flap, loss]");
        if (s.rate.lo <= 0) r.fail(f, "Faults.Rate: a degraded rate is above 0");
    }
    // Every drawn value must resolve on the base alone: an unknown key or a bad value is the
    // file's mistake, found before any case runs.
    for (const auto& d : c.draws)
        for (const auto& v : d.values)
            if (auto problem = scenario_problem(with_value(c.base, d.key, v)); !problem.empty())
                throw config_error(path + ": Draw." + d.key + ": the value '" +
                                   sweep::value_text(v) + "' does not resolve on Base: " + problem);
    if (auto problem = scenario_problem(c.base); !problem.empty())
        throw config_error(path + ": Base does not resolve: " + problem);
    return c;
}

}  // namespace uetsim::campaign
