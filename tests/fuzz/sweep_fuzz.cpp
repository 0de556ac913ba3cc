// libFuzzer target: the sweep file reader (`uetsim sweep FILE`). The input is written as
// sweeps/fuzz.yaml beside copies of examples/*.yaml, so a Base such as ../uet-spraying.yaml
// resolves. Bad input must be a config_error (exit code 2); anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "sim/config/schema.h"
#include "sim/sweep/sweep_file.h"
#include "tests/fuzz/fuzz_files.h"

// libsystemc refers to sc_main (extern "C" there); the kernel never starts.
extern "C" int sc_main(int, char**)
{
    return 0;
}

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    namespace fs = std::filesystem;
    for (const auto& e : fs::directory_iterator(UETSIM_EXAMPLES_DIR))
        if (e.path().extension() == ".yaml")
            fs::copy_file(e.path(), uetsim::fuzz::fuzz_folder() / e.path().filename(),
                          fs::copy_options::overwrite_existing);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = uetsim::fuzz::write_input("sweeps/fuzz.yaml", data, size);
    try {
        uetsim::sweep::read_sweep_file(path);
    } catch (const uetsim::config::config_error&) {
    }
    return 0;
}
