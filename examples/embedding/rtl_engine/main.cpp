// A Verilated block in SystemC mode stands in for the UET NIC's entropy engine on the hosts that
// --engine-hosts names (fnmatch, default host[0-3]): the NIC asks it for every data packet's
// entropy value and tells it every ACK, NACK and time-out, over sc_signal pins on an sc_clock at
// the NIC's clock (docs/embedding.md, "rtl_engine").
//
// Each question leaves the model through uetsim::call_outside_model: the kernel is brought to the
// model's time, the block is driven and clocked, and the answer is ready the kernel time it took
// later, within the EntropyLookup stage's cycles. The C++ model runs beside it (uetsim's records
// read its state) and every response is compared with the model's: the first difference stops
// the run with uetsim's RTL mismatch report (exit code 1). The program prints each block's
// requests per op.
//
//   rtl_engine_example rtl_engine.yaml --out out [--engine-hosts GLOB] [--vcd HOST]
//
// --vcd HOST writes HOST's block pins to <out>/<HOST>-entropy_lb.vcd.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <uetsim/uetsim.h>

#include "entropy_lb_sc.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/outside_call.h"
#include "hw/nic/uet/entropy/entropy_engine.h"
#include "rtl/common/lockstep_checker.h"
#include "testbench/scenario.h"

namespace {

// The NIC's entropy engine, answered by the block: the base class (the C++ model) keeps the
// state uetsim's records and monitor read, and is the reference each response is compared with.
// A difference goes to uetsim's RTL mismatch report, as with Rtl.EntropyLoadBalancer: both: the
// run stops there (exit code 1, manifest status rtl_mismatch) with the request and both answers.
class rtl_entropy_engine : public uetsim::entropy_engine
{
public:
    rtl_entropy_engine(uint32_t contexts, entropy_lb_sc& block)
        : entropy_engine(contexts)
        , m_block(block)
        , m_check(block.name(), describe_request, describe_response)
    {
    }
    uint64_t compared() const { return m_check.checked(); }

    uetsim::entropy_answer next(uint32_t slot, uint64_t now_ps) override
    {
        const uetsim::entropy_answer model = entropy_engine::next(slot, now_ps);
        uetsim::entropy_lb_request r;
        r.op = uetsim::entropy_lb_op::next;
        r.slot = uint16_t(slot);
        r.now_ps = now_ps;
        uetsim::entropy_lb_response rtl;
        const uint64_t took_ps =
            ask(r, uetsim::entropy_lb_model_response(r, &policy(slot), model.value), rtl);
        // The block's value, ready when the block gave it (TLM-2.0's rule: the model's time
        // plus the time the call took).
        return {uint16_t(rtl.value), now_ps + took_ps};
    }

    void feedback(uint32_t slot, uint16_t entropy, uetsim::path_feedback f,
                  uint64_t now_ps) override
    {
        entropy_engine::feedback(slot, entropy, f, now_ps);
        uetsim::entropy_lb_request r;
        r.op = uetsim::entropy_lb_op::feedback;
        r.slot = uint16_t(slot);
        r.entropy = entropy;
        r.feedback = uint8_t(f);
        r.now_ps = now_ps;
        uetsim::entropy_lb_response rtl;
        ask(r, uetsim::entropy_lb_model_response(r, &policy(slot), 0), rtl);
    }

protected:
    void on_open(uint32_t slot, const uetsim::entropy_config& cfg, uint64_t seed) override
    {
        const uetsim::entropy_lb_request r =
            uetsim::entropy_lb_open_request(uint16_t(slot), cfg, seed);
        uetsim::entropy_lb_response rtl;
        ask(r, uetsim::entropy_lb_model_response(r, &model(slot), 0), rtl);
    }

    void on_close(uint32_t slot) override
    {
        uetsim::entropy_lb_request r;
        r.op = uetsim::entropy_lb_op::close;
        r.slot = uint16_t(slot);
        uetsim::entropy_lb_response rtl;
        ask(r, uetsim::entropy_lb_model_response(r, nullptr, 0), rtl);
    }

private:
    // One request through the block's pins, outside the model; the kernel time it took, in ps.
    uint64_t ask(const uetsim::entropy_lb_request& r, const uetsim::entropy_lb_response& model,
                 uetsim::entropy_lb_response& rtl)
    {
        const uint64_t took_ps = uetsim::call_outside_model([&] { rtl = m_block.transact(r); });
        m_check.check(r, model, rtl);
        return took_ps;
    }

