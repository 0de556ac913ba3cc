// entropy_lb_block<V>: one Verilated entropy_lb (any variant V with its ports: the product
// build, the test sizes, a mutant) as an entropy_lb_port, on rtl/common's clocked_block and
// valid_ready: drive the req_* pins, the handshake (accept, step until rsp_valid), sample the
// rsp_* pins (RTL_DESIGN D1/D2). Its pins are the contract's (entropy_lb_contract.h). Include after
// the V*.h and before <systemc> (clocked_block.h includes Verilator's headers).
#pragma once

#include <cstdint>
#include <string>

#include "rtl/common/clocked_block.h"
#include "rtl/common/valid_ready.h"
#include "rtl/entropy_lb/entropy_lb_contract.h"
#include "rtl/entropy_lb/entropy_lb_port.h"
#include "rtl/library/rtl_contract.h"

namespace uetsim {

template <class V>
class entropy_lb_block final : public entropy_lb_port
{
public:
    explicit entropy_lb_block(const std::string& name) : m_block(name), m_port(m_block)
    {
        V& p = m_block.pins();
        m_port.bind(p.req_valid, p.req_ready, p.rsp_valid);
        auto add_pin = [this](const char* pin, unsigned width, const auto& port) {
            m_port.pin(pin, width, port);
        };
        UETSIM_ENTROPY_LB_PINS(UETSIM_RTL_CONTRACT_PIN)
    }

    entropy_lb_response transact(const entropy_lb_request& r) override
    {
        entropy_lb_drive(m_block.pins(), r);
        const uint32_t latency = m_port.transact();
        if (latency != m_block.pins().latency)
            rtl_protocol_error(m_block.name() + ": response after " + std::to_string(latency) +
                               " cycles, the block's latency is " +
                               std::to_string(m_block.pins().latency) + " (" + describe(r) + ")");
        return entropy_lb_sample(m_block.pins());
    }
    entropy_lb_limits limits() const override { return entropy_lb_limits_of(m_block.pins()); }
    uint32_t latency_cycles() const override { return m_block.pins().latency; }
    uint64_t cycles() const override { return m_block.cycles(); }
    rtl_pin_set& pins() override { return m_port.pins(); }
    void open_fst(const std::string& path) override { m_block.open_fst(path); }

    clocked_block<V>& block() { return m_block; }

private:
    clocked_block<V> m_block;
    valid_ready<V> m_port;
};

}  // namespace uetsim
