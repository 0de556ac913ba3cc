// rtl_kernel.h in uetsim: the model clock and the SystemC kernel.
#include "rtl/common/rtl_kernel.h"

#include <systemc>

#include "hw/kernel/sim_clock.h"

namespace uetsim {

uint64_t rtl_sim_time_ps()
{
    return sim_now_ps();
}

void rtl_stop_run()
{
    // Before sc_start (e.g. a fatal at model construction) there is nothing to stop; calling
    // sc_stop() then would only make the later sc_start fail with E546.
    stop_simulation();
}

void rtl_note(const std::string& text)
{
    SC_REPORT_INFO("/uetsim/rtl/verilator", text.c_str());
}

}  // namespace uetsim
