#include "testbench/trace/trace_file.h"

#include "testbench/trace/fst_writer.h"
#include "testbench/trace/vcd_writer.h"

namespace uetsim {

std::unique_ptr<trace_writer> make_trace_writer(const std::string& path)
{
    const bool fst = path.size() >= 4 && path.compare(path.size() - 4, 4, ".fst") == 0;
    if (fst) return std::make_unique<fst_writer>(path);
    return std::make_unique<vcd_writer>(path);
}

}  // namespace uetsim
