// The one way model code calls a part that is not the model's own and may call wait(): a
// user's TLM-2.0 target bound to a host's memory socket, the wrapper of a Verilated block in
// SystemC mode that drives sc_signals and waits for clock edges (docs/time-base.md, "Who may
// call wait()").
//
//   sc_time delay = SC_ZERO_TIME;
//   const uint64_t took_ps = call_outside_model([&] { memory->b_transport(gp, delay); });
//   // completion = the model's time + took_ps + delay (TLM-2.0's loosely timed rule)
//
// Before the call the kernel is brought to the model's local time (the caller waits
// sim_now_ps() - sc_time_stamp(), as tlm_utils::tlm_quantumkeeper::sync does), so the part sees
// sc_time_stamp() == sim_now_ps(). The call may then wait(); the return value is the kernel time
// it took, in ps. The model's clock does not move: the caller adds the returned time to its
// transaction's. While the part blocks, the model (one initiator) is blocked; afterwards the
// wake-ups that fell due meanwhile run first, in their order, at their own times, behind the
// kernel until the model catches up.
//
// The caller must run in an SC_THREAD: model wake-ups do once the run is in the kernel time base
// or model_scheduler::instance().allow_blocking() was called before sc_start. From an SC_METHOD
// (the scheduler's default process) or outside any process it throws std::logic_error saying so.
#pragma once

#include <cstdint>
#include <functional>

namespace uetsim {

uint64_t call_outside_model(const std::function<void()>& call);

}  // namespace uetsim
