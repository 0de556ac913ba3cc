// libFuzzer target: the Chakra trace reader and trace preparation (`Chakra.Traces`), and the
// mapping file parser (`Chakra.MappingFile`), each given the input. The input is rank 0's
// `.et` file of a one-rank traceset, prepared with the default Chakra keys. Bad input must be a
// trace_error or mapping_error (the run's exit code 2); anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "testbench/traffic/chakra/et_reader.h"
#include "testbench/traffic/chakra/mapping_file.h"
#include "testbench/traffic/chakra/trace_preparation.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace uetsim::chakra;
    try {
        const std::string path = uetsim::fuzz::write_input("fuzz.0.et", data, size);
        const traceset ts = read_traceset(path.substr(0, path.size() - 5));
        prepare_traces(ts, chakra_config{});
    } catch (const trace_error&) {
    }
    try {
        parse_mapping(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    } catch (const mapping_error&) {
    }
    return 0;
}
