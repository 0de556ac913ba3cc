#include "testbench/trace/trace_writer.h"

#include "testbench/trace/fst_writer.h"
#include "testbench/trace/vcd_writer.h"

namespace uetsim {

void split_signal_name(const std::string& dotted, std::string& scope, std::string& leaf)
{
    const size_t dot = dotted.rfind('.');
    scope = dot == std::string::npos ? std::string() : dotted.substr(0, dot);
    leaf = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

std::unique_ptr<trace_writer> make_trace_writer(const std::string& path)
{
    const bool fst = path.size() >= 4 && path.compare(path.size() - 4, 4, ".fst") == 0;
    if (fst) return std::make_unique<fst_writer>(path);
    return std::make_unique<vcd_writer>(path);
}

}  // namespace uetsim
