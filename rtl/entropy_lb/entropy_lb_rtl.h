// entropy_lb_rtl: the NIC's entropy engine (hw/nic/uet/entropy/entropy_engine.h) on the
// Verilated entropy_lb block (rtl/entropy_lb/entropy_lb.sv), C++ mode (RTL_DESIGN.md D1).
//
// Every open, next, feedback and close goes to the block as one request: drive the pins, step
// the clock until the response (LATENCY cycles) and sample it, inside the calling process at
// the current simulated time (entropy_lb_block, on rtl/common). The base class (the C++ model)
// runs as well, in both modes, because the observers read the model's state
// (entropy_engine::policy: records, uet-monitor):
//  - both: the NIC gets the model's answers; every response of the block (value and state
//    summary) goes through a lockstep_checker against the model's, so a difference is reported
//    (rtl_mismatch.h's handler) at the request that caused it;
//  - rtl:  the NIC gets the block's values, ready LATENCY NIC cycles after the request.
//
// No Verilator header here (the block is held through entropy_lb_port, entropy_lb_port.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hw/nic/uet/entropy/entropy_engine.h"
#include "rtl/common/lockstep_checker.h"
#include "rtl/common/rtl_mode.h"
#include "rtl/common/rtl_pins.h"
#include "rtl/entropy_lb/entropy_lb_pins.h"
#include "rtl/entropy_lb/entropy_lb_port.h"

namespace uetsim {

// The built-in block's latency in NIC cycles: entropy_lb.sv's LATENCY, read on its `latency`
// pin (entropy_lb_rtl_test checks the two agree). The RTL block registry exports it; it is what
// UetNic.EntropyLookupCycles: auto resolves to (docs/rtl.md, "Latency").
inline constexpr uint32_t entropy_lb_latency_cycles = 2;

class entropy_lb_rtl : public entropy_engine
{
public:
    // `component` names the block in reports (e.g. "host3.entropy_lb"); `mode` is rtl or both;
    // `nic_cycle_ps` the NIC's clock period (the block's latency in time). Throws
    // std::invalid_argument naming UetNic.EntropyContexts when `contexts` is beyond the block's
    // CONTEXTS.
    entropy_lb_rtl(std::string component, uint32_t contexts, rtl_mode mode, uint64_t nic_cycle_ps);
    // The same on another Verilated variant (entropy_lb_block<V>: tests, mutants).
    entropy_lb_rtl(std::string component, uint32_t contexts, rtl_mode mode, uint64_t nic_cycle_ps,
                   std::unique_ptr<entropy_lb_port> block);
    ~entropy_lb_rtl() override;

    entropy_answer next(uint32_t slot, uint64_t now_ps) override;
    void feedback(uint32_t slot, uint16_t entropy, path_feedback f, uint64_t now_ps) override;

    rtl_mode mode() const { return m_mode; }
    const std::string& component() const { return m_component; }
    uint32_t latency_cycles() const { return m_latency; }
    entropy_lb_limits limits() const { return m_limits; }
    uint64_t requests() const { return m_requests; }                // sent to the block
    uint64_t checked() const { return m_checker.checked(); }        // of which compared (both)
    uint64_t mismatches() const { return m_checker.mismatches(); }  // of which differed
    uint64_t cycles() const;                                        // clock cycles stepped
    // The block's pins (the run's waveform: pins().trace(probe)) and its own FST.
    rtl_pin_set& pins();
    void open_fst(const std::string& path);

protected:
    void on_open(uint32_t slot, const entropy_config& cfg, uint64_t seed) override;
    void on_close(uint32_t slot) override;

private:
    void exchange(const entropy_lb_request& r, const entropy_lb_response& model,
                  entropy_lb_response* rtl_out = nullptr);

    std::string m_component;
    rtl_mode m_mode;
    uint64_t m_nic_cycle_ps;
    std::unique_ptr<entropy_lb_port> m_block;
    uint32_t m_latency = 0;
    entropy_lb_limits m_limits;
    uint64_t m_requests = 0;
    lockstep_checker<entropy_lb_request, entropy_lb_response> m_checker;
};

}  // namespace uetsim
