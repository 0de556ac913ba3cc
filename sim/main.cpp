// Entry point. libsystemc's own main() prints the SystemC banner on stderr before it calls
// sc_main, so we provide main() (STYLE.md P4, the VCML way): stderr is for our one-line
// messages and the progress line. sc_main is still what libsystemc expects to run.
#include <cstdlib>
#include <systemc>

#include "hw/kernel/sanitizer_stack.h"
#include "sim/cli.h"
#include "sim/huge_pages.h"

int sc_main(int argc, char* argv[])
{
    const int rc = uetsim::run_cli(argc, argv);
    uetsim::sanitizer_restore_thread_stack();  // LeakSanitizer's scan at exit (see there)
    return rc;
}

int main(int argc, char* argv[])
{
    uetsim::use_huge_pages(argv);  // may start the program again, once (huge_pages.h)
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
