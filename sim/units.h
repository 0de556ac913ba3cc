// Values with units: "6us", "400Gbps", "256KiB", "1GHz", or a bare number in SI base units
// (seconds, bits per second, bytes, hertz). Pure logic, no SystemC.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace uetsim {

enum class dimension { time, rate, bytes, frequency };

// Thrown for text that is not a value of the expected dimension. The message names the text
// and what was expected but not the key: the caller prefixes the key path.
class unit_error : public std::invalid_argument
{
public:
    using std::invalid_argument::invalid_argument;
};

// "a time", "a data rate", "a size", "a frequency": for messages.
std::string_view dimension_noun(dimension d);
// A typical value, used in messages and docs: 6us, 400Gbps, 4KiB, 1GHz.
std::string_view dimension_example(dimension d);
// The SI base unit: s, bit/s, B, Hz.
std::string_view base_unit(dimension d);
// The accepted unit spellings, for messages: "ps, ns, us, µs, ms, s".
std::string unit_list(dimension d);

// Parses a non-negative value of dimension d into SI base units. Decimal units are applied
// through the decimal exponent so that "100ns" gives exactly the double nearest 1e-7.
double parse_quantity(std::string_view text, dimension d);

// Parses a whole number of bytes ("4096", "4KiB", "1.5KB"); 1 KB = 1000 B, 1 KiB = 1024 B.
uint64_t parse_bytes(std::string_view text);

// Parses a plain number (no unit), the grammar of the values above:
// [+-]digits[.digits][e[+-]digits]. Returns false on anything else (including inf and nan).
bool parse_plain_number(std::string_view text, double& out);

// The shortest exact spelling with the largest unit that keeps the number whole when one
// exists: 1e-7 -> "100ns", 4e11 -> "400Gbps", 1.5e-3 -> "1500us". Round-trips through
// parse_quantity.
std::string format_quantity(double value, dimension d);
// 4194304 -> "4MiB", 300000 -> "300KB", 4097 -> "4097B".
std::string format_bytes(uint64_t bytes);

}  // namespace uetsim
