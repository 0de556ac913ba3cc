// rtl_kernel.h inside a block library: the functions uetsim lends the library when it loads it
// (rtl_library_host). Compiled into the library's runtime archive (libuetsim_rtl_runtime.a)
// with Verilator's runtime and the hooks, all hidden.
#include "rtl/common/rtl_kernel.h"
#include "rtl/library/rtl_library.h"

namespace uetsim {

namespace {
const rtl_library_host* g_host = nullptr;
}

void rtl_library_attach(const rtl_library_host* host)
{
    g_host = host;
}

uint64_t rtl_sim_time_ps()
{
    return g_host ? g_host->time_ps() : 0;
}

void rtl_stop_run()
{
    if (g_host) g_host->stop_run();
}

void rtl_note(const std::string& text)
{
    if (g_host) g_host->note(text.c_str());
}

}  // namespace uetsim
