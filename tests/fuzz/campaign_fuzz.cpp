// libFuzzer target: the campaign file reader (`uetsim campaign FILE`) and the drawing of its
// first cases. Bad input must be a config_error (exit code 2); anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "sim/campaign/campaign_file.h"
#include "sim/campaign/case_draw.h"
#include "sim/config/schema.h"
#include "tests/fuzz/fuzz_files.h"

// libsystemc refers to sc_main (extern "C" there); the kernel never starts.
extern "C" int sc_main(int, char**)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = uetsim::fuzz::write_input("campaign.yaml", data, size);
    try {
        const uetsim::campaign::campaign_spec spec = uetsim::campaign::read_campaign_file(path);
        for (uint32_t i = 0; i < spec.cases && i < 2; ++i) uetsim::campaign::draw_case(spec, i);
    } catch (const uetsim::config::config_error&) {
    }
    return 0;
}
