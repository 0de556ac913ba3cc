#include "testbench/traffic/chakra/process_group_declarations.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

namespace uetsim::chakra {

namespace {

using json = nlohmann::ordered_json;  // keeps a dict of groups in file order

constexpr uint64_t k_max_group_size = uint64_t(1) << 24;

uint64_t unsigned_of(const json& j, const std::string& what)
{
    if (!j.is_number_unsigned())  // nlohmann parses every integer >= 0 as unsigned
        throw bad_declaration(what + " is " + j.dump() + ", expected an integer >= 0");
    return j.get<uint64_t>();
}

declared_group group_of(const json& o, const std::optional<std::string>& key)
{
    declared_group d;
    auto& g = d.group;
    if (o.contains("pg_name")) {
        const json& n = o["pg_name"];
        g.name = n.is_string() ? n.get<std::string>() : std::to_string(unsigned_of(n, "pg_name"));
    } else if (key) {
        g.name = *key;
    } else {
        throw bad_declaration("a group has no pg_name: " + o.dump());
    }
    const std::string which = "group '" + g.name + "'";
    if (o.contains("ranks")) {
        const json& r = o["ranks"];
        if (!r.is_array()) throw bad_declaration(which + ": ranks is not a list");
        std::set<uint32_t> seen;
        for (const json& e : r) {
            const uint64_t rank = unsigned_of(e, which + ": rank");
            if (rank > std::numeric_limits<uint32_t>::max())
                throw bad_declaration(which + ": rank " + std::to_string(rank) + " is too large");
            if (!seen.insert(uint32_t(rank)).second)
                throw bad_declaration(which + ": rank " + std::to_string(rank) +
                                      " is listed twice");
            g.ranks.push_back(uint32_t(rank));
        }
    }
    const char* size_key = o.contains("group_size") ? "group_size"
                           : o.contains("pg_size")  ? "pg_size"
                                                    : nullptr;
    if (size_key) {
        const uint64_t size = unsigned_of(o[size_key], which + ": " + size_key);
        if (g.ranks.empty()) {
            // A bound against a corrupt size (the list is filled in here).
            if (size > k_max_group_size)
                throw bad_declaration(which + ": " + size_key + " " + std::to_string(size) +
                                      " is over " + std::to_string(k_max_group_size));
            for (uint64_t r = 0; r < size; ++r) g.ranks.push_back(uint32_t(r));
        } else if (size != g.ranks.size()) {
            throw bad_declaration(which + ": " + size_key + " " + std::to_string(size) + " but " +
                                  std::to_string(g.ranks.size()) + " ranks");
        }
    } else {
        d.world = g.ranks.empty();
    }
    return d;
}

bool is_group_object(const json& o)
{
    return o.contains("ranks") || (o.contains("pg_name") && !o["pg_name"].is_object());
}

// Group JSON: a list of groups, one group, or a dict of groups.
void collect_groups(const json& j, std::vector<declared_group>& out)
{
    if (j.is_array()) {
        for (const json& e : j) {
            if (!e.is_object()) throw bad_declaration("a list entry is not a group: " + e.dump());
            out.push_back(group_of(e, std::nullopt));
        }
    } else if (j.is_object() && is_group_object(j)) {
        out.push_back(group_of(j, std::nullopt));
    } else if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            if (!value.is_object())
                throw bad_declaration("entry '" + key + "' is not a group: " + value.dump());
            out.push_back(group_of(value, key));
        }
    } else {
        throw bad_declaration("not a list or dict of groups: " + j.dump());
    }
}

}  // namespace

void collect_groups(const std::string& text, std::vector<declared_group>& out)
{
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) throw bad_declaration("not JSON: " + text.substr(0, 80));
    collect_groups(j, out);
}

