// The interface between uetsim and a block library: a shared object built by `uetsim rtl-build`
// from a user's SystemVerilog (docs/rtl.md, "Your own block") and loaded for
// Rtl.<Block>Library in place of the built-in RTL.
//
// A library holds the user's Verilated model, its own copy of Verilator's runtime (built with
// uetsim's $finish/$stop/fatal hooks, rtl/verilator_hooks.cpp) and the project's wrapper for the
// block's key instantiated on the model (flow_hash_block<V>, entropy_lb_block<V>,
// sack_tracker_block<V>). Everything in it is hidden but one C function,
// uetsim_rtl_library(), which returns the descriptor below. uetsim checks the descriptor before
// the run (rtl_library_loader.h): the interface version, the uetsim version, the block key and
// every port against the key's pin contract (rtl_contract.h).
//
// The wrapper objects cross the boundary as the C++ interfaces uetsim's own engines use, so a
// library is only valid for the uetsim version that built it (same compiler, same layouts):
// rtl_library_abi changes with any of these types, and uetsim_version must match exactly.
#pragma once

#include <cstdint>

namespace uetsim {

class rtl_flow_hash_core;
class entropy_lb_port;
class rtl_sack_tracker_core;

// The version of this interface: raise it whenever a type below or one the factories return
// (flow_hash_core.h, entropy_lb_port.h, sack_tracker_core.h, rtl_pins.h) changes.
inline constexpr uint32_t rtl_library_abi = 1;

// What uetsim lends a library: the functions of rtl/common/rtl_kernel.h.
struct rtl_library_host
{
    uint64_t (*time_ps)();           // the model's time, ps
    void (*stop_run)();              // $finish, $stop, fatal
    void (*note)(const char* text);  // $finish's note
};

// One port of the user's Verilated top, as rtl-build read it from the generated header.
struct rtl_library_port
{
    const char* name;
    uint8_t dir;  // rtl_pin_dir: 0 in, 1 out
    uint32_t width;
};

struct rtl_library_descriptor
{
    uint32_t abi;                   // rtl_library_abi of the uetsim that built it
    const char* uetsim_version;     // UETSIM_VERSION of the uetsim that built it
    const char* verilator_version;  // `verilator --version` at the build
    const char* block_key;          // FlowHash, EntropyLoadBalancer, SackTracker
    const char* top;                // the user's top module
    const char* sources;            // the source files, as given to rtl-build (space separated)
    const rtl_library_port* ports;
    uint32_t port_count;
    // Called once by the loader, before any factory.
    void (*attach)(const rtl_library_host* host);
    // The block for the key (the others are null); `name` is the component (host3.entropy_lb).
    // The caller owns the result and deletes it through its virtual destructor.
    rtl_flow_hash_core* (*make_flow_hash)(const char* name);
    entropy_lb_port* (*make_entropy_lb)(const char* name);
    rtl_sack_tracker_core* (*make_sack_tracker)(const char* name);
};

}  // namespace uetsim

// The one exported symbol of a block library.
#define UETSIM_RTL_LIBRARY_ENTRY "uetsim_rtl_library"
extern "C" {
using uetsim_rtl_library_fn = const uetsim::rtl_library_descriptor* (*)();
}

namespace uetsim {
// Inside a library (library_kernel.cpp): keeps the functions uetsim lends for rtl_kernel.h.
void rtl_library_attach(const rtl_library_host* host);
}  // namespace uetsim
