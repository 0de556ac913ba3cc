// entropy_lb_rtl: the NIC's entropy engine (hw/nic/uet/entropy/entropy_engine.h) on the
// Verilated entropy_lb block (rtl/entropy_lb/entropy_lb.sv), C++ mode (RTL_DESIGN.md D1).
//
// Every open, next, feedback and close goes to the block as one request: the engine drives the
// pins, steps the clock until the response (LATENCY cycles) and samples it, inside the calling
// process at the current simulated time. The base class (the C++ model) runs as well, so the
// observers keep reading the model's state (entropy_engine::policy):
//  - both: the NIC gets the model's answers; every response of the block (value and state
//    summary) is compared with the model's, and the first difference is a mismatch report;
//  - rtl:  the NIC gets the block's values, ready LATENCY NIC cycles after the request.
//
// No Verilator header here (the block is held through a pointer).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "hw/nic/uet/entropy/entropy_engine.h"
#include "rtl/common/rtl_mode.h"
#include "rtl/entropy_lb/entropy_lb_pins.h"

namespace uetsim {

class entropy_lb_port;

// The first request whose responses differ: what the mismatch report prints.
struct entropy_lb_mismatch
{
    uint64_t time_ps = 0;
    std::string component;
    uint64_t request_index = 0;
    std::string request, model, rtl;
    std::string text() const;
};

class entropy_lb_rtl : public entropy_engine
{
public:
    // `mode` is rtl or both; `nic_cycle_ps` the NIC's clock period (the block's latency in
    // time). Throws std::invalid_argument naming UetNic.EntropyContexts when `contexts` is
    // beyond the block's CONTEXTS.
    entropy_lb_rtl(std::string component, uint32_t contexts, rtl_mode mode, uint64_t nic_cycle_ps);
    // The same on another Verilated variant (entropy_lb_block<V>: tests, mutants).
    entropy_lb_rtl(std::string component, uint32_t contexts, rtl_mode mode, uint64_t nic_cycle_ps,
                   std::unique_ptr<entropy_lb_port> block);
    ~entropy_lb_rtl() override;

    entropy_answer next(uint32_t slot, uint64_t now_ps) override;
    void feedback(uint32_t slot, uint16_t entropy, path_feedback f, uint64_t now_ps) override;

    rtl_mode mode() const { return m_mode; }
    uint32_t latency_cycles() const { return m_latency; }
    entropy_lb_limits limits() const { return m_limits; }
    uint64_t requests() const { return m_requests; }  // sent to the block
    uint64_t checked() const { return m_checked; }    // of which compared (both)
    uint64_t cycles() const;                          // clock cycles stepped
    // The last request driven and the response sampled (waveforms, tests).
    const entropy_lb_request& last_request() const { return m_last_request; }
    const entropy_lb_response& last_response() const { return m_last_response; }

    // Called at the first mismatch (both); by default throws std::runtime_error with the
    // report. Later requests are not compared once one differed.
    void set_mismatch_handler(std::function<void(const entropy_lb_mismatch&)> h)
    {
        m_on_mismatch = std::move(h);
    }

protected:
    void on_open(uint32_t slot, const entropy_config& cfg, uint64_t seed) override;
    void on_close(uint32_t slot) override;

private:
    entropy_lb_response transact(const entropy_lb_request& r);
    void compare(const entropy_lb_request& r, const entropy_lb_response& model,
                 const entropy_lb_response& rtl);

    std::string m_component;
    rtl_mode m_mode;
    uint64_t m_nic_cycle_ps;
    std::unique_ptr<entropy_lb_port> m_block;
    uint32_t m_latency = 0;
    entropy_lb_limits m_limits;
    uint64_t m_requests = 0, m_checked = 0;
    bool m_diverged = false;
    entropy_lb_request m_last_request;
    entropy_lb_response m_last_response;
    std::function<void(const entropy_lb_mismatch&)> m_on_mismatch;
};

}  // namespace uetsim
