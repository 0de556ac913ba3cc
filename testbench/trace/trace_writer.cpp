#include "testbench/trace/trace_writer.h"

namespace uetsim {

void split_signal_name(const std::string& dotted, std::string& scope, std::string& leaf)
{
    const size_t dot = dotted.rfind('.');
    scope = dot == std::string::npos ? std::string() : dotted.substr(0, dot);
    leaf = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

}  // namespace uetsim
