// `uetsim rtl-build`: a user's SystemVerilog block as a block library that Rtl.<Block>Library
// loads in place of the built-in RTL, with no rebuild of uetsim (docs/rtl.md, "Your own block";
// the library's interface is rtl/library/rtl_library.h).
//
//   uetsim rtl-build my_lb.sv --top my_lb --as EntropyLoadBalancer --out my_lb.so
//
// 1. Verilator (the one in PATH, the version uetsim was built with) turns the sources into C++
//    with the project's arguments (-Wall, --timescale 1ns/1ps, FST tracing), the user's -D, -G,
//    -I, -W options and +define+/+incdir+ items, and the prefix Vuetsim_block.
// 2. The generated Vuetsim_block.h's ports are checked against the block's pin contract
//    (rtl/library/rtl_contract.h) before anything is compiled: a missing, extra or wrong pin is
//    bad input (exit 2) naming the pin and both widths.
// 3. The compiler uetsim was built with ($CXX if set) compiles the model and the project's
//    wrapper for the block (rtl/library/library_entry.cpp from the kit) and links them with the
//    kit's runtime archive into one self-contained shared library, everything hidden but its
//    entry point; the library is loaded once and checked as a run would (rtl_library_loader.h).
//
// The kit is found beside the executable: <bin>/../share/uetsim/rtl-build and
// <bin>/../lib/uetsim/rtl-build, laid out the same in the build tree and the installed prefix.
#pragma once

#include <string>
#include <vector>

namespace uetsim {

struct rtl_build_options
{
    std::vector<std::string> sources;  // .sv/.v files; +define+... and +incdir+... go to Verilator
    std::string top;                   // the top module
    std::string as;                    // the block key: FlowHash, EntropyLoadBalancer, SackTracker
    std::string out;                   // the library to write
    std::vector<std::string> verilator_options;  // -D..., -G..., -I..., -W... as given
    unsigned jobs = 0;                           // compilations at a time; 0: the machine's cores
    std::string work;                            // keep the intermediate files here; empty: none
    bool verbose = false;                        // print every command
};

// Returns the exit code; throws config::config_error for bad input (exit 2).
int run_rtl_build(const rtl_build_options& o);

}  // namespace uetsim
