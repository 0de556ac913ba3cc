// Run control: how a run stops early when asked to (SIGINT from Ctrl-C, SIGTERM from a batch
// system at its time limit). The kernel cannot be touched from a signal handler, so the handler
// only sets a flag and the kernel runs in short slices of simulated time with the flag checked
// between them; slicing runs the same events in the same order, so records do not change.
#pragma once

#include <functional>

namespace uetsim {

// Installs the SIGINT/SIGTERM handlers. A first signal asks to stop; a third one ends the process
// at once. `restart_syscalls`: whether interrupted system calls resume (SA_RESTART); a process
// that waits for children wants them to return EINTR so that it sees the signal.
void install_stop_handlers(bool restart_syscalls = true);

// The signal that asked to stop (SIGINT or SIGTERM), 0 while none did.
int stop_signal();

// The exit status of a process stopped by `signal` (130 for SIGINT, 143 for SIGTERM).
inline int exit_status_for_signal(int signal)
{
    return 128 + signal;
}

// The slice of simulated time between two looks at the stop flag: the TLM-2.0 global quantum
// (tlm::tlm_global_quantum, Simulation.Quantum), this when none is set. It bounds how far a run
// goes past a signal and how far the decoupled model runs ahead of the kernel.
constexpr double default_quantum_s = 10e-6;

// Runs the kernel up to the absolute simulated time `stop_time_s` (or until sc_stop) in slices
// of the global quantum, calling `between_slices` (if set) after each slice: things that watch
// the run from outside (the progress line) look there, never through a notification of their
// own; it returns true to end the run there, at the slice's end (the stall watch). Each slice
// is the model scheduler's horizon in the decoupled time base. Returns the
// signal that interrupted the run, 0 when it ran to its end.
int run_until(double stop_time_s, const std::function<bool()>& between_slices = {});

}  // namespace uetsim
