// The one place that includes Verilator's runtime headers (STYLE.md P13). Include this, or a
// generated V*.h, BEFORE <systemc> in any translation unit that touches Verilator.
//
// Why the order matters with Verilator 5.006: verilated_funcs.h calls an unqualified
// sc_time_stamp() whenever SYSTEMC_VERSION is defined, and only "systemc.h" (the legacy header,
// which pulls sc_core/sc_dt into the global namespace) makes that name visible. A translation
// unit that does `#include <systemc>` and then `#include <verilated.h>` fails with
// "'sc_time_stamp' was not declared in this scope". verilated_sc.h includes "systemc.h" first.
//
// The VM_* switches are set PRIVATE by CMake's verilate() on the verilated target and
// re-exported by rtl/CMakeLists.txt to every target linking uetsim_rtl, so every translation unit
// sees the same inline Verilator code (P8). The defaults below only matter for a translation unit
// compiled outside that build (e.g. a throwaway tool).
#pragma once

#ifndef VM_SC
#define VM_SC 1
#endif
#ifndef VM_TRACE
#define VM_TRACE 1
#endif
#ifndef VM_TRACE_FST
#define VM_TRACE_FST 1
#endif

// clang-format off
#include <verilated_sc.h>      // "systemc.h" first
#include <verilated.h>
#include <verilated_fst_sc.h>  // VerilatedFstSc: FST waves of Verilated blocks (docs/rtl.md)
// clang-format on

// Newer Verilator (5.018+) generates code against <systemc> and may need these names in user
// code; with 5.006 they are already global through "systemc.h". Keep user code qualified
// (sc_core::...) so that either works.
