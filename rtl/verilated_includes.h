// The one place that includes Verilator's runtime headers (STYLE.md P13). Include this, or a
// generated V*.h, BEFORE anything that includes <systemc> in a translation unit that touches
// Verilator.
//
// The blocks are Verilated in plain C++ mode (VM_SC=0; RTL_DESIGN D1, docs/rtl.md) and take
// their time from their own VerilatedContext (VL_TIME_CONTEXT, set by rtl/CMakeLists.txt for
// every target linking uetsim_rtl). Why the order still matters with Verilator 5.006:
// verilated_funcs.h takes the SystemC branch whenever SYSTEMC_VERSION is defined (that is,
// <systemc> came first) and then calls an unqualified sc_time_stamp(), which does not compile,
// and would give this translation unit a different inline VerilatedContext::time() than
// verilated.cpp. The #error below says so instead of the compiler's puzzle.
//
// The VM_* switches are set PRIVATE by CMake's verilate() and re-exported by rtl/CMakeLists.txt,
// so every translation unit sees the same inline Verilator code (P8). The defaults below only
// matter outside that build.
#pragma once

#if defined(SYSTEMC_VERSION)
#error "include rtl/verilated_includes.h (or a V*.h) before <systemc> (docs/rtl.md, STYLE.md P13)"
#endif

#ifndef VM_SC
#define VM_SC 0
#endif
#ifndef VM_TRACE
#define VM_TRACE 1
#endif
#ifndef VM_TRACE_FST
#define VM_TRACE_FST 1
#endif
#ifndef VL_TIME_CONTEXT
#define VL_TIME_CONTEXT
#endif

// clang-format off
#include <verilated.h>
#include <verilated_fst_c.h>  // VerilatedFstC: FST waves of one block (clocked_block::open_fst)
// clang-format on
