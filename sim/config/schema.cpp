#include "sim/config/schema.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iostream>
#include <limits>

#include "hw/nic/common/nic_buffer_config.h"

namespace uetsim::config {

namespace {

std::string location(const YAML::Mark& m, const std::string& source)
{
    if (source.empty()) return "";
    if (m.is_null()) return source + ": ";
    return source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": ";
}

}  // namespace

std::string location(const YAML::Node& node, const std::string& source)
{
    return location(node.IsDefined() ? node.Mark() : YAML::Mark::null_mark(), source);
}

void fail(const YAML::Node& node, const value_context& ctx, const std::string& what)
{
    bool empty = !node.IsDefined() || node.IsNull();
    std::string where = empty && !ctx.key_mark.is_null() ? location(ctx.key_mark, ctx.source)
                                                         : location(node, ctx.source);
    throw config_error(where + ctx.name + ": " + what);
}

std::string_view type_name(value_type t)
{
    switch (t) {
        case value_type::boolean:
            return "bool";
        case value_type::integer:
            return "integer";
        case value_type::real:
            return "real";
        case value_type::time:
            return "time";
        case value_type::rate:
            return "rate";
        case value_type::frequency:
            return "frequency";
        case value_type::bytes:
            return "size";
        case value_type::text:
            return "string";
        case value_type::choice:
            return "enum";
        case value_type::choice_list:
            return "list";
        case value_type::table:
            return "list of maps";
        case value_type::map:
            return "map";
    }
    return "?";
}

namespace detail {

namespace {

std::string trim(std::string s)
{
    auto not_space = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
    s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
    return s;
}

std::string lower(std::string s)
{
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

size_t edit_distance(const std::string& a, const std::string& b)
{
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string last_component(const std::string& path)
{
    auto dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string in_quotes(const std::string& s)
{
    return "'" + s + "'";
}

bool out_of(const real_range& r, double v)
{
    return v > r.max || v < r.min || (r.min_exclusive && v == r.min);
}

[[noreturn]] void out_of_range(const YAML::Node& node, const value_context& ctx,
                               const std::string& given, const std::string& range, bool sentence)
{
    fail(node, ctx, given + " is out of range" + (sentence ? ": must be " : " ") + range);
}

}  // namespace

std::string scalar(const YAML::Node& node, const value_context& ctx)
{
    if (!node.IsDefined() || node.IsNull()) fail(node, ctx, "no value given");
    if (node.IsSequence()) fail(node, ctx, "expected a single value, got a list");
    if (node.IsMap()) fail(node, ctx, "expected a single value, got a map");
    return trim(node.Scalar());
}

bool read_bool(const YAML::Node& node, const value_context& ctx)
{
    std::string t = scalar(node, ctx);
    std::string l = lower(t);
    if (l == "true") return true;
    if (l == "false") return false;
    fail(node, ctx, in_quotes(t) + " is not a boolean (true or false)");
}

__int128 read_int(const YAML::Node& node, const value_context& ctx, const int_range& r)
{
    std::string t = scalar(node, ctx);
    std::string_view s = t;
    bool negative = false;
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    }
    uint64_t magnitude = 0;
    auto res = std::from_chars(s.data(), s.data() + s.size(), magnitude, base);
    if (s.empty() || res.ptr != s.data() + s.size()) {
        if (res.ec == std::errc::result_out_of_range)
            out_of_range(node, ctx, t, range_text(r), false);
        fail(node, ctx, in_quotes(t) + " is not a whole number");
    }
    __int128 v = negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
    if (v < r.min || v > static_cast<__int128>(r.max))
        out_of_range(node, ctx, t, range_text(r), false);
    if (r.multiple_of > 1 && v % static_cast<__int128>(r.multiple_of) != 0) {
        fail(node, ctx,
             t + (r.multiple_of == 2 ? " is not even"
                                     : " is not a multiple of " + std::to_string(r.multiple_of)));
    }
    return v;
}

double read_real(const YAML::Node& node, const value_context& ctx, const real_range& r)
{
    std::string t = scalar(node, ctx);
    double v = 0;
    if (!parse_plain_number(t, v)) fail(node, ctx, in_quotes(t) + " is not a number");
    if (out_of(r, v)) out_of_range(node, ctx, t, range_text(r, std::nullopt), r.min_exclusive);
    return v;
}

double read_quantity(const YAML::Node& node, const value_context& ctx, dimension d,
                     const real_range& r)
{
    std::string t = scalar(node, ctx);
    double v = 0;
    try {
        v = parse_quantity(t, d);
    } catch (const unit_error& e) {
        fail(node, ctx, e.what());
    }
    if (out_of(r, v)) out_of_range(node, ctx, t, range_text(r, d), r.min_exclusive);
    return v;
}

uint64_t read_bytes(const YAML::Node& node, const value_context& ctx, const int_range& r)
{
    std::string t = scalar(node, ctx);
    uint64_t v = 0;
    try {
        v = parse_bytes(t);
    } catch (const unit_error& e) {
        fail(node, ctx, e.what());
    }
    bool plain = std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    std::string given = plain ? t : in_quotes(t) + " (" + std::to_string(v) + " B)";
    if ((r.min > 0 && v < static_cast<uint64_t>(r.min)) || v > r.max)
        out_of_range(node, ctx, given, range_text(r) + " B", false);
    if (r.multiple_of > 1 && v % r.multiple_of != 0)
        fail(node, ctx, given + " is not a multiple of " + std::to_string(r.multiple_of) + " B");
    return v;
}

std::string read_text(const YAML::Node& node, const value_context& ctx, const text_rule& rule)
{
    std::string t = scalar(node, ctx);
    if (rule.check) {
        if (auto why = rule.check(t)) fail(node, ctx, in_quotes(t) + " " + *why);
    }
    return t;
}

std::array<double, 8> read_class_list(const YAML::Node& node, const value_context& ctx,
                                      const real_range& r, bool whole)
{
    std::string t;
    if (node.IsSequence()) {
        for (size_t i = 0; i < node.size(); ++i) t += (i ? ", " : "") + scalar(node[i], ctx);
        t = "[" + t + "]";
    } else {
        t = scalar(node, ctx);
    }
    std::array<double, 8> v{};
    std::string why;
    if (!parse_class_list(t, v, why)) fail(node, ctx, in_quotes(t) + ": " + why);
    for (size_t i = 0; i < 8; ++i) {
        if (out_of(r, v[i]) || (whole && v[i] != std::floor(v[i])))
            fail(node, ctx,
                 in_quotes(t) + ": entry " + std::to_string(i) + " must be " +
                     (whole ? "a whole number " : "") + range_text(r, std::nullopt));
    }
    return v;
}

std::string format_class_list(const std::array<double, 8>& v)
{
    return uetsim::format_class_list(v);
}

size_t read_choice(const YAML::Node& node, const value_context& ctx,
                   const std::vector<std::string>& allowed,
                   const std::vector<std::string>& not_modelled)
{
    std::string t = scalar(node, ctx);
    auto it = std::find(allowed.begin(), allowed.end(), t);
    if (it != allowed.end()) return static_cast<size_t>(it - allowed.begin());
    std::string list = join(allowed, ", ");
    if (std::find(not_modelled.begin(), not_modelled.end(), t) != not_modelled.end())
        fail(node, ctx, in_quotes(t) + " is not modelled yet; allowed: " + list);
    std::string hint;
    if (auto c = closest(t, allowed)) hint = "; did you mean '" + *c + "'?";
    fail(node, ctx, in_quotes(t) + " is not one of " + list + hint);
}

namespace {

// The items of a list value: a sequence, or a scalar of comma-separated names (the --set
// spelling), each read by `read_item`; an item given twice is an error.
std::vector<std::string> read_string_list(
    const YAML::Node& node, const value_context& ctx,
    const std::function<std::string(const YAML::Node&, const value_context&)>& read_item)
{
    if (node.IsMap()) fail(node, ctx, "expected a list, got a map");
    std::vector<YAML::Node> items;
    if (node.IsSequence()) {
        for (size_t i = 0; i < node.size(); ++i) items.push_back(node[i]);
    } else if (node.IsScalar() && !trim(node.Scalar()).empty()) {
        std::string t = node.Scalar();
        for (size_t start = 0;;) {
            size_t comma = t.find(',', start);
            items.emplace_back(trim(t.substr(start, comma - start)));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < items.size(); ++i) {
        value_context item_ctx{ctx.name + "[" + std::to_string(i) + "]", ctx.source};
        std::string item = read_item(items[i], item_ctx);
        if (std::find(out.begin(), out.end(), item) != out.end())
            fail(items[i], item_ctx, in_quotes(item) + " is listed twice");
        out.push_back(std::move(item));
    }
    return out;
}

}  // namespace

std::vector<double> read_number_list(const YAML::Node& node, const value_context& ctx)
{
    if (node.IsMap()) fail(node, ctx, "expected a list of numbers, got a map");
    std::vector<double> out;
    auto one = [&](const std::string& text, const YAML::Node& n, size_t i) {
        const std::string t = trim(text);
        char* end = nullptr;
        const double v = t.empty() ? 0 : std::strtod(t.c_str(), &end);
        if (t.empty() || *end != '\0' || !std::isfinite(v))
            fail(n, {ctx.name + "[" + std::to_string(i) + "]", ctx.source},
                 in_quotes(t) + " is not a number");
        out.push_back(v);
    };
    if (node.IsSequence()) {
        for (size_t i = 0; i < node.size(); ++i) {
            if (!node[i].IsScalar())
                fail(node[i], {ctx.name + "[" + std::to_string(i) + "]", ctx.source},
                     "expected a number");
            one(node[i].Scalar(), node[i], i);
        }
    } else if (node.IsScalar() && !trim(node.Scalar()).empty()) {
        // The platform's spelling: "0.9, 0.1, 0, ..." with or without the brackets.
        std::string t = trim(node.Scalar());
        if (t.size() >= 2 && t.front() == '[' && t.back() == ']') t = t.substr(1, t.size() - 2);
        size_t i = 0;
        for (size_t start = 0;; ++i) {
            const size_t comma = t.find(',', start);
            one(t.substr(start, comma - start), node, i);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    return out;
}

std::vector<std::string> read_choice_list(const YAML::Node& node, const value_context& ctx,
                                          const std::vector<std::string>& allowed,
                                          const std::vector<choice_alias>& aliases)
{
    return read_string_list(node, ctx, [&](const YAML::Node& n, const value_context& c) {
        if (n.IsScalar())
            for (const auto& a : aliases)
                if (trim(n.Scalar()) == a.old_name) {
                    std::cerr << "uetsim: note: " << c.name << ": '" << a.old_name
                              << "' is now named '" << a.current
                              << "'; the old name is read as the new one until the next "
                                 "release\n";
                    return a.current;
                }
        return allowed[read_choice(n, c, allowed, {})];
    });
}

std::vector<std::string> read_name_list(const YAML::Node& node, const value_context& ctx,
                                        const text_rule& rule)
{
    return read_string_list(node, ctx, [&](const YAML::Node& n, const value_context& c) {
        return read_text(n, c, rule);
    });
}

void warn_deprecated(const std::string& name, const std::string& note)
{
    std::cerr << "uetsim: warning: " << name << " is deprecated: " << note << "\n";
}

std::string range_text(const int_range& r)
{
    std::string s = std::to_string(r.min) + ".." + std::to_string(r.max);
    if (r.multiple_of == 2)
        s += ", even";
    else if (r.multiple_of > 1)
        s += ", a multiple of " + std::to_string(r.multiple_of);
    return s;
}

std::string range_text(const real_range& r, std::optional<dimension> d)
{
    auto fmt = [&](double v) { return d ? format_quantity(v, *d) : format_real(v); };
    if (r.min_exclusive) return "greater than " + fmt(r.min) + " and at most " + fmt(r.max);
    return fmt(r.min) + ".." + fmt(r.max);
}

std::string join(const std::vector<std::string>& items, std::string_view sep)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += sep;
        out += items[i];
    }
    return out;
}

std::string format_real(double v)
{
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string emit(const YAML::Node& node)
{
    YAML::Emitter e;
    e.SetSeqFormat(YAML::Flow);
    e.SetMapFormat(YAML::Flow);
    e << node;
    return e.c_str();
}

void for_each_entry(
    const YAML::Node& map, const value_context& ctx,
    const std::function<void(const std::string&, const YAML::Node&, const YAML::Node&)>& f)
{
    std::vector<std::pair<std::string, YAML::Node>> seen;
    std::string prefix = ctx.name.empty() ? "" : ctx.name + ".";
    for (const auto& entry : map) {
        // Copies: the iterator's pair is a temporary.
        YAML::Node key_node = entry.first;
        YAML::Node value = entry.second;
        if (!key_node.IsScalar()) {
            fail(key_node, {ctx.name.empty() ? "scenario" : ctx.name, ctx.source},
                 "a key must be a name, not a list or map");
        }
        std::string key = key_node.Scalar();
        auto dup = std::find_if(seen.begin(), seen.end(), [&](auto& s) { return s.first == key; });
        if (dup != seen.end()) {
            std::string first;
            if (dup->second.IsDefined() && !dup->second.Mark().is_null())
                first =
                    " (first given at line " + std::to_string(dup->second.Mark().line + 1) + ")";
            throw config_error(location(key_node, ctx.source) + "duplicate key '" + prefix + key +
                               "'" + first);
        }
        seen.emplace_back(key, key_node);
        f(key, key_node, value);
    }
}

std::optional<std::string> closest(const std::string& given,
                                   const std::vector<std::string>& candidates)
{
    std::string g = lower(given);
    const size_t limit = std::max<size_t>(2, given.size() / 4);
    size_t best = std::numeric_limits<size_t>::max();
    std::optional<std::string> out;
    for (const auto& c : candidates) {
        // The distance is at least the difference in length: a candidate that far off could
        // not be suggested, and skipping it keeps a long given name from costing seconds.
        if ((c.size() > g.size() ? c.size() - g.size() : g.size() - c.size()) > limit) continue;
        size_t d = edit_distance(g, lower(c));
        if (d < best) best = d, out = c;
    }
    if (out && best <= limit) return out;
    // The right key name in the wrong section: Switch.RdmaDataMSS -> UetNic.RdmaDataMSS.
    std::string name = lower(last_component(given));
    for (const auto& c : candidates)
        if (lower(last_component(c)) == name) return c;
    return std::nullopt;
}

void unknown_key(const YAML::Node& key_node, const value_context& ctx, const std::string& given,
                 const std::vector<std::string>& known)
{
    std::string msg = location(key_node, ctx.source) + "unknown key '" + given + "'";
    if (auto c = closest(given, known))
        msg += "; did you mean '" + *c + "'?";
    else if (!known.empty() && known.size() <= 12)
        msg += "; known keys: " + join(known, ", ");
    else
        msg += "; 'uetsim keys' lists every key";
    throw config_error(msg);
}

}  // namespace detail

}  // namespace uetsim::config
