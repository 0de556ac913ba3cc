#include "rtl/common/rtl_mismatch.h"

#include <systemc>

#include <stdexcept>
#include <utility>

namespace uetsim {

namespace {

rtl_mismatch_handler& handler()
{
    static rtl_mismatch_handler h;
    return h;
}

std::string time_text(uint64_t ps)
{
    return sc_core::sc_time::from_value(ps).to_string() + " (" + std::to_string(ps) + " ps)";
}

}  // namespace

std::string rtl_mismatch::text() const
{
    return "rtl mismatch: " + component + " at " + time_text(time_ps) +
           "\n  request index: " + std::to_string(request_index) + "\n  request: " + request +
           "\n  model: " + model + "\n  rtl:   " + rtl;
}

uint64_t rtl_sim_time_ps()
{
    return sc_core::sc_time_stamp().value();
}

void rtl_protocol_error(const std::string& what)
{
    SC_REPORT_ERROR("/uetsim/rtl/protocol", what.c_str());
    throw std::runtime_error("rtl protocol error: " + what);
}

void set_rtl_mismatch_handler(rtl_mismatch_handler h)
{
    handler() = std::move(h);
}

void report_rtl_mismatch(const rtl_mismatch& m)
{
    if (handler()) {
        handler()(m);
        return;
    }
    SC_REPORT_ERROR("/uetsim/rtl/mismatch", m.text().c_str());
}

}  // namespace uetsim
