// What the RTL layer asks of the process it runs in: the model's time, stopping the run, and a
// note on stderr. Declared here and defined once per process kind, so the same wrappers and
// Verilator hooks serve both: uetsim (rtl_kernel.cpp, on the SystemC kernel and the model clock)
// and a block library built by `uetsim rtl-build` (rtl/library/library_kernel.cpp, forwarding to
// the functions uetsim lends it when it loads the library). No SystemC or Verilator header here:
// wrapper headers include this before Verilator's (rtl/verilated_includes.h says why).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace uetsim {

// The model's time in ps, sim_now_ps() (docs/time-base.md).
uint64_t rtl_sim_time_ps();

// Stops the run: no model wake-up after the current time (Verilog $finish, $stop, fatal).
void rtl_stop_run();

// An informational note from a block (Verilog $finish: where it came from).
void rtl_note(const std::string& text);

// A block broke its handshake (valid_ready.h: no ready / no response within the cycle bound):
// throws std::runtime_error("rtl protocol error: " + what), the model's one error channel.
[[noreturn]] inline void rtl_protocol_error(const std::string& what)
{
    throw std::runtime_error("rtl protocol error: " + what);
}

}  // namespace uetsim
