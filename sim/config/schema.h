// A declarative table of scenario keys. Each key binds a path (Switch.EcmpHashMethod) to a field
// with a type, a range and a doc line; the table is the single source for loading YAML, --set,
// validation, printing the resolved scenario and the generated key reference
// (docs/scenario-keys.md). Adding a key is one registration line in scenario_keys.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "sim/units.h"

namespace uetsim::config {

// Bad input: the message is complete (location, key path, value, what is allowed); the command
// prints it after "uetsim: error: " and exits with code 2.
class config_error : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The key path used in messages ("Topology.Hosts", "Flows[3].Dst") and the file the value came
// from (empty for --set values, which have no position).
struct value_context
{
    std::string name;
    std::string source;
    // Where the key was written: an empty value ("Hosts:") has no useful position of its own.
    YAML::Mark key_mark = YAML::Mark::null_mark();
};

// "file:line:col: " for a node read from a file, "" otherwise.
std::string location(const YAML::Node& node, const std::string& source);

// Throws config_error "<location><ctx.name>: <what>".
[[noreturn]] void fail(const YAML::Node& node, const value_context& ctx, const std::string& what);

enum class value_type {
    boolean,
    integer,
    real,
    time,
    rate,
    frequency,
    bytes,
    text,
    choice,
    choice_list,
    table,
    map
};
std::string_view type_name(value_type t);

// Inclusive integer range, optionally restricted to multiples of a step (e.g. even numbers).
struct int_range
{
    int64_t min;
    uint64_t max;
    uint64_t multiple_of = 1;
};

// Real range, inclusive unless min_exclusive (e.g. a stop time must be > 0).
struct real_range
{
    double min;
    double max;
    bool min_exclusive = false;
};

struct text_rule
{
    std::string allowed;  // for docs: "letters, digits, '_', '.' and '-'"
    // nullopt when the text is acceptable, else what is wrong ("may only contain ...").
    std::function<std::optional<std::string>(const std::string&)> check;
};

// What the docs and `uetsim keys` show about a key.
struct key_doc
{
    std::string path;
    value_type type = value_type::text;
    std::string unit;           // SI base unit for quantities, "" otherwise
    std::string default_value;  // as YAML text
    std::string allowed;        // range or spellings
    std::string doc;
    bool required = false;  // table rows only
    // false: one value for the whole fabric, which Section[glob].Key may not override (a key that
    // the application or a record reads too).
    bool per_instance = true;
    // Read for one release, never printed: the resolved scenario shows its replacement.
    bool deprecated = false;
    std::vector<key_doc> elements;  // the row keys of a table
};

template <class Owner>
struct key_def
{
    key_doc info;
    // Reads the value given for this key, checks it and stores it; throws config_error.
    std::function<void(Owner&, const YAML::Node&, const value_context&)> assign;
    std::function<YAML::Node(const Owner&)> to_yaml;
    std::function<nlohmann::ordered_json(const Owner&)> to_json;
    // Tables only: row count and one cell's assignment (--set Flows[3].Bytes=1MB).
    std::function<size_t(const Owner&)> rows;
    std::function<void(Owner&, size_t, const std::string&, const YAML::Node&, const value_context&)>
        assign_cell;
};

// Non-template parts of the key types; each throws config_error naming ctx.name.
namespace detail {

std::string scalar(const YAML::Node& node, const value_context& ctx);
bool read_bool(const YAML::Node& node, const value_context& ctx);
// Signed or unsigned 64-bit values both fit; __int128 is a GCC/Clang extension.
__int128 read_int(const YAML::Node& node, const value_context& ctx, const int_range& r);
double read_real(const YAML::Node& node, const value_context& ctx, const real_range& r);
double read_quantity(const YAML::Node& node, const value_context& ctx, dimension d,
                     const real_range& r);
uint64_t read_bytes(const YAML::Node& node, const value_context& ctx, const int_range& r);
std::string read_text(const YAML::Node& node, const value_context& ctx, const text_rule& rule);
// Eight per-class entries (a sequence, or one scalar "[a, b, ...]"), each in `r`.
std::array<double, 8> read_class_list(const YAML::Node& node, const value_context& ctx,
                                      const real_range& r, bool whole);
std::string format_class_list(const std::array<double, 8>& v);
// The index of the spelling given; a not_modelled spelling gets its own message.
size_t read_choice(const YAML::Node& node, const value_context& ctx,
                   const std::vector<std::string>& allowed,
                   const std::vector<std::string>& not_modelled);
// An old spelling still accepted for a renamed choice: read as `current`, with a note on
// stderr (for one release).
struct choice_alias
{
    std::string old_name;
    std::string current;
};

std::vector<std::string> read_choice_list(const YAML::Node& node, const value_context& ctx,
                                          const std::vector<std::string>& allowed,
                                          const std::vector<choice_alias>& aliases = {});
// A list of numbers (a sequence, or comma-separated in one scalar with or without brackets);
// the count and the values are the key's rules to check.
std::vector<double> read_number_list(const YAML::Node& node, const value_context& ctx);
// A list of names checked by `rule` (a sequence, or comma-separated in one scalar).
std::vector<std::string> read_name_list(const YAML::Node& node, const value_context& ctx,
                                        const text_rule& rule);

// "uetsim: warning: <name> is deprecated: <note>" on stderr.
void warn_deprecated(const std::string& name, const std::string& note);

std::string range_text(const int_range& r);
std::string range_text(const real_range& r, std::optional<dimension> d);
std::string join(const std::vector<std::string>& items, std::string_view sep);
std::string format_real(double v);
std::string emit(const YAML::Node& node);  // one-line YAML text (flow style)

// Walks a YAML map in order, rejecting duplicate and non-scalar keys.
void for_each_entry(const YAML::Node& map, const value_context& ctx,
                    const std::function<void(const std::string& key, const YAML::Node& key_node,
                                             const YAML::Node& value)>& f);

// The candidate closest to `given` (case-insensitive edit distance), if close enough.
std::optional<std::string> closest(const std::string& given,
                                   const std::vector<std::string>& candidates);

// "unknown key 'X'; did you mean 'Y'?" or with the known keys listed when nothing is close.
[[noreturn]] void unknown_key(const YAML::Node& key_node, const value_context& ctx,
                              const std::string& given, const std::vector<std::string>& known);

}  // namespace detail

// Binds a member path, for registration lines: UETSIM_FIELD(topology.hosts). A generic lambda
// serves both const (printing) and mutable (loading) access.
// clang-format off
#define UETSIM_FIELD(member) [](auto& o) -> auto& { return o.member; }
// clang-format on

template <class Owner>
class key_table
{
public:
    template <class F>
    using field_type = std::remove_cv_t<
        std::remove_reference_t<decltype(std::declval<F>()(std::declval<Owner&>()))>>;

