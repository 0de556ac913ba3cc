// The trace file of a run: the writer its name's extension chooses. Apart from trace_writer.h
// because the FST writer links gtkwave's fstapi (inside the rtl library's Verilator runtime).
#pragma once

#include <memory>
#include <string>

#include "testbench/trace/trace_writer.h"

namespace uetsim {

// An FST writer for a path ending in .fst, else a VCD writer; throws std::runtime_error when the
// file cannot be created.
std::unique_ptr<trace_writer> make_trace_writer(const std::string& path);

}  // namespace uetsim
