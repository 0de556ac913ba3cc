// Block libraries (`uetsim rtl-build`, Rtl.<Block>Library; docs/rtl.md, "Your own block") through
// the command. The libraries are built once per test run by the ctest fixture rtl_libraries
// (tests/support/build_rtl_libraries.cmake): the project's own entropy_lb.sv and its
// XORSHIFT_BIT mutant (the same source, -DUETSIM_MUTANT_XORSHIFT_BIT). The scenario is the
// 8-flow cross-leaf REPS run with spine0 degraded (as rtl_modes_test, smaller messages).
//
// The built-in entropy_lb.sv as a library gives byte-identical records to the built-in block in
// rtl and both mode; the mutant library stops the run at the first wrong answer with the same
// report as the built-in mutant (built into this test, through the registry); bad libraries and
// bad rtl-build input exit 2 naming what is wrong; and rtl-build works from an installed uetsim
// whose prefix was moved, using only the files under it.

// Verilated headers before <systemc> (rtl/verilated_includes.h): the built-in mutant.
#include "Ventropy_lb_mutant_xorshift_bit.h"
#include "rtl/entropy_lb/entropy_lb_block.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rtl/entropy_lb/entropy_lb_rtl.h"
#include "sim/cli.h"
#include "testbench/elab/rtl_blocks.h"
#include "tests/support/rtl_scenario.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;
using namespace uetsim::test;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string libs = UETSIM_RTL_LIBRARY_DIR;        // the fixture's libraries
const std::string fakes = UETSIM_FAKE_RTL_LIBRARY_DIR;  // tests/rtl/library/fake_library.cpp

std::string scenario_text(const std::string& extra = "")
{
    return cross_leaf_reps_scenario("lib", "512KiB", extra);
}

command_result run(const std::string& file, const std::string& out,
                   const std::vector<std::string>& sets)
{
    std::vector<std::string> args = {"run", file, "--quiet", "--out", out};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    return run_uetsim(args);
}

json run_ok(const std::string& file, const std::string& out, const std::vector<std::string>& sets)
{
    const command_result r = run(file, out, sets);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    return json::parse(read_text(out + "/lib-manifest.json"));
}

void expect_same_records(const std::string& a_dir, const std::string& b_dir, const char* what)
{
    const auto a = csv_files(a_dir), b = csv_files(b_dir);
    ASSERT_GE(a.size(), 5u) << what;  // flow-perf, nd-stats, uet-monitor, ...
    ASSERT_EQ(a.size(), b.size()) << what;
    for (const auto& [name, text] : a) {
        ASSERT_TRUE(b.count(name)) << what << ": " << name;
        EXPECT_TRUE(text == b.at(name)) << what << ": " << name << " differs";
    }
}

}  // namespace

// entropy_lb.sv through rtl-build: records byte-identical to the built-in RTL's in rtl mode and
// to the model's in both mode, every request answered by the library's block (the manifest names
// it per device) and, in both mode, checked.
TEST(rtl_library, the_builtin_entropy_lb_built_by_rtl_build_gives_the_builtin_records)
{
    const std::string dir = scratch_dir("rtl-lib-same");
    const std::string lib = libs + "/entropy_lb.so";
    const std::string file = write_file(dir + "/s.yaml", scenario_text());
    const json builtin = run_ok(file, dir + "/builtin", {"Rtl.EntropyLoadBalancer=rtl"});
    const json rtl =
        run_ok(file, dir + "/lib-rtl",
               {"Rtl.EntropyLoadBalancer=rtl", "Rtl.EntropyLoadBalancerLibrary=" + lib});
    const json both =
        run_ok(file, dir + "/lib-both",
               {"Rtl.EntropyLoadBalancer=both", "Rtl.EntropyLoadBalancerLibrary=" + lib});
    const json model = run_ok(file, dir + "/model", {});
    expect_same_records(dir + "/builtin", dir + "/lib-rtl", "built-in vs library, rtl");
    expect_same_records(dir + "/model", dir + "/lib-both", "model vs library, both");

    const json& b = builtin.at("rtl").at("blocks").at("EntropyLoadBalancer");
    const json& r = rtl.at("rtl").at("blocks").at("EntropyLoadBalancer");
    const json& c = both.at("rtl").at("blocks").at("EntropyLoadBalancer");
    // Every next and feedback of the 8 senders, plus the opens: more than the data packets.
    EXPECT_GT(r.at("requests").get<uint64_t>(), rtl.at("data_packets_sent").get<uint64_t>());
    EXPECT_EQ(r.at("requests"), b.at("requests"));
    EXPECT_EQ(c.at("checked"), c.at("requests"));
    EXPECT_EQ(c.at("requests"), b.at("requests"));
    EXPECT_FALSE(both.at("rtl").contains("mismatch"));
    ASSERT_EQ(r.at("devices").size(), 16u);
    for (const auto& [host, d] : r.at("devices").items()) {
        EXPECT_EQ(d.at("library"), lib) << host;
        EXPECT_FALSE(b.at("devices").at(host).contains("library")) << host << ": built-in";
    }
    EXPECT_EQ(both.at("scenario").at("Rtl").at("EntropyLoadBalancerLibrary"), lib);
}

