// One Verilated entropy_lb (any variant V: the product build, the test sizes, a mutant) behind
// the narrow interface the engine uses: one request in, its response out, the clock stepped
// in between (drive, step, sample; RTL_DESIGN.md D1). Include V's header before this one.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "rtl/entropy_lb/entropy_lb_pins.h"

namespace uetsim {

class entropy_lb_port
{
public:
    virtual ~entropy_lb_port() = default;
    virtual entropy_lb_response transact(const entropy_lb_request& r) = 0;
    virtual entropy_lb_limits limits() const = 0;
    virtual uint32_t latency_cycles() const = 0;
    virtual uint64_t cycles() const = 0;
};

template <class V>
class entropy_lb_block : public entropy_lb_port
{
public:
    entropy_lb_block() : m_vm(std::make_unique<VerilatedContext>())
    {
        m_dut = std::make_unique<V>(m_vm.get(), "entropy_lb");
        // Reset: held low for 2 cycles (D2).
        m_dut->req_valid = 0;
        m_dut->rst_n = 0;
        tick();
        tick();
        m_dut->rst_n = 1;
    }
    ~entropy_lb_block() override { m_dut->final(); }

    entropy_lb_response transact(const entropy_lb_request& r) override
    {
        // Drive, then the accepting edge (req_ready is high out of reset).
        entropy_lb_drive(*m_dut, r);
        m_dut->req_valid = 1;
        m_dut->clk = 0;
        m_dut->eval();
        if (!m_dut->req_ready) throw std::logic_error("entropy_lb: not ready");
        m_dut->clk = 1;
        m_dut->eval();
        ++m_cycles;
        m_dut->req_valid = 0;
        // Step: the response comes exactly LATENCY cycles later; sample it.
        const uint32_t latency = m_dut->latency;
        for (uint32_t i = 0; i < latency; ++i) tick();
        if (!m_dut->rsp_valid)
            throw std::logic_error("entropy_lb: no response " + std::to_string(latency) +
                                   " cycles after " + describe(r));
        return entropy_lb_sample(*m_dut);
    }
    entropy_lb_limits limits() const override { return entropy_lb_limits_of(*m_dut); }
    uint32_t latency_cycles() const override { return m_dut->latency; }
    uint64_t cycles() const override { return m_cycles; }

    V& dut() { return *m_dut; }

private:
    void tick()
    {
        m_dut->clk = 0;
        m_dut->eval();
        m_dut->clk = 1;
        m_dut->eval();
        ++m_cycles;
    }

    std::unique_ptr<VerilatedContext> m_vm;
    std::unique_ptr<V> m_dut;
    uint64_t m_cycles = 0;
};

}  // namespace uetsim
