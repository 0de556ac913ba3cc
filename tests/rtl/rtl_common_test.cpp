// rtl/common (clocked_block, valid_ready, rtl_pin_set, lockstep_checker, the mismatch handler)
// on a test-only block: tests/rtl/blocks/test_adder.sv, a valid/ready adder with a latency of
// two cycles, and its mutant (UETSIM_MUTANT_ADDER_BIT4), both verilated into the tests-only
// library uetsim_rtl_test_blocks.

// Verilated headers before <systemc> (rtl/verilated_includes.h).
#include "Vtest_adder.h"
#include "Vtest_adder_mutant.h"
#include "rtl/common/clocked_block.h"
#include "rtl/common/lockstep_checker.h"
#include "rtl/common/rtl_mode.h"
#include "rtl/common/valid_ready.h"

#include <gtest/gtest.h>

#include <systemc>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

struct add_req
{
    uint32_t a = 0, b = 0;
};

std::string describe_req(const add_req& r)
{
    return "a=" + std::to_string(r.a) + " b=" + std::to_string(r.b);
}

std::string describe_sum(const uint64_t& s)
{
    return "sum=" + std::to_string(s);
}

// The few dozen lines a real wrapper has: pins bound once, one call per request.
template <class V>
class adder
{
public:
    explicit adder(const std::string& name) : block(name), port(block)
    {
        V& p = block.pins();
        port.bind(p.req_valid, p.req_ready, p.rsp_valid);
        port.pin("req_a", 32, p.req_a);
        port.pin("req_b", 32, p.req_b);
        port.pin("rsp_sum", 33, p.rsp_sum);
    }
    uint64_t add(uint32_t a, uint32_t b)
    {
        block.pins().req_a = a;
        block.pins().req_b = b;
        last_latency = port.transact();
        return block.pins().rsp_sum;
    }
    clocked_block<V> block;
    valid_ready<V> port;
    uint32_t last_latency = 0;
};

class counting_probe : public state_probe
{
public:
    explicit counting_probe(const rtl_pin_set& s) : m_set(s) {}
    void changed() override
    {
        ++calls;
        last.clear();
        for (const rtl_pin& p : m_set.pins()) last.push_back(p.value());
    }
    int calls = 0;
    std::vector<uint64_t> last;

private:
    const rtl_pin_set& m_set;
};

}  // namespace

TEST(rtl_common, rtl_mode_names_round_trip)
{
    for (rtl_mode m : {rtl_mode::model, rtl_mode::rtl, rtl_mode::both})
        EXPECT_EQ(parse_rtl_mode(to_string(m)), m);
    EXPECT_FALSE(parse_rtl_mode("RTL").has_value());
    EXPECT_FALSE(parse_rtl_mode("").has_value());
    EXPECT_FALSE(uses_rtl(rtl_mode::model));
    EXPECT_TRUE(uses_rtl(rtl_mode::both));
}

// Reset holds rst_n low for two cycles at construction; the response comes exactly LATENCY
// cycles after acceptance, and the latency pin says 2.
TEST(rtl_common, clocked_block_resets_and_steps_cycle_by_cycle)
{
    clocked_block<Vtest_adder> blk("adder");
    EXPECT_EQ(blk.cycles(), 2u);  // the reset
    Vtest_adder& p = blk.pins();
    EXPECT_EQ(p.rst_n, 1);
    EXPECT_EQ(p.latency, 2);
    EXPECT_EQ(p.rsp_valid, 0);
    p.req_a = 40;
    p.req_b = 2;
    p.req_valid = 1;
    blk.tick();  // accepted at this edge
    p.req_valid = 0;
    blk.settle();
    EXPECT_EQ(p.rsp_valid, 0) << "one cycle after acceptance";
    blk.tick();
    EXPECT_EQ(p.rsp_valid, 1) << "two cycles after acceptance";
    EXPECT_EQ(p.rsp_sum, 42u);
    blk.tick();
    EXPECT_EQ(p.rsp_valid, 0) << "exactly one response";
    EXPECT_EQ(blk.cycles(), 5u);
    blk.reset();
    EXPECT_EQ(blk.cycles(), 7u);
}

