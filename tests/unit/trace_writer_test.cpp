// The VCD writer's text (scopes from dotted names, codes, binary vectors, time stamps) and the
// gtkwave layout's groups and flags, compared with hand-written files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "testbench/trace/gtkw_layout.h"
#include "testbench/trace/vcd_writer.h"

namespace uetsim {
namespace {

std::string slurp(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

TEST(vcd_writer, codes_are_base_94_printable)
{
    EXPECT_EQ(vcd_writer::code(0), "!");
    EXPECT_EQ(vcd_writer::code(93), "~");
    EXPECT_EQ(vcd_writer::code(94), "!\"");  // 94 = 0 + 1 x 94
}

TEST(vcd_writer, writes_scopes_values_and_times)
{
    const std::string path = ::testing::TempDir() + "trace_writer_test.vcd";
    {
        vcd_writer w(path);
        EXPECT_EQ(w.declare("host0.g0.cwnd_bytes", 64), 0u);
        EXPECT_EQ(w.declare("host0.ready_groups", 8), 1u);
        EXPECT_EQ(w.declare("leaf0-spine1.a_to_b.busy", 1), 2u);
        w.begin();
        w.change(0, 0, 5);
        w.change(0, 2, 1);
        w.change(1500, 1, 0);
        w.close(2000);
    }
    EXPECT_EQ(slurp(path),
              "$version uetsim $end\n$timescale 1ps $end\n"
              "$scope module host0 $end\n$scope module g0 $end\n"
              "$var wire 64 ! cwnd_bytes $end\n$upscope $end\n"
              "$var wire 8 \" ready_groups $end\n$upscope $end\n"
              "$scope module leaf0-spine1 $end\n$scope module a_to_b $end\n"
              "$var wire 1 # busy $end\n$upscope $end\n$upscope $end\n"
              "$enddefinitions $end\n"
              "#0\nb101 !\n1#\n#1500\nb0 \"\n#2000\n");
    std::remove(path.c_str());
}

TEST(gtkw_layout, groups_per_component_with_analog_steps)
{
    gtkw_layout l;
    l.dump_file = "run.fst";
    l.start_ps = 0;
    l.end_ps = 1000;
    l.signals = {{"host0.g0.cwnd_bytes", 64, true},
                 {"host0.g0.reps_freezing", 1, false},
                 {"leaf0.port0_host0.trims", 64, false}};
    const std::string t = l.text();
    EXPECT_NE(t.find("[dumpfile] \"run.fst\"\n"), std::string::npos);
    // A comment row per component, analog step + decimal (0x8024) with two stretch rows, a flag
    // as binary (0x28), a counter as decimal (0x24).
    EXPECT_NE(t.find("@200\n-host0\n@8024\nhost0.g0.cwnd_bytes[63:0]\n@20000\n-\n-\n"
                     "@28\nhost0.g0.reps_freezing\n@200\n-leaf0\n@24\n"
                     "leaf0.port0_host0.trims[63:0]\n"),
              std::string::npos)
        << t;
    EXPECT_EQ(component_of("leaf0.port0_host0.trims"), "leaf0");
}

// The layout opens zoomed to the dumped window: at zoom z gtkwave's 1600-pixel window shows
// 5.55 x 2^-z time units (measured under Xvfb), so a 400 us dump needs z = -26.18 and is shown
// with a margin of a few percent, not its first 3 us (z = -19, as before).
TEST(gtkw_layout, opens_zoomed_to_the_dumped_window)
{
    const double span_ps = 400e6;
    const double z = gtkw_zoom_for(span_ps);
    EXPECT_NEAR(z, -26.177, 0.001);
    const double window = 5.55 * std::pow(2.0, -z);
    EXPECT_GT(window, span_ps);
    EXPECT_LT(window, 1.1 * span_ps);
    gtkw_layout l;
    l.dump_file = "run.fst";
    l.save_file = "run.gtkw";
    l.start_ps = 20'000'000;
    l.end_ps = 420'000'000;
    const std::string t = l.text();
    EXPECT_NE(t.find("[dumpfile] \"run.fst\"\n[savefile] \"run.gtkw\"\n[timestart] 20000000\n"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("\n*-26.1766"), std::string::npos) << t;
}

}  // namespace
}  // namespace uetsim
