#include "rtl/library/verilated_ports.h"

#include <regex>
#include <sstream>

namespace uetsim {

std::vector<rtl_port> verilated_ports(const std::string& header_text)
{
    // VL_IN / VL_OUT / VL_INOUT, optionally 8, 16, 64 or W; (&name, msb, lsb[, words]).
    static const std::regex port(
        R"(^\s*VL_(IN|OUT|INOUT)(8|16|64|W)?\(&(\w+),\s*(\d+),\s*(\d+)(,\s*\d+)?\);)");
    std::vector<rtl_port> out;
    std::istringstream in(header_text);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, port)) continue;
        rtl_port p;
        p.name = m[3].str();
        p.dir = m[1] == "IN"    ? rtl_pin_dir::in
                : m[1] == "OUT" ? rtl_pin_dir::out
                                : rtl_pin_dir::inout;
        p.width = unsigned(std::stoul(m[4].str()) - std::stoul(m[5].str()) + 1);
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace uetsim
