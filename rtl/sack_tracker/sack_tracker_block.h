// sack_tracker_block<V>: a Verilated SACK tracker (Vsack_tracker, or a test-only mutant with the
// same ports) as an rtl_sack_tracker_core, on rtl/common's clocked_block and valid_ready; its
// pins are the contract's (sack_tracker_contract.h). Include
// after the V*.h and before <systemc> (clocked_block.h includes Verilator's headers).
#pragma once

#include "rtl/common/valid_ready.h"
#include "rtl/library/rtl_contract.h"
#include "rtl/sack_tracker/sack_tracker_contract.h"
#include "rtl/sack_tracker/sack_tracker_core.h"

namespace uetsim {

template <class V>
class sack_tracker_block final : public rtl_sack_tracker_core
{
public:
    explicit sack_tracker_block(const std::string& name) : m_block(name), m_port(m_block, 16)
    {
        V& p = m_block.pins();
        m_port.bind(p.req_valid, p.req_ready, p.rsp_valid);
        auto add_pin = [this](const char* pin, unsigned width, const auto& port) {
            m_port.pin(pin, width, port);
        };
        UETSIM_SACK_TRACKER_PINS(UETSIM_RTL_CONTRACT_PIN)
    }

    sack_tracker_response transact(const sack_tracker_request& r) override
    {
        V& p = m_block.pins();
        p.req_op = static_cast<uint8_t>(r.kind);
        p.req_slot = static_cast<uint16_t>(r.slot);
        p.req_psn = r.psn;
        const uint32_t cycles = m_port.transact();
        if (cycles != p.latency)
            rtl_protocol_error(m_block.name() + ": answered after " + std::to_string(cycles) +
                               " cycles, its latency pin says " + std::to_string(p.latency));
        sack_tracker_response a;
        a.arrival = p.rsp_arrival;
        a.cack = p.rsp_cack;
        a.sack_base = p.rsp_sack_base;
        a.sack_bitmap = p.rsp_sack_bitmap;
        a.held = p.rsp_held;
        a.span = p.rsp_span;
        a.out_of_window = p.rsp_out_of_window;
        a.slot_error = p.rsp_slot_error;
        return a;
    }

    uint32_t contexts() const override { return m_block.pins().contexts; }
    uint32_t window() const override { return m_block.pins().window; }
    uint32_t latency_cycles() const override { return m_block.pins().latency; }
    rtl_pin_set& pins() override { return m_port.pins(); }
    void open_fst(const std::string& path) override { m_block.open_fst(path); }
    clocked_block<V>& block() { return m_block; }

private:
    clocked_block<V> m_block;
    valid_ready<V> m_port;
};

}  // namespace uetsim
