#include "sim/units.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace uetsim {

namespace {

struct unit
{
    std::string_view name;
    dimension dim;
    int decimal_exponent;  // value = number x 10^decimal_exponent x binary_factor
    uint64_t binary_factor;
    bool listed;  // shown in unit_list (the others are accepted alternative spellings)
};

// "µs" in UTF-8 both as MICRO SIGN (U+00B5) and GREEK SMALL LETTER MU (U+03BC).
constexpr std::array<unit, 29> units = {{
    {"ps", dimension::time, -12, 1, true},
    {"ns", dimension::time, -9, 1, true},
    {"us", dimension::time, -6, 1, true},
    {"\xC2\xB5s", dimension::time, -6, 1, true},
    {"\xCE\xBCs", dimension::time, -6, 1, false},
    {"ms", dimension::time, -3, 1, true},
    {"s", dimension::time, 0, 1, true},
    {"bps", dimension::rate, 0, 1, true},
    {"Kbps", dimension::rate, 3, 1, true},
    {"kbps", dimension::rate, 3, 1, false},
    {"Mbps", dimension::rate, 6, 1, true},
    {"Gbps", dimension::rate, 9, 1, true},
    {"Tbps", dimension::rate, 12, 1, true},
    {"B", dimension::bytes, 0, 1, true},
    {"KB", dimension::bytes, 3, 1, true},
    {"kB", dimension::bytes, 3, 1, false},
    {"MB", dimension::bytes, 6, 1, true},
    {"GB", dimension::bytes, 9, 1, true},
    {"TB", dimension::bytes, 12, 1, false},
    {"KiB", dimension::bytes, 0, 1ull << 10, true},
    {"MiB", dimension::bytes, 0, 1ull << 20, true},
    {"GiB", dimension::bytes, 0, 1ull << 30, true},
    {"TiB", dimension::bytes, 0, 1ull << 40, false},
    {"Hz", dimension::frequency, 0, 1, true},
    {"KHz", dimension::frequency, 3, 1, true},
    {"kHz", dimension::frequency, 3, 1, false},
    {"MHz", dimension::frequency, 6, 1, true},
    {"GHz", dimension::frequency, 9, 1, true},
    {"THz", dimension::frequency, 12, 1, false},
}};

const unit* find_unit(std::string_view name)
{
    for (const auto& u : units)
        if (u.name == name) return &u;
    return nullptr;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

// Length of the longest prefix of s matching [+-]?digits[.digits]?([eE][+-]?digits)?, or 0.
// Also accepts ".5" and "5." like strtod, but never inf/nan/hex.
size_t number_prefix(std::string_view s)
{
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t digits = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && is_digit(s[i])) ++i, ++digits;
    }
    if (digits == 0) return 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        size_t exp_digits = 0;
        while (j < s.size() && is_digit(s[j])) ++j, ++exp_digits;
        if (exp_digits > 0) i = j;
    }
    return i;
}

// number x 10^extra_exponent, rounded once: the exponent is folded into the text for strtod.
std::optional<double> scaled(std::string_view number, int extra_exponent)
{
    std::string mantissa(number);
    long exponent = extra_exponent;
    auto e = mantissa.find_first_of("eE");
    if (e != std::string::npos) {
        long given = std::strtol(mantissa.c_str() + e + 1, nullptr, 10);
        if (given > 100000 || given < -100000) return std::nullopt;
        exponent += given;
        mantissa.resize(e);
    }
    std::string text = mantissa + "e" + std::to_string(exponent);
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

// A finite double as digits x 10^exponent with no trailing zeros in digits (digits "0" for 0).
struct decimal
{
    std::string digits;
    int exponent = 0;
};

decimal to_decimal(double v)
{
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string s(buf, res.ptr);  // d[.ddd]e[+-]xx, shortest round-trip
    auto e = s.find('e');
    std::string mant = s.substr(0, e);
    int exponent = std::stoi(s.substr(e + 1));
    decimal d;
    auto dot = mant.find('.');
    if (dot != std::string::npos) {
        exponent -= static_cast<int>(mant.size() - dot - 1);
        mant.erase(dot, 1);
    }
    while (mant.size() > 1 && mant.back() == '0') mant.pop_back(), ++exponent;
    if (mant == "0") exponent = 0;
    d.digits = mant;
    d.exponent = exponent;
    return d;
}

// digits x 10^shift as plain decimal text.
std::string place_point(const std::string& digits, int shift)
{
    if (shift >= 0) return digits + std::string(static_cast<size_t>(shift), '0');
    size_t frac = static_cast<size_t>(-shift);
    std::string padded =
        digits.size() <= frac ? std::string(frac - digits.size() + 1, '0') + digits : digits;
    return padded.substr(0, padded.size() - frac) + "." + padded.substr(padded.size() - frac);
}

}  // namespace

std::string_view dimension_noun(dimension d)
{
    switch (d) {
        case dimension::time:
            return "a time";
        case dimension::rate:
            return "a data rate";
        case dimension::bytes:
            return "a size";
        case dimension::frequency:
            return "a frequency";
    }
    return "a value";
}

