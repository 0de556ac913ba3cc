// The SACK tracker RTL block (sack_tracker.sv) as the NIC's sack_tracker engine
// (hw/nic/uet/sack_tracker.h), for Rtl.SackTracker rtl|both (docs/rtl.md, section sack_tracker).
//
//   sack_tracker_rtl t("host3.sack_tracker", contexts, rtl_mode::both);
//   auto slot = t.open(first_psn);   // the base class allocates; the RTL context is opened too
//   t.on_data(*slot, psn);           // model and RTL: one request each
//
//   rtl   the NIC gets the RTL's arrival, CACK and SACK fields
//   both  the NIC gets the model's (the reference); every RTL answer, state summary included,
//         is compared with the model's (lockstep_checker): the first mismatch goes to the
//         mismatch handler with the request and both answers
// In both modes the base class's pdc_receiver per slot keeps running: receiver(slot) is what the
// NIC's counters and observers read (out-of-order held, duplicates).
//
// Each call is one request stepped to its answer inside the call (C++-mode Verilation, RTL_DESIGN
// D1): drive the pins, tick until rsp_valid (latency_cycles()), sample. A request the RTL cannot
// serve stops the run with rtl_protocol_error naming the limit: a PSN WINDOW or more beyond the
// expected PSN (the RTL's bitmap; the model's is unbounded), or a slot error.
//
// This header includes no Verilator header (the block sits behind rtl_sack_tracker_core), so the
// testbench can include it anywhere. A different Verilated tracker (the tests' mutants) comes in
// as a core built by sack_tracker_block<V> (sack_tracker_block.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hw/nic/uet/sack_tracker.h"
#include "rtl/sack_tracker/sack_tracker_core.h"
#include "rtl/common/lockstep_checker.h"
#include "rtl/common/rtl_mode.h"
#include "rtl/common/rtl_pins.h"

namespace uetsim {

// The built-in block's latency in NIC cycles: sack_tracker.sv's LATENCY, read on its `latency`
// pin (sack_tracker_rtl_test checks the two agree). The RTL block registry exports it; it is what
// UetNic.SackUpdateCycles: auto resolves to (docs/rtl.md, "Latency").
inline constexpr uint32_t sack_tracker_latency_cycles = 4;

// The product block, Vsack_tracker (CONTEXTS 4096, WINDOW 4096).
std::unique_ptr<rtl_sack_tracker_core> make_rtl_sack_tracker_core(const std::string& name);

class sack_tracker_rtl final : public sack_tracker
{
public:
    // `component` names the block in reports ("host3.sack_tracker"); mode rtl or both. Null core:
    // the product block. Throws std::invalid_argument naming UetNic.SackContexts when `contexts`
    // is above the block's CONTEXTS.
    sack_tracker_rtl(const std::string& component, uint32_t contexts, rtl_mode mode,
                     std::unique_ptr<rtl_sack_tracker_core> core = nullptr);
    ~sack_tracker_rtl() override;

    sack_arrival on_data(uint32_t slot, uint32_t psn) override;
    sack_ack_fields next_ack(uint32_t slot) override;

    rtl_mode mode() const { return m_mode; }
    const std::string& component() const { return m_checker.component(); }
    uint64_t requests() const { return m_requests; }          // through the RTL
    uint64_t checked() const { return m_checker.checked(); }  // both: compared
    uint64_t mismatches() const { return m_checker.mismatches(); }
    uint32_t latency_cycles() const { return m_core->latency_cycles(); }
    uint32_t window() const { return m_core->window(); }
    // The RTL's answer to the latest request (tests, the waveform).
    const sack_tracker_response& last_rtl_response() const { return m_last; }

    rtl_pin_set& pins() { return m_core->pins(); }
    void open_fst(const std::string& path) { m_core->open_fst(path); }

    // The product block's CONTEXTS: UetNic.SackContexts may not exceed it.
    static constexpr uint32_t max_contexts = 4096;

protected:
    void on_open(uint32_t slot, uint32_t first_psn) override;
    void on_close(uint32_t slot) override;

private:
    // The model's answer with the state summary of `slot` (after the request).
    sack_tracker_response model_summary(uint32_t slot) const;
    // Steps the RTL; stops the run if it cannot serve the request (`expected_before`: the
    // slot's expected PSN before it, for the message); checks it in both mode.
    const sack_tracker_response& run(const sack_tracker_request& r,
                                     const sack_tracker_response& model, uint32_t expected_before);

    rtl_mode m_mode;
    std::unique_ptr<rtl_sack_tracker_core> m_core;
    lockstep_checker<sack_tracker_request, sack_tracker_response> m_checker;
    sack_tracker_response m_last;
    uint64_t m_requests = 0;
};

}  // namespace uetsim