// send()/await_response(): latency 2 without stalls; with req_ready held low the request waits
// and still answers 2 cycles after acceptance; 100 000 random requests all add up (33 bits).
TEST(rtl_common, valid_ready_send_and_response)
{
    adder<Vtest_adder> add("adder");
    EXPECT_EQ(add.add(0xFFFFFFFFu, 1), 0x100000000ull);
    EXPECT_EQ(add.last_latency, 2u);

    Vtest_adder& p = add.block.pins();
    p.stall = 1;
    p.req_a = 7;
    p.req_b = 8;
    // A stalled block: the bundle gives up after max_cycles with a protocol error.
    valid_ready<Vtest_adder> short_port(add.block, 5);
    short_port.bind(p.req_valid, p.req_ready, p.rsp_valid);
    std::string error;
    try {
        short_port.send();
    } catch (const std::runtime_error& e) {
        error = e.what();
    }
    EXPECT_NE(error.find("rtl protocol error: adder: req_ready stayed low for 5 cycles"),
              std::string::npos)
        << error;
    p.req_valid = 0;
    p.stall = 0;
    add.block.reset();

    // Stall for 3 cycles, then release: send() waits, the answer is 2 cycles after acceptance.
    p.stall = 1;
    p.req_valid = 1;
    for (int i = 0; i < 3; ++i) add.block.tick();
    EXPECT_EQ(p.rsp_valid, 0) << "nothing accepted while stalled";
    p.stall = 0;
    p.req_valid = 0;
    EXPECT_EQ(add.add(7, 8), 15u);
    EXPECT_EQ(add.last_latency, 2u);

    std::mt19937_64 rng(11);
    const uint64_t before = add.block.cycles();
    for (int i = 0; i < 100000; ++i) {
        const uint32_t a = uint32_t(rng()), b = uint32_t(rng());
        ASSERT_EQ(add.add(a, b), uint64_t(a) + b) << i;
        ASSERT_EQ(add.last_latency, 2u) << i;
    }
    EXPECT_EQ(add.block.cycles() - before, 2u * 100000) << "two cycles per request, no more";
    EXPECT_EQ(add.port.requests(), 100000u + 2);
}

// The pin set names the handshake and payload pins with their widths, and the probe sees the
// settled values of each request (what the run's waveform shows as {device}.rtl.{pin}).
TEST(rtl_common, pin_set_feeds_the_trace_probe)
{
    adder<Vtest_adder> add("adder");
    const rtl_pin_set& set = add.port.pins();
    std::vector<std::string> names;
    for (const rtl_pin& p : set.pins()) names.push_back(p.name + "/" + std::to_string(p.width));
    EXPECT_EQ(names, (std::vector<std::string>{"req_valid/1", "req_ready/1", "rsp_valid/1",
                                               "req_a/32", "req_b/32", "rsp_sum/33"}));
    add.add(1, 2);  // no probe: nothing to call
    counting_probe probe(set);
    add.port.pins().trace(&probe);
    add.add(0xFFFFFFFFu, 0xFFFFFFFFu);
    EXPECT_EQ(probe.calls, 1);
    EXPECT_EQ(probe.last,
              (std::vector<uint64_t>{0, 1, 1, 0xFFFFFFFFu, 0xFFFFFFFFu, 0x1FFFFFFFEull}));
    add.port.pins().trace(nullptr);
    add.add(1, 1);
    EXPECT_EQ(probe.calls, 1);
}

