// The valid/ready request/response handshake of a clocked block (RTL_DESIGN D2) and the named
// pins the run's waveform shows (rtl_pin / rtl_pin_set, from rtl_pins.h: {name, width, pointer}
// with trace(probe); the bundle's pins() holds req_valid, req_ready, rsp_valid and the payload
// pins added with pin()).
//
// valid_ready<VModel>: bound to the model's req_valid / req_ready / rsp_valid pins.
//   send()           holds req_valid high until the block accepts (req_ready high at a rising
//                    edge); at most max_cycles() cycles of waiting, then a protocol error
//   await_response() ticks until rsp_valid, at most max_cycles(); returns the latency in
//                    cycles, counting the accepting cycle as 1 (a one-register pipeline: 1)
//   transact()       send(), await_response(), then the pin set's changed()
// The wrapper writes the req_<field> pins before send() and reads rsp_<field> after the
// response. One request is in flight at a time: D1 steps each request to its answer inside the
// call, so a pipelined block's throughput does not matter for the simulation's timing (the
// engine reports ready_ps from the block's latency instead).
//
// Include order: includes clocked_block.h (Verilator's headers).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "rtl/common/clocked_block.h"
#include "rtl/common/rtl_pins.h"

namespace uetsim {

template <class VModel>
class valid_ready
{
public:
    explicit valid_ready(clocked_block<VModel>& block, uint32_t max_cycles = 256)
        : m_block(block), m_max_cycles(max_cycles)
    {
    }

    // The handshake pins of the model (Verilator's 1-bit ports are CData).
    void bind(CData& req_valid, const CData& req_ready, const CData& rsp_valid)
    {
        m_req_valid = &req_valid;
        m_req_ready = &req_ready;
        m_rsp_valid = &rsp_valid;
        m_pins.add("req_valid", 1, req_valid);
        m_pins.add("req_ready", 1, req_ready);
        m_pins.add("rsp_valid", 1, rsp_valid);
    }

    // The payload pins to trace (req_<field>, rsp_<field>), after bind().
    template <class T>
    void pin(std::string name, unsigned width, const T& port)
    {
        m_pins.add(std::move(name), width, port);
    }
    rtl_pin_set& pins() { return m_pins; }
    const rtl_pin_set& pins() const { return m_pins; }

    uint32_t max_cycles() const { return m_max_cycles; }

    // Returns the cycles spent waiting for req_ready before the accepting cycle.
    uint32_t send()
    {
        *m_req_valid = 1;
        uint32_t waited = 0;
        for (;;) {
            m_block.settle();
            if (*m_req_ready) break;
            if (waited == m_max_cycles) fail("req_ready stayed low");
            m_block.tick();
            ++waited;
        }
        m_block.tick();  // the accepting rising edge
        *m_req_valid = 0;
        m_block.settle();
        ++m_sent;
        return waited;
    }

    // Returns the response's latency in cycles (the accepting cycle counts as 1).
    uint32_t await_response()
    {
        uint32_t latency = 1;
        while (!*m_rsp_valid) {
            if (latency == m_max_cycles) fail("rsp_valid stayed low");
            m_block.tick();
            ++latency;
        }
        return latency;
    }

    uint32_t transact()
    {
        send();
        const uint32_t latency = await_response();
        m_pins.changed();
        return latency;
    }

    uint64_t requests() const { return m_sent; }

private:
    [[noreturn]] void fail(const char* what)
    {
        rtl_protocol_error(m_block.name() + ": " + what + " for " + std::to_string(m_max_cycles) +
                           " cycles (request " + std::to_string(m_sent) + ")");
    }

    clocked_block<VModel>& m_block;
    uint32_t m_max_cycles;
    CData* m_req_valid = nullptr;
    const CData* m_req_ready = nullptr;
    const CData* m_rsp_valid = nullptr;
    rtl_pin_set m_pins;
    uint64_t m_sent = 0;
};

}  // namespace uetsim
