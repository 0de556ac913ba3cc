// A gtkwave save file (.gtkw) for a trace: the dump file, the time span, and the signals grouped
// per component under a comment row, multi-bit values as analog steps (windows, queues) or
// decimal numbers, flags as single-bit traces. gtkwave reads it with `gtkwave file.gtkw`. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uetsim {

struct gtkw_signal
{
    std::string name;  // dotted: host0.g0.cwnd_bytes
    unsigned bits = 64;
    bool analog = false;  // drawn as an analog step, two rows high
};

struct gtkw_layout
{
    // Both relative to the .gtkw's folder (the trace beside it: its file name), so the output
    // folder can move: gtkwave opens a relative [dumpfile] from the folder it read the .gtkw in
    // when the file has a [savefile] line, whatever that line's folder says.
    std::string dump_file;
    std::string save_file;  // empty: no [savefile] line (a relative dump_file then fails)
    uint64_t start_ps = 0, end_ps = 0;  // the dumped window: gtkwave opens zoomed to it
    std::vector<gtkw_signal> signals;   // in display order; a new component starts a group

    // gtkwave's trace flags: decimal, right-justified; analog step adds 0x8000.
    static constexpr unsigned flag_decimal = 0x24;
    static constexpr unsigned flag_binary = 0x28;
    static constexpr unsigned flag_analog_step = 0x8000;
    static constexpr unsigned flag_analog_stretch = 0x20000;  // the rows under an analog trace
    static constexpr unsigned flag_comment = 0x200;

    std::string text() const;
    void write(const std::string& path) const;  // throws std::runtime_error
};

// gtkwave's zoom at which `span` time units fill the wave pane of the layout's 1600 x 1000
// window, with a margin of about 5%.
double gtkw_zoom_for(double span);

// The component of a dotted signal name: its first part (host0, leaf0-spine1, leaf0).
std::string component_of(const std::string& dotted);

}  // namespace uetsim
