#include "sim/sweep/sweep_plan.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace uetsim::sweep {

namespace {

// "12.5us" -> 12.5 and "us"; false when the text does not start with a number.
bool split_number(const std::string& text, double& number, std::string& unit)
{
    const char* begin = text.c_str();
    char* end = nullptr;
    number = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(number)) return false;
    unit = std::string(end);
    while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
    return true;
}

bool plain_number(const std::string& text, double& number)
{
    std::string unit;
    return split_number(text, number, unit) && unit.empty();
}

// The short name of a key for run ids: "UetNic.PacketSprayingType" -> "PacketSprayingType",
// "Switch[leaf*].EcmpHashMethod" -> "EcmpHashMethod".
std::string short_name(const std::string& key)
{
    const size_t dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

}  // namespace

std::vector<std::string> range_values(const std::string& from, const std::string& to,
                                      const std::string& step)
{
    double f, t, s;
    std::string fu, tu, su;
    if (!split_number(from, f, fu))
        throw std::invalid_argument("From '" + from + "' is not a number");
    if (!split_number(to, t, tu)) throw std::invalid_argument("To '" + to + "' is not a number");
    if (!split_number(step, s, su))
        throw std::invalid_argument("Step '" + step + "' is not a number");
    if (fu != tu || fu != su)
        throw std::invalid_argument("From, To and Step take the same unit (" + from + ", " + to +
                                    ", " + step + ")");
    if (s <= 0) throw std::invalid_argument("Step " + step + " must be positive");
    if (t < f) throw std::invalid_argument("To " + to + " is below From " + from);
    // The small slack keeps To itself when (To - From) / Step is whole but rounds below it.
    const double n = std::floor((t - f) / s + 1e-9) + 1;
    if (n > double(max_range_values))
        throw std::invalid_argument(
            fmt::format("{:.0f} values; a range holds at most {}", n, max_range_values));
    std::vector<std::string> out;
    for (size_t i = 0; i < size_t(n); ++i)
        out.push_back(fmt::format("{:.12g}", f + double(i) * s) + fu);
    return out;
}

bool same_value(const std::string& a, const std::string& b)
{
    if (a == b) return true;
    double x, y;
    return plain_number(a, x) && plain_number(b, y) && x == y;
}

std::string id_fragment(const std::string& value)
{
    std::string out;
    for (char c : value) {
        const bool keep =
            std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-';
        if (keep)
            out += c;
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "-" : out;
}

std::vector<run> plan::runs() const
{
    // Labels: the short key names, or the whole keys when two axes share a short name.
    std::vector<std::string> labels;
    std::set<std::string> shorts;
    bool clash = false;
    for (const auto& a : axes) clash = !shorts.insert(short_name(a.key)).second || clash;
    for (const auto& a : axes) labels.push_back(id_fragment(clash ? a.key : short_name(a.key)));

    std::vector<run> out;
    if (axes.empty()) return out;
    std::vector<size_t> v(axes.size(), 0);
    std::set<std::string> ids;
    for (;;) {
        bool excluded = false;
        for (const auto& rule : excludes) {
            bool all = !rule.match.empty();
            for (const auto& [ax, val] : rule.match) all = all && v[ax] == val;
            excluded = excluded || all;
        }
        if (!excluded) {
            run r;
            r.index = out.size();
            r.value_index = v;
            for (size_t a = 0; a < axes.size(); ++a)
                r.id += (a ? "_" : "") + labels[a] + "=" + id_fragment(axes[a].values[v[a]]);
            // Two values can read alike once made folder-safe ("a b", "a-b"): number the rest.
            if (!ids.insert(r.id).second) {
                r.id += "~" + std::to_string(r.index);
                ids.insert(r.id);
            }
            out.push_back(std::move(r));
        }
        // Next combination, the last axis fastest.
        size_t a = axes.size();
        while (a > 0 && ++v[a - 1] == axes[a - 1].values.size()) v[--a] = 0;
        if (a == 0) break;
    }
    return out;
}

std::vector<std::string> plan::run_sets(const run& r) const
{
    std::vector<std::string> out = sets;
    for (size_t a = 0; a < axes.size(); ++a)
        out.push_back(axes[a].key + "=" + axes[a].values[r.value_index[a]]);
    return out;
}

}  // namespace uetsim::sweep