namespace {

void append_utf8(std::string& s, uint32_t c)
{
    if (c < 0x80) {
        s += char(c);
    } else if (c < 0x800) {
        s += char(0xc0 | (c >> 6));
        s += char(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        s += char(0xe0 | (c >> 12));
        s += char(0x80 | ((c >> 6) & 0x3f));
        s += char(0x80 | (c & 0x3f));
    } else {
        s += char(0xf0 | (c >> 18));
        s += char(0x80 | ((c >> 12) & 0x3f));
        s += char(0x80 | ((c >> 6) & 0x3f));
        s += char(0x80 | (c & 0x3f));
    }
}

// A Python list of string literals, as str() of a list prints it; nullopt if `s` is not one.
std::optional<std::vector<std::string>> python_strings(const std::string& s)
{
    size_t i = 0;
    auto skip = [&] {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    };
    auto hex = [&](size_t digits) -> std::optional<uint32_t> {
        if (i + digits > s.size()) return std::nullopt;
        uint32_t v = 0;
        for (size_t k = 0; k < digits; ++k) {
            const char c = s[i++];
            if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
            v = v * 16 + uint32_t(std::isdigit(static_cast<unsigned char>(c))
                                      ? c - '0'
                                      : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
        }
        return v;
    };
    std::vector<std::string> out;
    skip();
    if (i >= s.size() || s[i++] != '[') return std::nullopt;
    skip();
    if (i < s.size() && s[i] == ']')
        ++i;
    else
        for (;;) {
            skip();
            if (i >= s.size() || (s[i] != '\'' && s[i] != '"')) return std::nullopt;
            const char quote = s[i++];
            std::string v;
            for (;;) {
                if (i >= s.size()) return std::nullopt;
                const char c = s[i++];
                if (c == quote) break;
                if (c != '\\') {
                    v += c;
                    continue;
                }
                if (i >= s.size()) return std::nullopt;
                const char e = s[i++];
                std::optional<uint32_t> code;
                switch (e) {
                    case '\\':
                        v += '\\';
                        break;
                    case '\'':
                        v += '\'';
                        break;
                    case '"':
                        v += '"';
                        break;
                    case 'n':
                        v += '\n';
                        break;
                    case 'r':
                        v += '\r';
                        break;
                    case 't':
                        v += '\t';
                        break;
                    case 'x':
                        code = hex(2);
                        break;
                    case 'u':
                        code = hex(4);
                        break;
                    case 'U':
                        code = hex(8);
                        break;
                    default:  // Python keeps an unknown escape as it is
                        v += '\\';
                        v += e;
                }
                if (e == 'x' || e == 'u' || e == 'U') {
                    if (!code || *code > 0x10ffff) return std::nullopt;
                    append_utf8(v, *code);
                }
            }
            out.push_back(std::move(v));
            skip();
            if (i < s.size() && s[i] == ',') {
                ++i;
                skip();
                if (i < s.size() && s[i] == ']') {
                    ++i;
                    break;
                }
                continue;
            }
            if (i < s.size() && s[i] == ']') {
                ++i;
                break;
            }
            return std::nullopt;
        }
    skip();
    if (i != s.size()) return std::nullopt;
    return out;
}

}  // namespace

// The inputs.values of a "process_group:init" node (et_reader.h, declaration 3).
void collect_groups_from_inputs(const std::string& values, std::vector<declared_group>& out)
{
    const auto first = values.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return;
    const json j = json::parse(values, nullptr, false);
    if (!j.is_discarded()) {
        const auto all = [&](auto test) { return std::all_of(j.begin(), j.end(), test); };
        if (j.is_array() && all([](const json& e) { return e.is_string(); })) {
            for (const json& e : j) collect_groups(e.get<std::string>(), out);
        } else if (j.is_array() && !j.empty() && all([](const json& e) { return e.is_array(); })) {
            for (const json& e : j) collect_groups(e, out);
        } else {
            collect_groups(j, out);
        }
        return;
    }
    auto strings = python_strings(values);
    if (!strings)
        throw bad_declaration("inputs.values is neither JSON nor a Python list of strings: " +
                              values.substr(0, 80));
    for (const auto& s : *strings) collect_groups(s, out);
}

}  // namespace uetsim::chakra
