// libFuzzer target: the scenario loader, as `uetsim run FILE --set ...` uses it. The input is a
// scenario document, then (each after a NUL byte) --set assignments. Bad input must be a
// config_error (the command's exit code 2); anything else escaping, or a crash, is a finding.
// A scenario that resolves must print back (`uetsim inspect`) as a document that resolves to the
// same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/config/loader.h"
#include "sim/config/output.h"
#include "sim/config/schema.h"

// libsystemc refers to sc_main; the loader never starts the kernel.
extern "C" int sc_main(int, char**)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> parts;
    for (size_t b = 0;;) {
        const size_t e = input.find('\0', b);
        parts.push_back(input.substr(b, e == std::string::npos ? std::string::npos : e - b));
        if (e == std::string::npos) break;
        b = e + 1;
    }
    std::string printed;
    try {
        uetsim::config::scenario_builder b;
        b.load_text(parts[0], "fuzz.yaml");
        for (size_t i = 1; i < parts.size(); ++i) b.apply_set(parts[i]);
        printed = uetsim::config::scenario_yaml(b.finish());
    } catch (const uetsim::config::config_error&) {
        return 0;
    }
    try {
        const std::string again =
            uetsim::config::scenario_yaml(uetsim::config::resolve_text(printed));
        if (again != printed) {
            std::fprintf(stderr, "printed scenario resolves differently:\n%s\n---\n%s\n",
                         printed.c_str(), again.c_str());
            std::abort();
        }
    } catch (const uetsim::config::config_error& e) {
        std::fprintf(stderr, "printed scenario does not resolve: %s\n%s\n", e.what(),
                     printed.c_str());
        std::abort();
    }
    return 0;
}