    // For a key whose default a rule derives from other keys: the text the key reference shows.
    key_table& default_shown(std::string text)
    {
        m_keys.back().info.default_value = std::move(text);
        return *this;
    }

    template <class F>
    key_table& boolean(std::string path, F field, std::string doc)
    {
        auto& k = add(std::move(path), value_type::boolean, "", "true, false", std::move(doc));
        k.assign = [field](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = detail::read_bool(n, c);
        };
        k.to_yaml = [field](const Owner& o) { return YAML::Node(field(o) ? "true" : "false"); };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(bool(field(o))); };
        return done(k);
    }

    template <class F>
    key_table& integer(std::string path, F field, int_range r, std::string doc)
    {
        using T = field_type<F>;
        static_assert(std::is_integral_v<T>);
        check_fits<T>(path, r);
        auto& k =
            add(std::move(path), value_type::integer, "", detail::range_text(r), std::move(doc));
        k.assign = [field, r](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = static_cast<T>(detail::read_int(n, c, r));
        };
        k.to_yaml = [field](const Owner& o) { return YAML::Node(std::to_string(+field(o))); };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(+field(o)); };
        return done(k);
    }

    // An integer, or the word `auto` for a value derived from the rest of the scenario: `flag`
    // is set and the field left for a rule to fill in, so the resolved scenario shows the number
    // used; a number clears the flag.
    template <class F, class G>
    key_table& integer_or_auto(std::string path, F field, G flag, int_range r, std::string doc)
    {
        integer(std::move(path), field, r, std::move(doc));
        auto& k = m_keys.back();
        k.info.allowed = "auto, or " + k.info.allowed;
        k.assign = [field, flag, r](Owner& o, const YAML::Node& n, const value_context& c) {
            flag(o) = n.IsScalar() && n.Scalar() == "auto";
            if (flag(o)) return;
            try {
                field(o) = static_cast<field_type<F>>(detail::read_int(n, c, r));
            } catch (const config_error& e) {
                throw config_error(std::string(e.what()) + "; or the word auto");
            }
        };
        return *this;
    }

    // An integer, or the word `infinite`, held as 0 (PCIe flow-control credits: the
    // specification's InitFC encoding of infinite is 0).
    template <class F>
    key_table& integer_or_infinite(std::string path, F field, int_range r, std::string doc)
    {
        integer(std::move(path), field, r, std::move(doc));
        auto& k = m_keys.back();
        k.info.allowed = "infinite, or " + k.info.allowed;
        k.assign = [field, r](Owner& o, const YAML::Node& n, const value_context& c) {
            if (n.IsScalar() && n.Scalar() == "infinite") {
                field(o) = 0;
                return;
            }
            try {
                field(o) = static_cast<field_type<F>>(detail::read_int(n, c, r));
            } catch (const config_error& e) {
                throw config_error(std::string(e.what()) + "; or the word infinite");
            }
        };
        k.to_yaml = [field](const Owner& o) {
            return field(o) ? YAML::Node(std::to_string(+field(o))) : YAML::Node("infinite");
        };
        k.to_json = [field](const Owner& o) {
            return field(o) ? nlohmann::ordered_json(+field(o))
                            : nlohmann::ordered_json("infinite");
        };
        k.info.default_value = detail::emit(k.to_yaml(Owner{}));
        return *this;
    }

    // A rate, or one of `words` standing for a rate (Pcie.NicSideLaneBps: Gen4); the resolved
    // scenario shows the rate.
    template <class F>
    key_table& rate_or_words(std::string path, F field, real_range r,
                             std::vector<std::pair<std::string, double>> words, std::string doc)
    {
        quantity(std::move(path), dimension::rate, field, r, std::move(doc));
        auto& k = m_keys.back();
        std::vector<std::string> names;
        for (auto& w : words) names.push_back(w.first);
        k.info.allowed += ", or " + detail::join(names, ", ");
        k.assign = [field, r, words, names](Owner& o, const YAML::Node& n, const value_context& c) {
            if (n.IsScalar())
                for (auto& w : words)
                    if (n.Scalar() == w.first) {
                        field(o) = w.second;
                        return;
                    }
            try {
                field(o) = detail::read_quantity(n, c, dimension::rate, r);
            } catch (const config_error& e) {
                throw config_error(std::string(e.what()) + "; or one of " +
                                   detail::join(names, ", "));
            }
        };
        return *this;
    }

    template <class F>
    key_table& real(std::string path, F field, real_range r, std::string doc)
    {
        auto& k = add(std::move(path), value_type::real, "", detail::range_text(r, std::nullopt),
                      std::move(doc));
        k.assign = [field, r](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = detail::read_real(n, c, r);
        };
        k.to_yaml = [field](const Owner& o) { return YAML::Node(detail::format_real(field(o))); };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(field(o)); };
        return done(k);
    }

    // A time, rate or frequency held as a double in SI base units.
    template <class F>
    key_table& quantity(std::string path, dimension d, F field, real_range r, std::string doc)
    {
        auto& k = add(std::move(path), quantity_type(d), std::string(base_unit(d)),
                      detail::range_text(r, d), std::move(doc));
        k.assign = [field, d, r](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = detail::read_quantity(n, c, d, r);
        };
        k.to_yaml = [field, d](const Owner& o) { return YAML::Node(format_quantity(field(o), d)); };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(field(o)); };
        return done(k);
    }

    template <class F>
    key_table& time(std::string path, F field, real_range r, std::string doc)
    {
        return quantity(std::move(path), dimension::time, field, r, std::move(doc));
    }

    // A time, or the word `none` for "not given", held as a negative time so the resolved
    // scenario prints `none` and reads back the same (Flows[].RecvPostedAt).
    template <class F>
    key_table& time_or_none(std::string path, F field, real_range r, std::string doc)
    {
        quantity(std::move(path), dimension::time, field, r, std::move(doc));
        auto& k = m_keys.back();
        k.info.allowed += ", or none";
        k.assign = [field, r](Owner& o, const YAML::Node& n, const value_context& c) {
            if (n.IsScalar() && n.Scalar() == "none") {
                field(o) = -1;
                return;
            }
            try {
                field(o) = detail::read_quantity(n, c, dimension::time, r);
            } catch (const config_error& e) {
                throw config_error(std::string(e.what()) + "; or the word none");
            }
        };
        k.to_yaml = [field](const Owner& o) {
            return field(o) < 0 ? YAML::Node("none")
                                : YAML::Node(format_quantity(field(o), dimension::time));
        };
        k.to_json = [field](const Owner& o) {
            return field(o) < 0 ? nlohmann::ordered_json("none") : nlohmann::ordered_json(field(o));
        };
        k.info.default_value = detail::emit(k.to_yaml(Owner{}));
        return *this;
    }

    // A time, or the word `auto` for a value a rule derives: `flag` is set and the time is left
    // for the rule, which clears the flag, so the resolved scenario shows the time used.
    template <class F, class G>
    key_table& time_or_auto(std::string path, F field, G flag, real_range r, std::string doc)
    {
        quantity(std::move(path), dimension::time, field, r, std::move(doc));
        auto& k = m_keys.back();
        k.info.allowed += ", or auto";
        k.assign = [field, flag, r](Owner& o, const YAML::Node& n, const value_context& c) {
            flag(o) = n.IsScalar() && n.Scalar() == "auto";
            if (flag(o)) return;
            try {
                field(o) = detail::read_quantity(n, c, dimension::time, r);
            } catch (const config_error& e) {
                throw config_error(std::string(e.what()) + "; or the word auto");
            }
        };
        return *this;
    }

    // A time or rate, or the word `auto` that stays in the resolved scenario: what it stands
    // for differs per instance (Link.Delay: auto is NicDelay or SwitchDelay by the link's tier),
    // so `flag` stays set and the scenario shows `auto`.
    template <class F, class G>
    key_table& quantity_or_auto(std::string path, dimension d, F field, G flag, real_range r,
                                std::string doc)
    {
        quantity(std::move(path), d, field, r, std::move(doc));
        auto& k = m_keys.back();
        k.info.allowed += ", or auto";
        k.assign = [field, flag, d, r](Owner& o, const YAML::Node& n, const value_context& c) {
            flag(o) = n.IsScalar() && n.Scalar() == "auto";
            if (flag(o)) return;
            try {
                field(o) = detail::read_quantity(n, c, d, r);
            } catch (const config_error& e) {
                throw config_error(std::string(e.what()) + "; or the word auto");
            }
        };
        k.to_yaml = [field, flag, d](const Owner& o) {
            return flag(o) ? YAML::Node("auto") : YAML::Node(format_quantity(field(o), d));
        };
        k.to_json = [field, flag](const Owner& o) {
            return flag(o) ? nlohmann::ordered_json("auto") : nlohmann::ordered_json(field(o));
        };
        return *this;
    }

    template <class F>
    key_table& rate(std::string path, F field, real_range r, std::string doc)
    {
        return quantity(std::move(path), dimension::rate, field, r, std::move(doc));
    }

    template <class F>
    key_table& bytes(std::string path, F field, int_range r, std::string doc)
    {
        using T = field_type<F>;
        static_assert(std::is_integral_v<T>);
        check_fits<T>(path, r);
        auto& k = add(std::move(path), value_type::bytes, "B", detail::range_text(r) + " B",
                      std::move(doc));
        k.assign = [field, r](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = static_cast<T>(detail::read_bytes(n, c, r));
        };
        k.to_yaml = [field](const Owner& o) { return YAML::Node(format_bytes(field(o))); };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(uint64_t(field(o))); };
        return done(k);
    }

    // A byte count, or the word `auto` that stays in the resolved scenario (its value differs
    // per instance: Link.LlrReplayBufferBytes is derived from each link).
    template <class F, class G>
    key_table& bytes_or_auto(std::string path, F field, G flag, int_range r, std::string doc)
    {
        bytes(std::move(path), field, r, std::move(doc));
        auto& k = m_keys.back();
        k.info.allowed += ", or auto";
        k.assign = [field, flag, r](Owner& o, const YAML::Node& n, const value_context& c) {
            flag(o) = n.IsScalar() && n.Scalar() == "auto";
            if (flag(o)) return;
            try {
                field(o) = static_cast<field_type<F>>(detail::read_bytes(n, c, r));
            } catch (const config_error& e) {
                throw config_error(std::string(e.what()) + "; or the word auto");
            }
        };
        k.to_yaml = [field, flag](const Owner& o) {
            return flag(o) ? YAML::Node("auto") : YAML::Node(format_bytes(field(o)));
        };
        k.to_json = [field, flag](const Owner& o) {
            return flag(o) ? nlohmann::ordered_json("auto")
                           : nlohmann::ordered_json(uint64_t(field(o)));
        };
        return *this;
    }

    // A per-traffic-class list (the NIC buffers' PoolAllocationVector, WRRQueueWeights, ...):
    // eight entries, the index the class, written "[0.9, 0.1, 0, 0, 0, 0, 0, 0]" or as a YAML
    // sequence; each in `r`, whole numbers only when `whole`. The field is a std::array of 8.
    template <class F>
    key_table& class_list(std::string path, F field, real_range r, bool whole, std::string doc)
    {
        auto& k = add(std::move(path), value_type::text, "",
                      std::string("eight entries, one per traffic class 0-7, each ") +
                          (whole ? "a whole number " : "") + detail::range_text(r, std::nullopt),
                      std::move(doc));
        k.assign = [field, r, whole](Owner& o, const YAML::Node& n, const value_context& c) {
            const std::array<double, 8> v = detail::read_class_list(n, c, r, whole);
            auto& f = field(o);
            using E = std::decay_t<decltype(f[0])>;
            for (size_t i = 0; i < 8; ++i) f[i] = static_cast<E>(v[i]);
        };
        k.to_yaml = [field](const Owner& o) {
            std::array<double, 8> v{};
            for (size_t i = 0; i < 8; ++i) v[i] = double(field(o)[i]);
            return YAML::Node(detail::format_class_list(v));
        };
        k.to_json = [field](const Owner& o) {
            nlohmann::ordered_json a = nlohmann::ordered_json::array();
            for (size_t i = 0; i < 8; ++i) a.push_back(double(field(o)[i]));
            return a;
        };
        return done(k);
    }

    template <class F>
    key_table& text(std::string path, F field, text_rule rule, std::string doc)
    {
        auto& k = add(std::move(path), value_type::text, "", rule.allowed, std::move(doc));
        k.assign = [field, rule](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = detail::read_text(n, c, rule);
        };
        k.to_yaml = [field](const Owner& o) { return YAML::Node(field(o)); };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(field(o)); };
        return done(k);
    }

    // An enumeration: the spellings in order with their values. A not_modelled spelling is a
    // known value of the model pages that this simulator rejects with its own message.
    template <class F>
    key_table& choice(std::string path, F field,
                      std::vector<std::pair<std::string, field_type<F>>> values, std::string doc,
                      std::vector<std::string> not_modelled = {})
    {
        std::vector<std::string> names;
        for (auto& v : values) names.push_back(v.first);
        auto& k =
            add(std::move(path), value_type::choice, "", detail::join(names, ", "), std::move(doc));
        k.assign = [field, values, names, not_modelled](Owner& o, const YAML::Node& n,
                                                        const value_context& c) {
            field(o) = values[detail::read_choice(n, c, names, not_modelled)].second;
        };
        k.to_yaml = [field, values](const Owner& o) {
            return YAML::Node(spelling(values, field(o)));
        };
        k.to_json = [field, values](const Owner& o) {
            return nlohmann::ordered_json(spelling(values, field(o)));
        };
        return done(k);
    }

    // A key whose value has a form of its own (Collectives[].Ranks: a word, a list or a map):
    // `read(node, ctx)` returns the value or throws config_error (fail()); `yaml(value)` and
    // `json(value)` print it so that it reads back as the same value.
    template <class F, class Read, class Yaml, class Json>
    key_table& custom(std::string path, F field, std::string allowed, Read read, Yaml yaml,
                      Json json, std::string doc)
    {
        auto& k = add(std::move(path), value_type::text, "", std::move(allowed), std::move(doc));
        k.assign = [field, read](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = read(n, c);
        };
        k.to_yaml = [field, yaml](const Owner& o) { return yaml(field(o)); };
        k.to_json = [field, json](const Owner& o) { return json(field(o)); };
        return done(k);
    }

    // A key that has one supported value and no field yet (e.g. RdmaApplication.OpCode).
    key_table& fixed_choice(std::string path, std::string value, std::string doc,
                            std::vector<std::string> not_modelled)
    {
        auto& k = add(std::move(path), value_type::choice, "", value, std::move(doc));
        k.assign = [value, not_modelled](Owner&, const YAML::Node& n, const value_context& c) {
            detail::read_choice(n, c, {value}, not_modelled);
        };
        k.to_yaml = [value](const Owner&) { return YAML::Node(value); };
        k.to_json = [value](const Owner&) { return nlohmann::ordered_json(value); };
        return done(k);
    }

    // A list of names from a fixed set, e.g. Records.Enabled; `aliases` are old names of
    // renamed choices, still read.
    template <class F>
    key_table& choice_list(std::string path, F field, std::vector<std::string> allowed,
                           std::string doc, std::vector<detail::choice_alias> aliases = {})
    {
        std::string allowed_text = "any of " + detail::join(allowed, ", ");
        for (const auto& a : aliases)
            allowed_text += " (old name " + a.old_name + " read as " + a.current + ")";
        auto& k = add(std::move(path), value_type::choice_list, "", allowed_text, std::move(doc));
        k.assign = [field, allowed, aliases](Owner& o, const YAML::Node& n,
                                             const value_context& c) {
            field(o) = detail::read_choice_list(n, c, allowed, aliases);
        };
        return string_list(k, field);
    }

    // A list of numbers, e.g. Switch.PoolAllocationMap; `allowed` says what the entries may be
    // (a rule checks them).
    template <class F>
    key_table& number_list(std::string path, F field, std::string allowed, std::string doc)
    {
        auto& k =
            add(std::move(path), value_type::choice_list, "", std::move(allowed), std::move(doc));
        k.assign = [field](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = detail::read_number_list(n, c);
        };
        k.to_yaml = [field](const Owner& o) {
            YAML::Node seq(YAML::NodeType::Sequence);
            for (double v : field(o)) seq.push_back(detail::format_real(v));
            seq.SetStyle(YAML::EmitterStyle::Flow);
            return seq;
        };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(field(o)); };
        return done(k);
    }

    // A list of free names, e.g. link names (checked against the topology by a rule).
    template <class F>
    key_table& name_list(std::string path, F field, text_rule rule, std::string doc)
    {
        auto& k = add(std::move(path), value_type::choice_list, "", "a list of " + rule.allowed,
                      std::move(doc));
        k.assign = [field, rule](Owner& o, const YAML::Node& n, const value_context& c) {
            field(o) = detail::read_name_list(n, c, rule);
        };
        return string_list(k, field);
    }

    // A list of rows, each a map of the row table's keys (e.g. Flows).
    template <class F, class Row>
    key_table& table(std::string path, F field, key_table<Row> row_keys, std::string example,
                     std::string doc)
    {
        auto rows = std::make_shared<const key_table<Row>>(std::move(row_keys));
        auto& k =
            add(std::move(path), value_type::table, "", "a list of " + example, std::move(doc));
        for (const auto& rk : rows->keys()) k.info.elements.push_back(rk.info);
        k.assign = [field, rows, example](Owner& o, const YAML::Node& n, const value_context& c) {
            std::vector<Row> out;
            if (!n.IsNull()) {
                if (!n.IsSequence()) fail(n, c, "expected a list of maps such as " + example);
                for (size_t i = 0; i < n.size(); ++i) {
                    Row r{};
                    rows->assign_map(r, n[i], {c.name + "[" + std::to_string(i) + "]", c.source});
                    out.push_back(std::move(r));
                }
            }
            field(o) = std::move(out);
        };
        k.to_yaml = [field, rows](const Owner& o) {
            YAML::Node seq(YAML::NodeType::Sequence);
            for (const auto& r : field(o)) {
                YAML::Node m = rows->to_yaml_map(r);
                m.SetStyle(YAML::EmitterStyle::Flow);
                seq.push_back(m);
            }
            return seq;
        };
        k.to_json = [field, rows](const Owner& o) {
            nlohmann::ordered_json arr = nlohmann::ordered_json::array();
            for (const auto& r : field(o)) arr.push_back(rows->to_json_object(r));
            return arr;
        };
        k.rows = [field](const Owner& o) { return field(o).size(); };
        k.assign_cell = [field, rows](Owner& o, size_t i, const std::string& key,
                                      const YAML::Node& n, const value_context& c) {
            rows->assign_one(field(o).at(i), key, YAML::Node(), n, c);
        };
        return done(k);
    }

    // One map of the row table's keys (Trace.Trigger: {On: trim}), held as a list of zero or
    // one rows: absent means not given.
    template <class F, class Row>
    key_table& map(std::string path, F field, key_table<Row> row_keys, std::string example,
                   std::string doc)
    {
        auto rows = std::make_shared<const key_table<Row>>(std::move(row_keys));
        auto& k =
            add(std::move(path), value_type::map, "", "a map such as " + example, std::move(doc));
        for (const auto& rk : rows->keys()) k.info.elements.push_back(rk.info);
        k.assign = [field, rows, example](Owner& o, const YAML::Node& n, const value_context& c) {
            std::vector<Row> out;
            if (!n.IsNull()) {
                if (!n.IsMap()) fail(n, c, "expected a map such as " + example);
                Row r{};
                rows->assign_map(r, n, c);
                out.push_back(std::move(r));
            }
            field(o) = std::move(out);
        };
        k.to_yaml = [field, rows](const Owner& o) {
            if (field(o).empty()) return YAML::Node();
            YAML::Node m = rows->to_yaml_map(field(o)[0]);
            m.SetStyle(YAML::EmitterStyle::Flow);
            return m;
        };
        k.to_json = [field, rows](const Owner& o) {
            if (field(o).empty()) return nlohmann::ordered_json();
            return rows->to_json_object(field(o)[0]);
        };
        k.rows = [field](const Owner& o) { return field(o).size(); };
        k.assign_cell = [field, rows](Owner& o, size_t i, const std::string& key,
                                      const YAML::Node& n, const value_context& c) {
            rows->assign_one(field(o).at(i), key, YAML::Node(), n, c);
        };
        return done(k);
    }

    // Marks the last key as deprecated (kept for one release): giving it prints
    // "uetsim: warning: <key> is deprecated: <note>" on stderr, then reads it as before.
    key_table& deprecated(std::string note)
    {
        auto& k = m_keys.back();
        k.info.doc = "Deprecated: " + note + " " + k.info.doc;
        k.info.deprecated = true;
        k.assign = [assign = k.assign, note](Owner& o, const YAML::Node& n,
                                             const value_context& c) {
            detail::warn_deprecated(c.name, note);
            assign(o, n, c);
        };
        return *this;
    }

    // Marks the last key as one value for the whole fabric (no Section[glob] override).
    key_table& fabric_wide()
    {
        m_keys.back().info.per_instance = false;
        return *this;
    }

    // Marks the last key as required (table rows).
    key_table& required()
    {
        m_keys.back().info.required = true;
        m_keys.back().info.default_value = "required";
        return *this;
    }

    const key_def<Owner>* find(std::string_view path) const
    {
        for (const auto& k : m_keys)
            if (k.info.path == path) return &k;
        return nullptr;
    }

    // A registered key, for rules that name one: a path that is not registered is a programming
    // error caught when the schema is built.
    const key_def<Owner>& key(std::string_view path) const
    {
        if (const auto* k = find(path)) return *k;
        throw std::logic_error("not a registered scenario key: " + std::string(path));
    }

    const std::vector<key_def<Owner>>& keys() const { return m_keys; }

    std::vector<std::string> paths() const
    {
        std::vector<std::string> out;
        for (const auto& k : m_keys) out.push_back(k.info.path);
        return out;
    }

    // Assigns `key` (a path of this table); ctx.name is the prefix for messages ("Flows[3]").
    void assign_one(Owner& o, const std::string& key, const YAML::Node& key_node,
                    const YAML::Node& value, const value_context& ctx) const
    {
        std::string name = ctx.name.empty() ? key : ctx.name + "." + key;
        const key_def<Owner>* k = find(key);
        if (!k) {
            std::vector<std::string> known;
            for (const auto& p : paths())
                known.push_back(ctx.name.empty() ? p : ctx.name + "." + p);
            detail::unknown_key(key_node, {name, ctx.source}, name, known);
        }
        k->assign(o, value, {name, ctx.source, key_node.Mark()});
    }

    // A row given as a map of keys: every required key must be present.
    void assign_map(Owner& o, const YAML::Node& map, const value_context& ctx) const
    {
        if (!map.IsMap()) fail(map, ctx, "expected a map of " + detail::join(paths(), ", "));
        std::vector<std::string> seen;
        detail::for_each_entry(
            map, ctx,
            [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
                assign_one(o, key, key_node, value, ctx);
                seen.push_back(key);
            });
        for (const auto& k : m_keys) {
            if (!k.info.required) continue;
            if (std::find(seen.begin(), seen.end(), k.info.path) == seen.end())
                fail(map, ctx, k.info.path + " is required");
        }
    }

    YAML::Node to_yaml_map(const Owner& o) const
    {
        YAML::Node m(YAML::NodeType::Map);
        for (const auto& k : m_keys) m[k.info.path] = k.to_yaml(o);
        return m;
    }

    nlohmann::ordered_json to_json_object(const Owner& o) const
    {
        nlohmann::ordered_json j = nlohmann::ordered_json::object();
        for (const auto& k : m_keys) j[k.info.path] = k.to_json(o);
        return j;
    }

