// Test-only block libraries that rtl-build would never write, for the loader's checks
// (tests/system/rtl_library_test.cpp): an EntropyLoadBalancer library whose ports are the
// contract's but for one pin (UETSIM_FAKE_PIN: req_op 3 bits), one built by another uetsim
// version (UETSIM_FAKE_VERSION) and one for another interface version (UETSIM_FAKE_ABI). The
// loader refuses each before it asks for a block, so they have no factory.
#include <string_view>

#include "rtl/entropy_lb/entropy_lb_contract.h"
#include "rtl/library/rtl_contract.h"
#include "rtl/library/rtl_library.h"

namespace {

using namespace uetsim;

#define UETSIM_FAKE_PORT(dir, name, width, role, meaning) \
    rtl_library_port{#name, uint8_t(rtl_pin_dir::dir), width},
rtl_library_port ports[] = {UETSIM_ENTROPY_LB_PINS(UETSIM_FAKE_PORT)};

void attach(const rtl_library_host*) {}

}  // namespace

extern "C" __attribute__((visibility("default"))) const rtl_library_descriptor* uetsim_rtl_library()
{
#if defined(UETSIM_FAKE_PIN)
    for (auto& p : ports)
        if (std::string_view(p.name) == "req_op") p.width = 3;
#endif
    static const rtl_library_descriptor d = {
#if defined(UETSIM_FAKE_ABI)
        0,
#else
        rtl_library_abi,
#endif
#if defined(UETSIM_FAKE_VERSION)
        "0.0.0-other",
#else
        UETSIM_VERSION,
#endif
        "Verilator (none)",
        "EntropyLoadBalancer",
        "fake",
        "fake_library.cpp",
        ports,
        uint32_t(sizeof ports / sizeof ports[0]),
        attach,
        nullptr,
        nullptr,
        nullptr
    };
    return &d;
}