// The checker against the mutant adder: the first wrong answer reaches the installed handler
// with the time, the component, the request index, the inputs and both outputs; checked()
// counts every comparison. Request 0..2 have even `a` (the mutant is right), request 3 is odd
// with bit 4 of the sum flipped.
TEST(rtl_common, lockstep_checker_catches_a_mismatch_with_the_report_fields)
{
    struct bench_t : sc_core::sc_module
    {
        adder<Vtest_adder_mutant> rtl{"mutant"};
        lockstep_checker<add_req, uint64_t> chk{"host3.adder", describe_req, describe_sum};
        std::vector<rtl_mismatch> seen;
        explicit bench_t(const sc_core::sc_module_name& nm) : sc_core::sc_module(nm)
        {
            SC_HAS_PROCESS(bench_t);
            SC_THREAD(run);
        }
        void run()
        {
            wait(7, sc_core::SC_NS);
            const add_req reqs[] = {{2, 3}, {4, 4}, {100, 1}, {1, 2}, {3, 0}};
            // Model answers first, RTL answers later: the queue keeps them paired in order.
            for (const add_req& r : reqs) chk.expect(r, uint64_t(r.a) + r.b);
            EXPECT_EQ(chk.pending(), 5u);
            for (const add_req& r : reqs) chk.observe(rtl.add(r.a, r.b));
        }
    } bench("bench");
    set_rtl_mismatch_handler([&bench](const rtl_mismatch& m) { bench.seen.push_back(m); });
    sc_core::sc_start(20, sc_core::SC_NS);
    set_rtl_mismatch_handler({});

    EXPECT_EQ(bench.chk.checked(), 5u);
    EXPECT_EQ(bench.chk.mismatches(), 2u);  // {1,2} and {3,0}
    EXPECT_EQ(bench.chk.pending(), 0u);
    ASSERT_EQ(bench.seen.size(), 2u);
    const rtl_mismatch& m = bench.seen[0];
    EXPECT_EQ(m.time_ps, 7000u);
    EXPECT_EQ(m.component, "host3.adder");
    EXPECT_EQ(m.request_index, 3u);
    EXPECT_EQ(m.request, "a=1 b=2");
    EXPECT_EQ(m.model, "sum=3");
    EXPECT_EQ(m.rtl, "sum=19");  // 3 ^ 16
    EXPECT_EQ(bench.seen[1].request_index, 4u);
    const std::string t = m.text();
    for (const char* s : {"rtl mismatch: host3.adder at 7 ns", "request index: 3", "a=1 b=2",
                          "model: sum=3", "rtl:   sum=19"})
        EXPECT_NE(t.find(s), std::string::npos) << s << " in\n" << t;
}

// Without an installed handler a mismatch is an SC_REPORT_ERROR with the full report; an RTL
// answer with nothing expected is a mismatch too.
TEST(rtl_common, default_handler_throws_the_report)
{
    lockstep_checker<add_req, uint64_t> chk("leaf0.adder", describe_req, describe_sum);
    EXPECT_TRUE(chk.check({1, 1}, 2, 2));
    std::vector<std::string> errors;
    for (int i = 0; i < 2; ++i) {
        try {
            if (i == 0)
                chk.check({1, 1}, 2, 3);
            else
                chk.observe(5);  // an unexpected answer is a mismatch too
        } catch (const std::runtime_error& e) {
            errors.push_back(e.what());
        }
    }
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_NE(errors[0].find("rtl mismatch: leaf0.adder"), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("request index: 1"), std::string::npos) << errors[0];
    EXPECT_NE(errors[1].find("(no answer expected)"), std::string::npos) << errors[1];
    EXPECT_NE(errors[1].find("sum=5"), std::string::npos) << errors[1];
    EXPECT_EQ(chk.checked(), 2u);
    EXPECT_EQ(chk.mismatches(), 2u);
}

// open_fst(): the block's own waves, timestamps from the simulated time (1 ps apart within one
// time step).
TEST(rtl_common, block_waves_go_to_an_fst_file)
{
    const std::string dir = test::scratch_dir("rtl-common-fst");
    const std::string fst = dir + "/adder.fst";
    {
        adder<Vtest_adder> add("adder");
        add.block.open_fst(fst);
        for (uint32_t i = 0; i < 100; ++i) ASSERT_EQ(add.add(i, i), 2u * i);
    }  // closed here
    std::error_code ec;
    EXPECT_GT(std::filesystem::file_size(fst, ec), 200u);
    EXPECT_FALSE(ec);
}
