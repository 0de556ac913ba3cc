#include "testbench/trace/gtkw_layout.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace uetsim {

std::string component_of(const std::string& dotted)
{
    return dotted.substr(0, dotted.find('.'));
}

double gtkw_zoom_for(double span)
{
    // At zoom z gtkwave draws 2^-z time units per 256 pixels (measured: the 1600-pixel window's
    // wave pane, about 1,420 pixels, spans 5.55 x 2^-z); the span fills 1,350 of them.
    return -std::log2(span * 256.0 / 1350.0);
}

std::string gtkw_layout::text() const
{
    std::ostringstream o;
    o << "[*] uetsim waveform layout\n";
    o << "[dumpfile] \"" << dump_file << "\"\n";
    if (!save_file.empty()) o << "[savefile] \"" << save_file << "\"\n";
    o << "[timestart] " << start_ps << "\n";
    o << "[size] 1600 1000\n";
    o << "[pos] -1 -1\n";
    // Zoomed to the dumped window.
    {
        char zoom[32];
        std::snprintf(zoom, sizeof zoom, "%.6f",
                      gtkw_zoom_for(double(end_ps > start_ps ? end_ps - start_ps : 1)));
        o << "*" << zoom << " -1\n";
    }
    std::string group;
    for (const auto& s : signals) {
        const std::string c = component_of(s.name);
        if (c != group) {
            group = c;
            o << "@" << std::hex << flag_comment << std::dec << "\n-" << c << "\n";
        }
        unsigned flags = s.bits == 1 ? flag_binary : flag_decimal;
        if (s.analog && s.bits > 1) flags |= flag_analog_step;
        o << "@" << std::hex << flags << std::dec << "\n";
        o << s.name;
        if (s.bits > 1) o << "[" << s.bits - 1 << ":0]";
        o << "\n";
        if (flags & flag_analog_step)
            o << "@" << std::hex << flag_analog_stretch << std::dec << "\n-\n-\n";
    }
    o << "[pattern_trace] 1\n[pattern_trace] 0\n";
    return o.str();
}

void gtkw_layout::write(const std::string& path) const
{
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write the gtkwave layout " + path);
    f << text();
}

}  // namespace uetsim
