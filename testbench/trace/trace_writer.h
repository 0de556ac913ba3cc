// The waveform file behind the trace layer: scalars declared by dotted name (host0.g0.cwnd_bytes:
// scopes host0 and g0, variable cwnd_bytes), then value changes in non-decreasing time. FST
// (fst_writer.h, gtkwave's fstapi shipped with Verilator) and VCD (vcd_writer.h) implement it;
// the file's extension chooses (trace_file.h). Pure: no SystemC.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace uetsim {

class trace_writer
{
public:
    virtual ~trace_writer() = default;
    // Before begin(): a `bits`-wide unsigned scalar; returns its id (0, 1, 2, ... in order).
    // Names sharing a scope must be declared together (the hierarchy is written in order).
    virtual uint32_t declare(const std::string& dotted_name, unsigned bits) = 0;
    // Ends the declarations.
    virtual void begin() = 0;
    // Value `value` for signal `id` from `time_ps` on; times never decrease.
    virtual void change(uint64_t time_ps, uint32_t id, uint64_t value) = 0;
    // Flushes and closes the file; `end_ps` is the last time shown.
    virtual void close(uint64_t end_ps) = 0;
};

// The scope part and the leaf of a dotted name ("host0.g0", "cwnd_bytes").
void split_signal_name(const std::string& dotted, std::string& scope, std::string& leaf);

}  // namespace uetsim