private:
    // A registration mistake, not bad input: the range must fit the field.
    template <class T>
    static void check_fits(const std::string& path, const int_range& r)
    {
        bool min_ok =
            std::is_signed_v<T> ? r.min >= int64_t(std::numeric_limits<T>::min()) : r.min >= 0;
        bool max_ok = r.max <= uint64_t(std::numeric_limits<T>::max());
        if (!min_ok || !max_ok) throw std::logic_error("range does not fit the field of " + path);
    }

    static value_type quantity_type(dimension d)
    {
        switch (d) {
            case dimension::time:
                return value_type::time;
            case dimension::rate:
                return value_type::rate;
            case dimension::frequency:
                return value_type::frequency;
            case dimension::bytes:
                break;
        }
        return value_type::bytes;  // sizes are integers: register them with bytes()
    }

    template <class E>
    static std::string spelling(const std::vector<std::pair<std::string, E>>& values, E v)
    {
        for (const auto& [name, value] : values)
            if (value == v) return name;
        return "?";
    }

    key_def<Owner>& add(std::string path, value_type type, std::string unit, std::string allowed,
                        std::string doc)
    {
        if (find(path)) throw std::logic_error("scenario key registered twice: " + path);
        key_def<Owner> k;
        k.info.path = std::move(path);
        k.info.type = type;
        k.info.unit = std::move(unit);
        k.info.allowed = std::move(allowed);
        k.info.doc = std::move(doc);
        m_keys.push_back(std::move(k));
        return m_keys.back();
    }

    // The default is whatever a default-constructed owner holds: the struct is the source.
    // Output of a list-of-strings key (flow-style YAML, JSON array).
    template <class F>
    key_table& string_list(key_def<Owner>& k, F field)
    {
        k.to_yaml = [field](const Owner& o) {
            YAML::Node seq(YAML::NodeType::Sequence);
            for (const auto& s : field(o)) seq.push_back(s);
            seq.SetStyle(YAML::EmitterStyle::Flow);
            return seq;
        };
        k.to_json = [field](const Owner& o) { return nlohmann::ordered_json(field(o)); };
        return done(k);
    }

    key_table& done(key_def<Owner>& k)
    {
        k.info.default_value = detail::emit(k.to_yaml(Owner{}));
        return *this;
    }

    std::vector<key_def<Owner>> m_keys;
};

}  // namespace uetsim::config
