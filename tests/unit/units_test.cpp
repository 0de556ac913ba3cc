// Values with units (sim/units.h): every unit, exactness, wrong dimensions, garbage, negatives,
// and the spelling printed back.
#include "sim/units.h"

#include <gtest/gtest.h>

#include <functional>

namespace uetsim {
namespace {

// The unit_error message of f, or "no error".
std::string error_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const unit_error& e) {
        return e.what();
    }
    return "no error";
}

std::string quantity_error(const std::string& text, dimension d)
{
    return error_of([&] { parse_quantity(text, d); });
}

TEST(units, every_time_unit)
{
    EXPECT_DOUBLE_EQ(parse_quantity("7ps", dimension::time), 7e-12);
    EXPECT_DOUBLE_EQ(parse_quantity("7ns", dimension::time), 7e-9);
    EXPECT_DOUBLE_EQ(parse_quantity("7us", dimension::time), 7e-6);
    EXPECT_DOUBLE_EQ(parse_quantity("7\xC2\xB5s", dimension::time), 7e-6);  // µ (micro sign)
    EXPECT_DOUBLE_EQ(parse_quantity("7\xCE\xBCs", dimension::time), 7e-6);  // μ (Greek mu)
    EXPECT_DOUBLE_EQ(parse_quantity("7ms", dimension::time), 7e-3);
    EXPECT_DOUBLE_EQ(parse_quantity("7s", dimension::time), 7.0);
    EXPECT_DOUBLE_EQ(parse_quantity("0.001", dimension::time), 1e-3);  // bare: seconds
}

TEST(units, decimal_units_are_exact)
{
    // The unit's exponent is folded into the decimal text: one rounding, as the literal.
    EXPECT_EQ(parse_quantity("100ns", dimension::time), 100e-9);
    EXPECT_EQ(parse_quantity("6us", dimension::time), 6e-6);
    EXPECT_EQ(parse_quantity("0.1us", dimension::time), 0.1e-6);
    EXPECT_EQ(parse_quantity("1.5e3ns", dimension::time), 1.5e-6);
    EXPECT_EQ(parse_quantity("400Gbps", dimension::rate), 400e9);
}

TEST(units, whitespace_and_signs)
{
    EXPECT_EQ(parse_quantity(" 6 us ", dimension::time), 6e-6);
    EXPECT_EQ(parse_quantity("+6us", dimension::time), 6e-6);
    EXPECT_EQ(parse_quantity("-0us", dimension::time), 0.0);
    EXPECT_EQ(parse_quantity(".5s", dimension::time), 0.5);
}

TEST(units, every_rate_unit)
{
    EXPECT_EQ(parse_quantity("5bps", dimension::rate), 5.0);
    EXPECT_EQ(parse_quantity("5Kbps", dimension::rate), 5e3);
    EXPECT_EQ(parse_quantity("5kbps", dimension::rate), 5e3);
    EXPECT_EQ(parse_quantity("5Mbps", dimension::rate), 5e6);
    EXPECT_EQ(parse_quantity("5Gbps", dimension::rate), 5e9);
    EXPECT_EQ(parse_quantity("3.2Tbps", dimension::rate), 3.2e12);
    EXPECT_EQ(parse_quantity("4e11", dimension::rate), 4e11);  // bare: bits per second
}