// The mutant library (XORSHIFT_BIT: one bit of the xorshift dropped) in both mode: exit code 1,
// status rtl_mismatch, the report on stderr and in the manifest, and the same report as the
// built-in mutant gives (Ventropy_lb_mutant_xorshift_bit of the test blocks, in this process
// through the registry): the library is stepped exactly as the built-in block is.
TEST(rtl_library, a_mutant_library_is_caught_at_the_first_wrong_answer_with_the_report)
{
    const std::string dir = scratch_dir("rtl-lib-mutant");
    const std::string file =
        write_file(dir + "/s.yaml", scenario_text("Rtl: {EntropyLoadBalancer: both}\n"));
    const command_result lib =
        run(file, dir + "/lib",
            {"Rtl.EntropyLoadBalancerLibrary=" + libs + "/entropy_lb_xorshift_bit.so"});
    EXPECT_EQ(lib.exit_code, 1) << lib.err;
    const json m = json::parse(read_text(dir + "/lib/lib-manifest.json"));
    EXPECT_EQ(m.at("status"), "rtl_mismatch");
    const json& got = m.at("rtl").at("mismatch");
    const std::string component = got.at("component");
    EXPECT_NE(lib.err.find("uetsim: error: rtl mismatch: " + component + " at "), std::string::npos)
        << lib.err;
    EXPECT_NE(lib.err.find("the run stopped at the first RTL mismatch"), std::string::npos)
        << lib.err;
    EXPECT_NE(got.at("model"), got.at("rtl"));
    EXPECT_NE(got.at("request").get<std::string>().find("op=next"), std::string::npos)
        << "the xorshift feeds the draws of next";

    // The built-in mutant in this process, through the registry entry's seam.
    struct instance final : rtl_block_instance
    {
        entropy_lb_rtl* e = nullptr;
        uint64_t requests() const override { return e ? e->requests() : 0; }
        uint64_t checked() const override { return e ? e->checked() : 0; }
    };
    replace_rtl_block_factory("EntropyLoadBalancer", [](rtl_block_site& s) {
        auto i = std::make_unique<instance>();
        s.nic->make_entropy_engine = [i = i.get(), component = s.component,
                                      mode = s.mode](const nic_engine_context& c) {
            auto e = std::make_unique<entropy_lb_rtl>(
                component, c.contexts, mode, c.cycle_ps,
                std::make_unique<entropy_lb_block<Ventropy_lb_mutant_xorshift_bit>>(component));
            i->e = e.get();
            return e;
        };
        return std::unique_ptr<rtl_block_instance>(std::move(i));
    });
    std::vector<std::string> args = {"uetsim", "run", file, "--quiet", "--out", dir + "/builtin"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    testing::internal::CaptureStderr();
    const int code = run_cli(int(argv.size()), argv.data());
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(code, 1) << err;
    const json want =
        json::parse(read_text(dir + "/builtin/lib-manifest.json")).at("rtl").at("mismatch");
    EXPECT_EQ(got, want);
}

// Libraries that do not fit: exit 2 before the run, naming the key, the library and what is
// wrong; no manifest.
TEST(rtl_library, a_library_that_does_not_fit_exits_2_naming_what_is_wrong)
{
    const std::string dir = scratch_dir("rtl-lib-bad");
    const std::string file = write_file(dir + "/s.yaml", scenario_text());
    const std::string not_elf = write_file(dir + "/not-a-library.so", "text\n");
    const std::string lb = "Rtl.EntropyLoadBalancerLibrary=";
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"Rtl.EntropyLoadBalancer=rtl", lb + dir + "/missing.so"},
         "Rtl.EntropyLoadBalancerLibrary: '" + dir + "/missing.so' does not exist"},
        {{"Rtl.EntropyLoadBalancer=rtl", lb + not_elf},
         "' cannot be loaded: " + not_elf + ": file too short"},  // dlerror's text
        {{"Rtl.EntropyLoadBalancer=rtl", lb + libs + "/xor_flow_hash.so"},
         "xor_flow_hash.so' is a library for FlowHash (top module xor_flow_hash), not for "
         "EntropyLoadBalancer; build one with `uetsim rtl-build ... --as EntropyLoadBalancer`"},
        {{"Rtl.EntropyLoadBalancer=both", lb + fakes + "/fake_pin.so"},
         "does not meet this uetsim's pin contract: pin req_op: in, 3 bits, the "
         "EntropyLoadBalancer contract's is in, 2 bits"},
        {{"Rtl.EntropyLoadBalancer=both", lb + fakes + "/fake_version.so"},
         "fake_version.so' was built by uetsim 0.0.0-other, this is uetsim " UETSIM_VERSION},
        {{"Rtl.EntropyLoadBalancer=both", lb + fakes + "/fake_abi.so"},
         "fake_abi.so' was built for block library interface 0, this uetsim"},
        {{lb + libs + "/entropy_lb.so"},
         "Rtl.EntropyLoadBalancerLibrary: '" + libs +
             "/entropy_lb.so' is given but Rtl.EntropyLoadBalancer is model on every device"},
        // Per device: loaded when the device is built, before the run.
        {{"Rtl[host3].SackTracker=rtl", "Rtl[host3].SackTrackerLibrary=" + libs + "/entropy_lb.so"},
         "Rtl.SackTrackerLibrary: '" + libs +
             "/entropy_lb.so' is a library for EntropyLoadBalancer (top module entropy_lb), not "
             "for SackTracker"},
    };
    for (const auto& [sets, message] : cases)
        expect_refused(file, dir + "/o", sets, message, "lib-manifest.json");
}

