// Verilator's user runtime hooks, mapped onto the run (STYLE.md P6).
//
// Verilator's runtime (verilated.cpp) is compiled with VL_USER_FINISH, VL_USER_STOP and
// VL_USER_FATAL, so these definitions replace the defaults: in uetsim_rtl, and in the runtime
// that every block library built by `uetsim rtl-build` carries (rtl/library). The defaults are
// wrong inside a simulation: the first $finish only sets a flag (the kernel keeps running) and
// the second calls std::exit(0), which turns a failing gtest green; $stop and fatal errors print
// and abort without going through the run's error channel.
//
// Here (rtl_kernel.h says what stopping the run and a note are in each process):
//   $finish  -> the run stops (a note says where it came from)
//   $stop    -> the run stops and std::runtime_error, the model's one error channel
//               (docs/architecture.md, "Errors"). Verilator also routes failed immediate
//               assertions through $stop (vl_stop_maybe), so an RTL assertion stops the run.
//   fatal    -> the same; Verilator treats vl_fatal as no-return, and the throw keeps it so.
#include "rtl/verilated_includes.h"

#include <stdexcept>
#include <string>

#include "rtl/common/rtl_kernel.h"

namespace {

std::string where(const char* filename, int linenum, const char* hier)
{
    std::string s;
    if (filename && filename[0]) s += std::string(filename) + ":" + std::to_string(linenum);
    if (hier && hier[0]) s += std::string(s.empty() ? "" : " ") + "(" + hier + ")";
    return s;
}

}  // namespace

void vl_finish(const char* filename, int linenum, const char* hier)
{
    Verilated::threadContextp()->gotFinish(true);
    uetsim::rtl_note("Verilog $finish at " + where(filename, linenum, hier));
    uetsim::rtl_stop_run();
}

void vl_stop(const char* filename, int linenum, const char* hier)
{
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    Verilated::runFlushCallbacks();
    uetsim::rtl_stop_run();
    throw std::runtime_error("Verilog $stop at " + where(filename, linenum, hier));
}

void vl_fatal(const char* filename, int linenum, const char* hier, const char* msg)
{
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    Verilated::runFlushCallbacks();
    uetsim::rtl_stop_run();
    const std::string text =
        std::string(msg ? msg : "fatal error") +
        (filename && filename[0] ? " at " + where(filename, linenum, hier) : "");
    throw std::runtime_error("Verilator fatal: " + text);
}