std::string_view dimension_example(dimension d)
{
    switch (d) {
        case dimension::time:
            return "6us";
        case dimension::rate:
            return "400Gbps";
        case dimension::bytes:
            return "4KiB";
        case dimension::frequency:
            return "1GHz";
    }
    return "";
}

std::string_view base_unit(dimension d)
{
    switch (d) {
        case dimension::time:
            return "s";
        case dimension::rate:
            return "bit/s";
        case dimension::bytes:
            return "B";
        case dimension::frequency:
            return "Hz";
    }
    return "";
}

std::string unit_list(dimension d)
{
    std::string out;
    for (const auto& u : units) {
        if (u.dim != d || !u.listed) continue;
        if (!out.empty()) out += ", ";
        out += u.name;
    }
    return out;
}

bool parse_plain_number(std::string_view text, double& out)
{
    text = trim(text);
    if (text.empty() || number_prefix(text) != text.size()) return false;
    auto v = scaled(text, 0);
    if (!v) return false;
    out = *v;
    return true;
}

double parse_quantity(std::string_view text, dimension d)
{
    std::string_view t = trim(text);
    size_t n = number_prefix(t);
    if (n == 0) {
        throw unit_error(quoted(text) + " is not " + std::string(dimension_noun(d)) +
                         " (a number in " + std::string(base_unit(d)) +
                         " or a value with a unit such as " + std::string(dimension_example(d)) +
                         ")");
    }
    std::string_view number = t.substr(0, n);
    std::string_view unit_name = trim(t.substr(n));
    int exponent = 0;
    uint64_t factor = 1;
    if (!unit_name.empty()) {
        const unit* u = find_unit(unit_name);
        if (!u) {
            throw unit_error(quoted(text) + " has an unknown unit '" + std::string(unit_name) +
                             "'; " + std::string(dimension_noun(d)) + " takes " + unit_list(d));
        }
        if (u->dim != d) {
            throw unit_error(quoted(text) + " is " + std::string(dimension_noun(u->dim)) +
                             ", expected " + std::string(dimension_noun(d)) + " such as " +
                             std::string(dimension_example(d)));
        }
        exponent = u->decimal_exponent;
        factor = u->binary_factor;
    }
    if (number.front() == '-') {
        auto v = scaled(number.substr(1), 0);
        if (!v || *v != 0.0) throw unit_error(quoted(text) + " is negative");
    }
    auto v = scaled(number, exponent);
    if (!v) throw unit_error(quoted(text) + " is too large");
    double value = *v * static_cast<double>(factor);
    if (!std::isfinite(value)) throw unit_error(quoted(text) + " is too large");
    return value == 0.0 ? 0.0 : value;  // no negative zero
}

uint64_t parse_bytes(std::string_view text)
{
    std::string_view t = trim(text);
    // Plain integers stay exact beyond 2^53.
    if (!t.empty() && std::all_of(t.begin(), t.end(), is_digit)) {
        uint64_t v = 0;
        auto res = std::from_chars(t.data(), t.data() + t.size(), v);
        if (res.ec != std::errc()) throw unit_error(quoted(text) + " is too large");
        return v;
    }
    double v = parse_quantity(text, dimension::bytes);
    if (v != std::floor(v)) throw unit_error(quoted(text) + " is not a whole number of bytes");
    if (v >= 18446744073709551616.0) throw unit_error(quoted(text) + " is too large");
    return static_cast<uint64_t>(v);
}

std::string format_quantity(double value, dimension d)
{
    if (!std::isfinite(value)) return std::to_string(value);
    std::string sign = value < 0 ? "-" : "";
    decimal dec = to_decimal(std::fabs(value));
    if (dec.digits == "0") {
        for (const auto& u : units)
            if (u.dim == d && u.decimal_exponent == 0 && u.binary_factor == 1)
                return "0" + std::string(u.name);
    }
    // Largest listed decimal unit that keeps the number whole; else the smallest unit.
    const unit* best = nullptr;
    const unit* smallest = nullptr;
    for (const auto& u : units) {
        if (u.dim != d || !u.listed || u.binary_factor != 1) continue;
        if (u.name == "\xC2\xB5s") continue;  // print plain ASCII "us"
        if (!smallest || u.decimal_exponent < smallest->decimal_exponent) smallest = &u;
        if (dec.exponent >= u.decimal_exponent &&
            (!best || u.decimal_exponent > best->decimal_exponent))
            best = &u;
    }
    const unit* u = best ? best : smallest;
    return sign + place_point(dec.digits, dec.exponent - u->decimal_exponent) +
           std::string(u->name);
}

std::string format_bytes(uint64_t bytes)
{
    if (bytes == 0) return "0B";
    // The exact spelling with the smallest number, binary units first on ties.
    std::string best = std::to_string(bytes) + "B";
    uint64_t best_q = bytes;
    for (const auto& u : units) {
        if (u.dim != dimension::bytes || !u.listed) continue;
        uint64_t f = u.binary_factor;
        for (int i = 0; i < u.decimal_exponent; ++i) f *= 10;
        if (bytes % f != 0) continue;
        uint64_t q = bytes / f;
        if (q < best_q || (q == best_q && u.binary_factor > 1)) {
            best_q = q;
            best = std::to_string(q) + std::string(u.name);
        }
    }
    return best;
}

}  // namespace uetsim