// rtl-build checks the Verilated ports against the contract before compiling anything: a
// resized pin, a renamed one and an extra one are exit 2 naming the pin (and both widths); bad
// arguments are exit 2 too, and nothing is written.
TEST(rtl_library, rtl_build_checks_the_pin_contract_before_compiling)
{
    const std::string dir = scratch_dir("rtl-build-bad");
    auto flow_hash_sv = [&](const std::string& name, const std::string& ports) {
        return write_file(dir + "/" + name + ".sv",
                          "module " + name + " (\n" + ports +
                              "\n);\n"
                              "    assign hash = src_ip[15:0] ^ dst_ip[15:0] ^ src_port ^ "
                              "dst_port ^ salt[15:0] ^ {8'b0, protocol} ^ {13'b0, method} ^ "
                              "src_ip[31:16] ^ dst_ip[31:16] ^ salt[31:16];\nendmodule\n");
    };
    const std::string head =
        "    input logic [2:0] method, input logic [7:0] protocol, input logic [31:0] src_ip,\n"
        "    input logic [31:0] dst_ip, input logic [15:0] src_port, input logic [15:0] "
        "dst_port,\n";
    const std::string resized =
        flow_hash_sv("resized", head + "    input logic [31:0] salt, output logic [14:0] hash");
    const std::string renamed = write_file(
        dir + "/renamed.sv",
        "module renamed (\n" + head +
            "    input logic [31:0] seed, output logic [15:0] hash);\n    assign hash = "
            "src_ip[15:0] ^ dst_ip[15:0] ^ src_port ^ dst_port ^ seed[15:0] ^ {8'b0, protocol} ^ "
            "{13'b0, method} ^ src_ip[31:16] ^ dst_ip[31:16] ^ seed[31:16];\nendmodule\n");
    const std::string extra = flow_hash_sv(
        "extra", head + "    input logic [31:0] salt, output logic [15:0] hash, output logic busy");
    const std::string out = dir + "/x.so";
    struct bad
    {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<bad> cases = {
        {{resized, "--top", "resized", "--as", "FlowHash", "-Wno-WIDTH"},
         "rtl-build --as FlowHash: module resized: pin hash: out, 15 bits, the FlowHash "
         "contract's is out, 16 bits"},
        {{renamed, "--top", "renamed", "--as", "FlowHash"},
         "module renamed: pin salt is missing (the FlowHash contract's: in, 32 bits)"},
        {{extra, "--top", "extra", "--as", "FlowHash", "-Wno-UNDRIVEN"},
         "module extra: pin busy (out, 1 bit) is not in the FlowHash contract's pins"},
        {{resized, "--top", "resized", "--as", "FlowHashes"},
         "rtl-build --as 'FlowHashes' is not one of FlowHash, EntropyLoadBalancer, SackTracker; "
         "did you mean 'FlowHash'?"},
        {{dir + "/nothing.sv", "--top", "x", "--as", "FlowHash"},
         "rtl-build: source '" + dir + "/nothing.sv' does not exist"},
        {{resized, "--top", "not_there", "--as", "FlowHash"},
         "rtl-build: Verilator failed on module not_there:"},
    };
    for (const bad& c : cases) {
        std::vector<std::string> args = {"rtl-build"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        args.insert(args.end(), {"--out", out});
        const command_result r = run_uetsim(args);
        EXPECT_EQ(r.exit_code, 2) << c.message << ": " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(out)) << c.message;
    }
    const command_result usage = run_uetsim({"rtl-build", resized, "--as", "FlowHash"});
    EXPECT_EQ(usage.exit_code, 2) << usage.err;
    EXPECT_NE(usage.err.find("--top is required"), std::string::npos) << usage.err;
}

// An installed uetsim, its prefix moved elsewhere (so no path of the build or source tree can
// serve): rtl-build uses the kit under the moved prefix, builds the installed copy of
// flow_hash.sv, and a run of the moved uetsim loads the library in both mode with every hash
// checked.
TEST(rtl_library, rtl_build_and_the_library_work_from_an_installed_uetsim)
{
    const std::string dir = scratch_dir("rtl-lib-installed");
    const std::string installed = dir + "/installed";
    const std::string install_log =
        shell_output(std::string(UETSIM_CMAKE_COMMAND) + " --install " + UETSIM_BINARY_DIR +
                     " --prefix " + installed + " 2>&1; echo exit=$?");
    ASSERT_NE(install_log.find("exit=0"), std::string::npos) << install_log;
    const std::string moved = dir + "/moved";
    fs::rename(installed, moved);
    const std::string bin = moved + "/bin/uetsim";
    ASSERT_TRUE(fs::exists(bin));
    const std::string sv = moved + "/share/uetsim/rtl-build/blocks/flow_hash.sv";
    ASSERT_TRUE(fs::exists(sv)) << "the installed reference copy of the built-in block";

    setenv("UETSIM_BIN", bin.c_str(), 1);
    const command_result b = run_uetsim({"rtl-build", sv, "--top", "flow_hash", "--as", "FlowHash",
                                         "--out", dir + "/flow_hash.so", "-j", "2"});
    const std::string file = write_file(dir + "/s.yaml", scenario_text());
    const command_result r = run(
        file, dir + "/out", {"Rtl.FlowHash=both", "Rtl.FlowHashLibrary=" + dir + "/flow_hash.so"});
    unsetenv("UETSIM_BIN");

    ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
    // Every file rtl-build used of uetsim's is under the moved prefix.
    EXPECT_NE(b.out.find("  kit:       " + moved + "/share/uetsim/rtl-build\n"), std::string::npos)
        << b.out;
    EXPECT_NE(
        b.out.find("  runtime:   " + moved + "/lib/uetsim/rtl-build/libuetsim_rtl_runtime.a\n"),
        std::string::npos)
        << b.out;
    EXPECT_NE(b.out.find("  pins:      8, as the FlowHash contract says"), std::string::npos)
        << b.out;
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const json m = json::parse(read_text(dir + "/out/lib-manifest.json"));
    EXPECT_TRUE(m.at("scoreboard").at("ok").get<bool>());
    const json& fh = m.at("rtl").at("blocks").at("FlowHash");
    EXPECT_GT(fh.at("checked").get<uint64_t>(), 1000u);
    EXPECT_EQ(fh.at("checked"), fh.at("requests"));
    EXPECT_EQ(fh.at("devices").at("leaf0").at("library"), dir + "/flow_hash.so");
}

// Verilog $stop inside a library (the toy flow hash built with -DUETSIM_TOY_STOP_ON_UDP) goes
// through the library's copy of uetsim's Verilator hooks: the run stops with exit code 1 and an
// error naming the source line, as the built-in blocks' $stop does (not Verilator's abort).
TEST(rtl_library, verilog_stop_in_a_library_stops_the_run_through_the_hooks)
{
    const std::string dir = scratch_dir("rtl-lib-stop");
    const std::string file = write_file(dir + "/s.yaml", scenario_text());
    const command_result r =
        run(file, dir + "/out",
            {"Rtl.FlowHash=rtl", "Rtl.FlowHashLibrary=" + libs + "/xor_flow_hash_stop.so"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    // The line of the $stop in the toy's source.
    const std::string sv = read_text(source_dir() + "/tests/seams/toy_rtl/xor_flow_hash.sv");
    const size_t at = sv.find("$stop;");
    ASSERT_NE(at, std::string::npos);
    const long line = std::count(sv.begin(), sv.begin() + long(at), '\n') + 1;
    EXPECT_NE(r.err.find("Verilog $stop at "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("xor_flow_hash.sv:" + std::to_string(line)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("uetsim: internal error at simulated time"), std::string::npos) << r.err;
}

// A user's block of two files with one more pipeline stage than the built-in one
// (tests/rtl/blocks/entropy_lb_delayed.sv around rtl/entropy_lb/entropy_lb.sv): its latency pin
// says 3 and it answers 3 cycles after acceptance (the wrapper stops the run with a protocol
// error when a block answers after another count than its pin says). UetNic.EntropyLookupCycles:
// auto (the default) follows the library's latency, 3 instead of the built-in's 2, and the run
// is clean in rtl and in both, where every answer equals the model's; 2 given by hand is exit 2
// naming both numbers.
TEST(rtl_library, a_library_with_a_longer_pipeline_answers_after_its_own_latency)
{
    const std::string dir = scratch_dir("rtl-lib-delayed");
    const std::string file = write_file(dir + "/s.yaml", scenario_text());
    const std::string lib = "Rtl.EntropyLoadBalancerLibrary=" + libs + "/entropy_lb_delayed.so";
    for (const char* mode : {"rtl", "both"}) {
        const command_result r =
            run_uetsim({"inspect", file, "--json", "--set",
                        std::string("Rtl.EntropyLoadBalancer=") + mode, "--set", lib});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(json::parse(r.out).at("scenario").at("UetNic").at("EntropyLookupCycles"), 3)
            << mode;
    }
    const command_result builtin =
        run_uetsim({"inspect", file, "--json", "--set", "Rtl.EntropyLoadBalancer=rtl"});
    EXPECT_EQ(json::parse(builtin.out).at("scenario").at("UetNic").at("EntropyLookupCycles"), 2);

    const json rtl = run_ok(file, dir + "/rtl", {"Rtl.EntropyLoadBalancer=rtl", lib});
    const json both = run_ok(file, dir + "/both", {"Rtl.EntropyLoadBalancer=both", lib});
    const json& r = rtl.at("rtl").at("blocks").at("EntropyLoadBalancer");
    const json& b = both.at("rtl").at("blocks").at("EntropyLoadBalancer");
    EXPECT_GT(r.at("requests").get<uint64_t>(), rtl.at("data_packets_sent").get<uint64_t>());
    EXPECT_EQ(b.at("checked"), b.at("requests"));
    EXPECT_FALSE(both.at("rtl").contains("mismatch"));
    const command_result short_stage = run(
        file, dir + "/short", {"Rtl.EntropyLoadBalancer=rtl", lib, "UetNic.EntropyLookupCycles=2"});
    EXPECT_EQ(short_stage.exit_code, 2) << short_stage.err;
    EXPECT_NE(short_stage.err.find("UetNic.EntropyLookupCycles: 2 is below the latency of the RTL "
                                   "entropy load balancer (3 cycles"),
              std::string::npos)
        << short_stage.err;
}
