#include "testbench/run/run_control.h"

#include <csignal>
#include <cstring>

#include <systemc>
#include <tlm>

#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
volatile std::sig_atomic_t g_signals_seen = 0;

extern "C" void on_stop_signal(int sig)
{
    if (g_stop_signal == 0) g_stop_signal = sig;
    // A batch system and a terminal may each deliver one; a third means "now".
    if (++g_signals_seen >= 3) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
    }
}

}  // namespace

void install_stop_handlers(bool restart_syscalls)
{
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = restart_syscalls ? SA_RESTART : 0;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal()
{
    return g_stop_signal;
}

int run_until(double stop_time_s, const std::function<bool()>& between_slices)
{
    using namespace sc_core;
    const sc_time stop = seconds(stop_time_s);
    const sc_time quantum = tlm::tlm_global_quantum::instance().get();
    const sc_time slice = quantum != SC_ZERO_TIME ? quantum : seconds(default_quantum_s);
    // The first slice always runs: it completes elaboration (and a zero stop time still runs
    // its one delta cycle, as a single sc_start would). Slices go by the kernel's clock: the
    // model's stays behind it while a part called from the model blocks (outside_call.h).
    do {
        const sc_time before = sc_time_stamp();
        const sc_time left = stop > before ? stop - before : SC_ZERO_TIME;
        const sc_time step = left < slice ? left : slice;
        // The decoupled model may run ahead of the kernel up to the end of this slice
        // (model_scheduler.h); the kernel time base ignores the horizon.
        model_scheduler::instance().set_horizon_ps(before.value() + step.value());
        sc_start(step);
        if (sc_get_status() == SC_STOPPED) break;       // sc_stop: the traffic is done
        if (sc_time_stamp() == before) break;           // sc_pause, or a zero stop time
        if (between_slices && between_slices()) break;  // a watcher ended it (StallTimeout)
        if (g_stop_signal && sc_time_stamp() < stop) return g_stop_signal;
    } while (sc_time_stamp() < stop);
    return 0;
}

}  // namespace uetsim