TEST(units, every_size_unit)
{
    EXPECT_EQ(parse_bytes("4096"), 4096u);
    EXPECT_EQ(parse_bytes("4096B"), 4096u);
    EXPECT_EQ(parse_bytes("3KB"), 3000u);  // decimal, as the switch pages
    EXPECT_EQ(parse_bytes("3kB"), 3000u);
    EXPECT_EQ(parse_bytes("3MB"), 3'000'000u);
    EXPECT_EQ(parse_bytes("3GB"), 3'000'000'000u);
    EXPECT_EQ(parse_bytes("3KiB"), 3u * 1024);
    EXPECT_EQ(parse_bytes("3MiB"), 3u * 1024 * 1024);
    EXPECT_EQ(parse_bytes("3GiB"), 3ull * 1024 * 1024 * 1024);
    EXPECT_EQ(parse_bytes("1.5KB"), 1500u);
    EXPECT_EQ(parse_bytes("0.5KiB"), 512u);
    EXPECT_EQ(parse_bytes("18446744073709551615"), 18446744073709551615ull);  // exact
}

TEST(units, every_frequency_unit)
{
    EXPECT_EQ(parse_quantity("2Hz", dimension::frequency), 2.0);
    EXPECT_EQ(parse_quantity("2KHz", dimension::frequency), 2e3);
    EXPECT_EQ(parse_quantity("2kHz", dimension::frequency), 2e3);
    EXPECT_EQ(parse_quantity("2MHz", dimension::frequency), 2e6);
    EXPECT_EQ(parse_quantity("1.5GHz", dimension::frequency), 1.5e9);
}

TEST(units, wrong_dimension_names_both)
{
    EXPECT_EQ(quantity_error("6us", dimension::rate),
              "'6us' is a time, expected a data rate such as 400Gbps");
    EXPECT_EQ(quantity_error("400Gbps", dimension::time),
              "'400Gbps' is a data rate, expected a time such as 6us");
    EXPECT_EQ(quantity_error("4KiB", dimension::frequency),
              "'4KiB' is a size, expected a frequency such as 1GHz");
    EXPECT_EQ(error_of([] { parse_bytes("1GHz"); }),
              "'1GHz' is a frequency, expected a size such as 4KiB");
}

TEST(units, garbage_is_rejected)
{
    EXPECT_EQ(quantity_error("abc", dimension::time),
              "'abc' is not a time (a number in s or a value with a unit such as 6us)");
    EXPECT_EQ(quantity_error("", dimension::rate),
              "'' is not a data rate (a number in bit/s or a value with a unit such as 400Gbps)");
    EXPECT_EQ(quantity_error("us", dimension::time),
              "'us' is not a time (a number in s or a value with a unit such as 6us)");
    EXPECT_EQ(quantity_error("inf", dimension::time),
              "'inf' is not a time (a number in s or a value with a unit such as 6us)");
    EXPECT_EQ(quantity_error("nan", dimension::time),
              "'nan' is not a time (a number in s or a value with a unit such as 6us)");
    EXPECT_EQ(quantity_error("5 parsecs", dimension::time),
              "'5 parsecs' has an unknown unit 'parsecs'; a time takes ps, ns, us, \xC2\xB5s, "
              "ms, s");
    EXPECT_EQ(quantity_error("1.2.3s", dimension::time),
              "'1.2.3s' has an unknown unit '.3s'; a time takes ps, ns, us, \xC2\xB5s, ms, s");
    EXPECT_EQ(quantity_error("400Gb", dimension::rate),
              "'400Gb' has an unknown unit 'Gb'; a data rate takes bps, Kbps, Mbps, Gbps, Tbps");
    EXPECT_EQ(quantity_error("1e999s", dimension::time), "'1e999s' is too large");
    EXPECT_EQ(error_of([] { parse_bytes("1.5B"); }), "'1.5B' is not a whole number of bytes");
    EXPECT_EQ(error_of([] { parse_bytes("99999999999999999999"); }),
              "'99999999999999999999' is too large");
    EXPECT_EQ(error_of([] { parse_bytes("20000000TB"); }), "'20000000TB' is too large");
}

TEST(units, negatives_are_rejected)
{
    EXPECT_EQ(quantity_error("-5ns", dimension::time), "'-5ns' is negative");
    EXPECT_EQ(quantity_error("-1", dimension::rate), "'-1' is negative");
    EXPECT_EQ(error_of([] { parse_bytes("-1KiB"); }), "'-1KiB' is negative");
    EXPECT_EQ(error_of([] { parse_bytes("-4096"); }), "'-4096' is negative");
}

TEST(units, plain_numbers)
{
    double v = 0;
    EXPECT_TRUE(parse_plain_number("0.25", v));
    EXPECT_EQ(v, 0.25);
    EXPECT_TRUE(parse_plain_number("-1e-3", v));
    EXPECT_EQ(v, -1e-3);
    EXPECT_FALSE(parse_plain_number("1us", v));
    EXPECT_FALSE(parse_plain_number("inf", v));
    EXPECT_FALSE(parse_plain_number("0x10", v));
    EXPECT_FALSE(parse_plain_number("", v));
}

TEST(units, format_picks_the_largest_whole_unit)
{
    EXPECT_EQ(format_quantity(100e-9, dimension::time), "100ns");
    EXPECT_EQ(format_quantity(1e-3, dimension::time), "1ms");
    EXPECT_EQ(format_quantity(1.5e-3, dimension::time), "1500us");
    EXPECT_EQ(format_quantity(2.0, dimension::time), "2s");
    EXPECT_EQ(format_quantity(0.0, dimension::time), "0s");
    EXPECT_EQ(format_quantity(1.5e-13, dimension::time), "0.15ps");
    EXPECT_EQ(format_quantity(400e9, dimension::rate), "400Gbps");
    EXPECT_EQ(format_quantity(3.2e12, dimension::rate), "3200Gbps");
    EXPECT_EQ(format_quantity(1e9, dimension::frequency), "1GHz");
    EXPECT_EQ(format_bytes(0), "0B");
    EXPECT_EQ(format_bytes(4096), "4KiB");
    EXPECT_EQ(format_bytes(300'000), "300KB");
    EXPECT_EQ(format_bytes(4'194'304), "4MiB");
    EXPECT_EQ(format_bytes(4097), "4097B");
}

TEST(units, format_round_trips)
{
    for (double v : {100e-9, 1.0 / 3.0, 6e-6, 1e-12, 12.5, 123.456e-9}) {
        EXPECT_EQ(parse_quantity(format_quantity(v, dimension::time), dimension::time), v)
            << format_quantity(v, dimension::time);
    }
    for (double v : {400e9, 1e9, 25.78125e9}) {
        EXPECT_EQ(parse_quantity(format_quantity(v, dimension::rate), dimension::rate), v);
    }
    for (uint64_t b : {0ull, 1ull, 4096ull, 300000ull, 4294967295ull, 1ull << 40})
        EXPECT_EQ(parse_bytes(format_bytes(b)), b);
}

}  // namespace
}  // namespace uetsim
