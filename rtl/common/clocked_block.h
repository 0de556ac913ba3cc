// clocked_block<VModel>: one Verilated block (C++ mode), stepped synchronously by its wrapper.
//
// It owns the block's VerilatedContext (one per instance, RTL_DESIGN D1) and the model. The
// wrapper writes the input pins (pins().req_x = ...), steps, and reads the outputs, all inside
// the calling model wake-up at the model's time (sim_now_ps): no wake-ups, no delta cycles,
// so `rtl` mode is exactly as timed as `model` mode (docs/rtl.md).
//
//   clocked_block<Vadder> blk("host3.adder");  // clk/rst_n blocks: reset for 2 cycles here
//   blk.pins().req_a = 5; blk.tick();             // one clock cycle
//   blk.settle();                                 // eval only (combinational blocks: flow_hash)
//
// A block with a `clk` pin is clocked: tick() is settle, clk 0->1 (eval: the rising edge),
// clk 1->0 (eval). A block with `rst_n` (active low) is reset at construction and by reset():
// rst_n low for 2 cycles, then high (D2). Blocks without clk have only settle().
//
// Waves of the block itself (its internals too): open_fst(path). FST time is 1 ps; each eval
// after a tick is dumped at the simulated time in ps, or 1 ps after the previous dump if that is
// later, so the cycles of a request stepped at one simulated time appear one after another.
// The run's own waveform gets the block's pins through rtl_pin_set (valid_ready.h) instead.
//
// Include order: this header includes Verilator's headers, so include it (after the V*.h)
// before anything that includes <systemc> (rtl/verilated_includes.h says why).
#pragma once

// clang-format off
#include "rtl/verilated_includes.h"
// clang-format on

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "rtl/common/rtl_kernel.h"

namespace uetsim {

namespace detail {
template <class V, class = void>
struct has_clk : std::false_type
{
};
template <class V>
struct has_clk<V, std::void_t<decltype(std::declval<V&>().clk)>> : std::true_type
{
};
template <class V, class = void>
struct has_rst_n : std::false_type
{
};
template <class V>
struct has_rst_n<V, std::void_t<decltype(std::declval<V&>().rst_n)>> : std::true_type
{
};
}  // namespace detail

template <class VModel>
class clocked_block
{
public:
    static constexpr bool clocked = detail::has_clk<VModel>::value;
    static constexpr bool resettable = detail::has_rst_n<VModel>::value;
    static_assert(!resettable || clocked, "a block with rst_n needs clk");

    // `name` becomes the model's hierarchy name (Verilator messages, the FST's scope).
    explicit clocked_block(const std::string& name)
        : m_name(name), m_ctx(std::make_unique<VerilatedContext>())
    {
        // Set before the model is built: tracing can then be switched on later (open_fst).
        m_ctx->traceEverOn(true);
        m_ctx->time(rtl_sim_time_ps());
        m_model = std::make_unique<VModel>(m_ctx.get(), name.c_str());
        if constexpr (clocked) m_model->clk = 0;
        if constexpr (resettable)
            reset();
        else
            settle();
    }

    ~clocked_block()
    {
        m_model->final();  // runs `final` blocks
        if (m_fst) m_fst->close();
    }

    clocked_block(const clocked_block&) = delete;
    clocked_block& operator=(const clocked_block&) = delete;

    VModel& pins() { return *m_model; }
    const VModel& pins() const { return *m_model; }
    const std::string& name() const { return m_name; }
    VerilatedContext& context() { return *m_ctx; }

    // Eval only: combinational outputs follow the inputs written since.
    void settle()
    {
        m_ctx->time(rtl_sim_time_ps());
        m_model->eval();
        dump();
    }

    // One clock cycle: the inputs settle, the rising edge, the falling edge.
    void tick()
    {
        static_assert(clocked, "tick() needs a clk pin");
        settle();
        m_model->clk = 1;
        m_model->eval();
        dump();
        m_model->clk = 0;
        m_model->eval();
        dump();
        ++m_cycles;
    }

    // rst_n low for 2 cycles, then high (settled).
    void reset()
    {
        static_assert(resettable, "reset() needs an rst_n pin");
        m_model->rst_n = 0;
        tick();
        tick();
        m_model->rst_n = 1;
        settle();
    }

    uint64_t cycles() const { return m_cycles; }  // tick()s since construction (reset included)

    // Dump the block (ports and internals, `levels` deep) to an FST file from now on.
    void open_fst(const std::string& path, int levels = 99)
    {
        if (m_fst) m_fst->close();
        m_fst = std::make_unique<VerilatedFstC>();
        m_model->trace(m_fst.get(), levels);
        m_fst->open(path.c_str());
        dump();
    }
    void close_fst()
    {
        if (m_fst) m_fst->close();
        m_fst.reset();
    }

private:
    void dump()
    {
        if (!m_fst) return;
        const uint64_t now = rtl_sim_time_ps();
        m_fst_ps = (m_dumped && now <= m_fst_ps) ? m_fst_ps + 1 : now;
        m_dumped = true;
        m_fst->dump(m_fst_ps);
    }

    std::string m_name;
    std::unique_ptr<VerilatedContext> m_ctx;
    std::unique_ptr<VModel> m_model;
    std::unique_ptr<VerilatedFstC> m_fst;
    uint64_t m_cycles = 0;
    uint64_t m_fst_ps = 0;
    bool m_dumped = false;
};

}  // namespace uetsim
