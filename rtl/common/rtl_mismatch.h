// The report of a lockstep mismatch (rtl_mode::both) and the process-wide handler that receives
// it. lockstep_checker builds the report; the testbench installs a handler that stops the run
// (sc_stop), prints the report and makes the run exit with code 1 (docs/rtl.md).
//
// Without an installed handler the default throws std::runtime_error with the full report, the
// one error channel of the model (docs/architecture.md, "Errors"): it leaves the kernel as a
// SystemC report, which a test harness turns into a failure.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace uetsim {

struct rtl_mismatch
{
    uint64_t time_ps = 0;        // simulated time of the RTL answer that differed
    std::string component;       // e.g. "leaf0.flow_hash", "host3.entropy_lb"
    uint64_t request_index = 0;  // 0-based: requests of this component checked before it
    std::string request;         // the inputs, as the describe function wrote them
    std::string model;           // the model's answer (the reference)
    std::string rtl;             // the RTL's answer

    // One line per field, "rtl mismatch: <component> at <time>" first.
    std::string text() const;
};

using rtl_mismatch_handler = std::function<void(const rtl_mismatch&)>;

// Replaces the handler for the whole process; an empty function restores the default.
void set_rtl_mismatch_handler(rtl_mismatch_handler h);
// Calls the installed handler (or the default).
void report_rtl_mismatch(const rtl_mismatch& m);

}  // namespace uetsim
