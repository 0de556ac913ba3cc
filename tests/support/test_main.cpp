// gtest entry point for every test executable. libsystemc provides main() and calls sc_main
// (STYLE.md P4), so sc_main runs the tests. SystemC warnings and errors become test failures.
#include <gtest/gtest.h>

#include <systemc>

#include "hw/kernel/sanitizer_stack.h"

namespace {

void report_to_gtest(const sc_core::sc_report& r, const sc_core::sc_actions& actions)
{
    if (r.get_severity() == sc_core::SC_INFO) return;
    ADD_FAILURE() << "SystemC " << (r.get_severity() == sc_core::SC_WARNING ? "warning" : "error")
                  << " [" << r.get_msg_type() << "]: " << r.get_msg();
    if (r.get_severity() >= sc_core::SC_ERROR) throw r;
}

}  // namespace

int sc_main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    sc_core::sc_report_handler::set_handler(report_to_gtest);
    const int failed = RUN_ALL_TESTS();
    uetsim::sanitizer_restore_thread_stack();  // LeakSanitizer's scan at exit (see there)
    return failed;
}
