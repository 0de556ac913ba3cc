// A part that is not the model's own, called from a model wake-up through call_outside_model
// (outside_call.h): a TLM-2.0 target whose b_transport calls wait(), as the standard allows. In
// both time bases it sees the kernel at the model's time, its wait() moves the kernel only, and
// the wake-ups that fell due meanwhile run next at their own times.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/outside_call.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/kernel/wakeup.h"

using namespace uetsim;
using sc_core::SC_NS;
using sc_core::sc_time;
using tb = model_scheduler::time_base;

namespace {

constexpr uint64_t ns = 1'000;  // ps

// A memory with its own latency model: b_transport waits out its access time and annotates a
// further delay, as a loosely timed target may.
struct waiting_memory : sc_core::sc_module
{
    tlm_utils::simple_target_socket<waiting_memory> socket{"socket"};
    uint64_t entered_ps = 0, left_ps = 0;
    explicit waiting_memory(const sc_core::sc_module_name& n) : sc_module(n)
    {
        socket.register_b_transport(this, &waiting_memory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay)
    {
        entered_ps = sc_core::sc_time_stamp().value();
        wait(sc_time(250, SC_NS));
        left_ps = sc_core::sc_time_stamp().value();
        delay += sc_time(7, SC_NS);
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct initiator : sc_core::sc_module
{
    tlm_utils::simple_initiator_socket<initiator> socket{"socket"};
    explicit initiator(const sc_core::sc_module_name& n) : sc_module(n) {}
};

struct seen
{
    std::string who;
    uint64_t model_ps, kernel_ps;
    bool operator==(const seen& o) const
    {
        return who == o.who && model_ps == o.model_ps && kernel_ps == o.kernel_ps;
    }
};

std::ostream& operator<<(std::ostream& os, const seen& s)
{
    return os << s.who << "(model " << s.model_ps << ", kernel " << s.kernel_ps << ")";
}

class outside_call : public ::testing::TestWithParam<tb>
{
};

}  // namespace

// The wake-up at 1000 ns reads memory that takes 250 ns; wake-ups at 1100, 1200 and 1250 ns fall
// due while it blocks, one at 1300 ns after. The run lets the model go ahead of the kernel up to
// 10 us (a quantum), which the decoupled time base uses and the kernel time base ignores.
TEST_P(outside_call, a_target_that_waits_sees_the_models_time)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    model_scheduler& s = model_scheduler::instance();
    s.set_time_base(GetParam());
    const bool kernel = GetParam() == tb::kernel;
    waiting_memory mem{"mem"};
    initiator init{"init"};
    init.socket.bind(mem.socket);
    std::vector<seen> log;
    auto note = [&](const std::string& who) {
        log.push_back({who, sim_now_ps(), sc_core::sc_time_stamp().value()});
    };
    uint64_t took_ps = 0, annotated_ps = 0;
    wakeup first{[&] { note("first"); }};
    wakeup read{[&] {
        note("read");
        tlm::tlm_generic_payload gp;
        uint8_t data[8] = {};
        gp.set_command(tlm::TLM_READ_COMMAND);
        gp.set_address(0x40);
        gp.set_data_ptr(data);
        gp.set_data_length(8);
        sc_time delay = sc_core::SC_ZERO_TIME;
        took_ps = call_outside_model([&] { init.socket->b_transport(gp, delay); });
        annotated_ps = delay.value();
        note("read done");
    }};
    std::vector<std::unique_ptr<wakeup>> during;
    for (uint64_t t : {1'100 * ns, 1'200 * ns, 1'250 * ns, 1'300 * ns}) {
        during.push_back(std::make_unique<wakeup>([&, t] { note(std::to_string(t / ns)); }));
        during.back()->notify_at_ps(t);
    }
    first.notify_at_ps(100 * ns);
    read.notify_at_ps(1'000 * ns);
    s.allow_blocking();  // after the parts are built, before sc_start
    s.set_horizon_ps(10'000 * ns);
    sc_core::sc_start(sc_time(10, sc_core::SC_US));

    EXPECT_EQ(mem.entered_ps, 1'000 * ns);  // synced: the kernel caught up with the model
    EXPECT_EQ(mem.left_ps, 1'250 * ns);
    EXPECT_EQ(took_ps, 250 * ns);
    EXPECT_EQ(annotated_ps, 7 * ns);
    // Decoupled: the model runs ahead of the kernel from 100 ns, so the kernel is still at 100 ns
    // when the read starts and after the catch-up stays at 1250 ns for the wake-up at 1300 ns.
    const std::vector<seen> expected = {
        {"first", 100 * ns, 100 * ns},
        {"read", 1'000 * ns, kernel ? 1'000 * ns : 100 * ns},
        {"read done", 1'000 * ns, 1'250 * ns},  // the model's clock did not move
        {"1100", 1'100 * ns, 1'250 * ns},       // fell due during the block: behind the kernel
        {"1200", 1'200 * ns, 1'250 * ns},
        {"1250", 1'250 * ns, 1'250 * ns},
        {"1300", 1'300 * ns, kernel ? 1'300 * ns : 1'250 * ns},
    };
    EXPECT_EQ(log, expected);
    EXPECT_EQ(s.get_time_base(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(time_base, outside_call, ::testing::Values(tb::decoupled, tb::kernel),
                         [](const auto& info) {
                             return info.param == tb::kernel ? "kernel" : "decoupled";
                         });

// The scheduler's SC_METHOD must return: a call that may wait() is refused, naming the remedy.
TEST(outside_call_refused, from_the_method_it_is_a_logic_error)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    model_scheduler& s = model_scheduler::instance();
    s.set_time_base(tb::decoupled);
    std::string message;
    bool called = false;
    wakeup w{[&] {
        try {
            call_outside_model([&] { called = true; });
        } catch (const std::logic_error& e) {
            message = e.what();
        }
    }};
    w.notify_at_ps(5 * ns);
    sc_core::sc_start(sc_time(10, SC_NS));
    EXPECT_FALSE(called);
    EXPECT_NE(message.find("SC_METHOD"), std::string::npos) << message;
    EXPECT_NE(message.find("allow_blocking()"), std::string::npos) << message;
    EXPECT_FALSE(s.blocking());
    // Once elaborated, the process is chosen for good.
    EXPECT_THROW(s.allow_blocking(), std::logic_error);
    EXPECT_THROW(s.set_time_base(tb::kernel), std::logic_error);
}
