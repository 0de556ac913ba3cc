// Verilator's user runtime hooks, mapped onto the SystemC kernel (STYLE.md P6).
//
// uetsim_rtl compiles Verilator's runtime (verilated.cpp) with VL_USER_FINISH, VL_USER_STOP and
// VL_USER_FATAL, so these definitions replace the defaults. The defaults are wrong inside a
// SystemC simulation: the first $finish only sets a flag (the kernel keeps running) and the
// second calls std::exit(0), which turns a failing gtest green; $stop and fatal errors print and
// abort without going through SystemC's report handler.
//
// Here:
//   $finish  -> sc_stop() (an SC_INFO report says where it came from)
//   $stop    -> sc_stop() and std::runtime_error, the model's one error channel
//               (docs/architecture.md, "Errors"). Verilator also routes failed immediate
//               assertions through $stop (vl_stop_maybe), so an RTL assertion stops the run.
//   fatal    -> the same; Verilator treats vl_fatal as no-return, and the throw keeps it so.
#include "rtl/verilated_includes.h"

#include <systemc>

#include "hw/kernel/sim_clock.h"

#include <stdexcept>
#include <string>

namespace {

constexpr const char* k_msg_type = "/uetsim/rtl/verilator";

std::string where(const char* filename, int linenum, const char* hier)
{
    std::string s;
    if (filename && filename[0]) s += std::string(filename) + ":" + std::to_string(linenum);
    if (hier && hier[0]) s += std::string(s.empty() ? "" : " ") + "(" + hier + ")";
    return s;
}

void stop_kernel()
{
    // Before sc_start (e.g. a fatal at model construction) there is nothing to stop; calling
    // sc_stop() then would only make the later sc_start fail with E546.
    uetsim::stop_simulation();
}

}  // namespace

void vl_finish(const char* filename, int linenum, const char* hier)
{
    Verilated::threadContextp()->gotFinish(true);
    SC_REPORT_INFO(k_msg_type, ("Verilog $finish at " + where(filename, linenum, hier)).c_str());
    stop_kernel();
}

void vl_stop(const char* filename, int linenum, const char* hier)
{
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    Verilated::runFlushCallbacks();
    stop_kernel();
    throw std::runtime_error("Verilog $stop at " + where(filename, linenum, hier));
}

void vl_fatal(const char* filename, int linenum, const char* hier, const char* msg)
{
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    Verilated::runFlushCallbacks();
    stop_kernel();
    const std::string text =
        std::string(msg ? msg : "fatal error") +
        (filename && filename[0] ? " at " + where(filename, linenum, hier) : "");
    throw std::runtime_error("Verilator fatal: " + text);
}