    static std::string describe_request(const uetsim::entropy_lb_request& r)
    {
        return uetsim::describe(r);
    }
    static std::string describe_response(const uetsim::entropy_lb_response& r)
    {
        return uetsim::describe(r);
    }

    entropy_lb_sc& m_block;
    uetsim::lockstep_checker<uetsim::entropy_lb_request, uetsim::entropy_lb_response> m_check;
};

// Takes `--name VALUE` out of argv (the rest goes to the session); `fallback` when absent.
std::string take_option(int& argc, char** argv, const char* name, std::string fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0) {
            fallback = argv[i + 1];
            for (int j = i; j + 2 < argc + 1; ++j) argv[j] = argv[j + 2];
            argc -= 2;
            break;
        }
    return fallback;
}

}  // namespace

int sc_main(int argc, char** argv)
{
    const std::string engine_hosts = take_option(argc, argv, "--engine-hosts", "host[0-3]");
    const std::string vcd_host = take_option(argc, argv, "--vcd", "");

    // Declared before the session, so they outlive the NICs that hold engines on them.
    std::unique_ptr<sc_core::sc_clock> clock;
    std::vector<std::unique_ptr<entropy_lb_sc>> blocks;
    std::vector<const rtl_entropy_engine*> engines;

    uetsim::session s(argc, argv);
    s.configure_nics(engine_hosts, [&](const std::string& host, uetsim::nic_config& nic) {
        nic.make_entropy_engine = [&, host](const uetsim::nic_engine_context& c) {
            const sc_core::sc_time period(double(c.cycle_ps), sc_core::SC_PS);
            if (!clock) clock = std::make_unique<sc_core::sc_clock>("nic_clock", period);
            blocks.push_back(std::make_unique<entropy_lb_sc>((host + "_entropy_lb").c_str()));
            blocks.back()->clk(*clock);
            blocks.back()->set_period(period);
            auto engine = std::make_unique<rtl_entropy_engine>(c.contexts, *blocks.back());
            engines.push_back(engine.get());
            return engine;
        };
    });
    try {
        s.elaborate();
    } catch (const uetsim::input_error& e) {
        std::cerr << "rtl_engine_example: error: " << e.what() << "\n";
        return 2;
    }
    if (blocks.empty()) {
        std::cerr << "rtl_engine_example: error: --engine-hosts " << engine_hosts
                  << " names no UET NIC of the scenario\n";
        return 2;
    }
    // The engines wait on the blocks' clock: the model's wake-ups run in an SC_THREAD.
    uetsim::model_scheduler::instance().allow_blocking();

    sc_core::sc_trace_file* vcd = nullptr;
    if (!vcd_host.empty()) {
        for (const auto& b : blocks)
            if (std::string(b->basename()) == vcd_host + "_entropy_lb") {
                vcd = sc_core::sc_create_vcd_trace_file(
                    (s.out_dir() + "/" + vcd_host + "-entropy_lb").c_str());
                vcd->set_time_unit(1, sc_core::SC_PS);
                b->trace(vcd);
            }
        if (!vcd) {
            std::cerr << "rtl_engine_example: error: --vcd " << vcd_host
                      << " is not one of the hosts --engine-hosts " << engine_hosts << " gave\n";
            return 2;
        }
    }

    s.run();
    if (vcd) sc_core::sc_close_vcd_trace_file(vcd);

    using op = uetsim::entropy_lb_op;
    for (const auto& b : blocks)
        std::cout << b->name() << " requests: open " << b->requests(op::open) << ", next "
                  << b->requests(op::next) << ", feedback " << b->requests(op::feedback)
                  << ", close " << b->requests(op::close) << "\n";
    uint64_t compared = 0;
    for (const rtl_entropy_engine* e : engines) compared += e->compared();
    std::cout << "responses compared with the model's: " << compared << "\n";
    if (s.exit_code() != 0) return s.exit_code();  // 1: a mismatch, reported on stderr
    return s.scoreboard_ok() ? 0 : 3;
}
