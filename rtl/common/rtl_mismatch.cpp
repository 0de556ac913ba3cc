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

// "7 ns (7000 ps)", or "3021473 ps" when SystemC prints it in ps anyway.
std::string time_text(uint64_t ps)
{
    const std::string t = sc_core::sc_time::from_value(ps).to_string();
    const std::string exact = std::to_string(ps) + " ps";
    return t == exact ? t : t + " (" + exact + ")";
}

}  // namespace

std::string rtl_mismatch::text() const
{
    return "rtl mismatch: " + component + " at " + time_text(time_ps) +
           "\n  request index: " + std::to_string(request_index) + "\n  request: " + request +
           "\n  model: " + model + "\n  rtl:   " + rtl;
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
    throw std::runtime_error(m.text());
}

}  // namespace uetsim
