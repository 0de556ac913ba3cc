// entropy_lb_block<V>: one Verilated entropy_lb (any variant V with its ports: the product
// build, the test sizes, a mutant) as an entropy_lb_port, on rtl/common's clocked_block and
// valid_ready: drive the req_* pins, the handshake (accept, step until rsp_valid), sample the
// rsp_* pins (RTL_DESIGN D1/D2). Include after the V*.h and before <systemc> (clocked_block.h
// includes Verilator's headers).
#pragma once

#include <cstdint>
#include <string>

#include "rtl/common/clocked_block.h"
#include "rtl/common/valid_ready.h"
#include "rtl/entropy_lb/entropy_lb_rtl.h"

namespace uetsim {

template <class V>
class entropy_lb_block final : public entropy_lb_port
{
public:
    explicit entropy_lb_block(const std::string& name) : m_block(name), m_port(m_block)
    {
        V& p = m_block.pins();
        m_port.bind(p.req_valid, p.req_ready, p.rsp_valid);
        m_port.pin("req_op", 2, p.req_op);
        m_port.pin("req_slot", 16, p.req_slot);
        m_port.pin("req_cfg_type", 2, p.req_cfg_type);
        m_port.pin("req_cfg_base", 16, p.req_cfg_base);
        m_port.pin("req_cfg_mask_bits", 4, p.req_cfg_mask_bits);
        m_port.pin("req_cfg_cache_bits", 5, p.req_cfg_cache_bits);
        m_port.pin("req_cfg_value_set_size", 17, p.req_cfg_value_set_size);
        m_port.pin("req_cfg_timeout_ps", 64, p.req_cfg_timeout_ps);
        m_port.pin("req_cfg_window", 32, p.req_cfg_window);
        m_port.pin("req_cfg_seed", 32, p.req_cfg_seed);
        m_port.pin("req_entropy", 16, p.req_entropy);
        m_port.pin("req_feedback", 3, p.req_feedback);
        m_port.pin("req_now_ps", 64, p.req_now_ps);
        m_port.pin("rsp_op", 2, p.rsp_op);
        m_port.pin("rsp_slot", 16, p.rsp_slot);
        m_port.pin("rsp_error", 1, p.rsp_error);
        m_port.pin("rsp_value", 16, p.rsp_value);
        m_port.pin("rsp_choice", 3, p.rsp_choice);
        m_port.pin("rsp_freezing", 1, p.rsp_freezing);
        m_port.pin("rsp_in_window", 1, p.rsp_in_window);
        m_port.pin("rsp_available", 17, p.rsp_available);
        m_port.pin("rsp_held", 17, p.rsp_held);
        m_port.pin("rsp_window_sent", 32, p.rsp_window_sent);
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
