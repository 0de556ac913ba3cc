// The entropy_lb RTL block (rtl/entropy_lb/entropy_lb.sv), Verilated in C++ mode and driven
// through its pins, against the C++ policies of hw/nic/uet/entropy/ (the golden reference):
// constrained-random requests with every response compared, spec check values, limits, and
// mutants of the RTL that the random test must catch.
//
// Variants (tests/CMakeLists.txt): Ventropy_lb is the product build (CONTEXTS 4096,
// CACHE_BITS 8); Ventropy_lb_cache16 has 4 contexts of up to 2^16 entries; the mutants are the
// product build with one -DUETSIM_MUTANT_<NAME> each.

// Verilated headers first (STYLE.md P13).
#include "Ventropy_lb.h"
#include "Ventropy_lb_cache16.h"
#include "Ventropy_lb_mutant_failure_in_window.h"
#include "Ventropy_lb_mutant_no_bypass.h"
#include "Ventropy_lb_mutant_oldest_off_by_one.h"
#include "Ventropy_lb_mutant_timeout_gt.h"
#include "Ventropy_lb_mutant_turn_from_zero.h"
#include "Ventropy_lb_mutant_window_off_by_one.h"
#include "Ventropy_lb_mutant_xorshift_bit.h"
#include "rtl/entropy_lb/entropy_lb_block.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hw/nic/uet/entropy/entropy_random.h"
#include "hw/nic/uet/entropy/reps_policy.h"
#include "rtl/common/rtl_mismatch.h"
#include "rtl/entropy_lb/entropy_lb_pins.h"
#include "rtl/entropy_lb/entropy_lb_rtl.h"
#include "tests/rtl/entropy_lb_stimulus.h"

using namespace uetsim;
using uetsim::test::entropy_lb_paths;
using uetsim::test::entropy_lb_step;
using uetsim::test::entropy_lb_stimulus;

namespace {

// A Verilated variant with its own context, clocked by hand: drive the pins with clk low,
// rising edge, sample the registered outputs.
template <class V>
class bench
{
public:
    bench() : m_vm(std::make_unique<VerilatedContext>())
    {
        m_dut = std::make_unique<V>(m_vm.get(), "entropy_lb");
        m_dut->req_valid = 0;
        m_dut->rst_n = 0;
        tick();
        tick();
        m_dut->rst_n = 1;
        m_dut->clk = 0;
        m_dut->eval();
    }
    ~bench() { m_dut->final(); }

    V& dut() { return *m_dut; }
    uint64_t cycle() const { return m_cycle; }

    // One clock cycle with `r` offered (or a bubble); returns whether it was accepted.
    bool cycle_with(const entropy_lb_request* r)
    {
        m_dut->clk = 0;
        m_dut->req_valid = r ? 1 : 0;
        if (r) entropy_lb_drive(*m_dut, *r);
        m_dut->eval();
        const bool accepted = r && m_dut->req_ready;
        m_dut->clk = 1;
        m_dut->eval();
        ++m_cycle;
        return accepted;
    }
    void tick() { cycle_with(nullptr); }

    // One request, waiting for its response (the engine's synchronous use).
    entropy_lb_response send(const entropy_lb_request& r)
    {
        while (!cycle_with(&r)) {
        }
        for (int i = 0; i < 64; ++i) {
            tick();
            if (m_dut->rsp_valid) return entropy_lb_sample(*m_dut);
        }
        ADD_FAILURE() << "no response within 64 cycles to " << describe(r);
        return {};
    }

private:
    std::unique_ptr<VerilatedContext> m_vm;
    std::unique_ptr<V> m_dut;
    uint64_t m_cycle = 0;
};

struct run_result
{
    uint64_t requests = 0;
    uint64_t mismatches = 0;
    std::string first_mismatch;  // the request index, the request, both responses
    uint64_t first_mismatch_index = 0;
    entropy_lb_paths paths;
};

// Random requests through the pipeline: up to one per cycle with random bubbles (so requests
// to one slot often follow back to back and take the bypass), every response compared with
// the model's, the latency checked. Stops at the first mismatch when `stop_at_mismatch`.
template <class V>
run_result run_random(uint64_t seed, const std::vector<uint16_t>& slots, uint64_t n,
                      bool stop_at_mismatch, bool reps_only = false)
{
    bench<V> b;
    const auto lim = entropy_lb_limits_of(b.dut());
    entropy_lb_stimulus stim(seed, slots, lim.cache_bits);
    stim.set_reps_only(reps_only);
    std::mt19937 bubbles(uint32_t(seed) ^ 0x5eed);
    struct in_flight
    {
        entropy_lb_step step;
        uint64_t index;
        uint64_t accepted_cycle;
    };
    std::deque<in_flight> pending;
    run_result res;
    uint64_t issued = 0;
    std::unique_ptr<entropy_lb_step> offer;
    const uint8_t latency = b.dut().latency;
    while (res.requests < n) {
        if (!offer && issued < n && bubbles() % 4 != 0)
            offer = std::make_unique<entropy_lb_step>(stim.next());
        const bool accepted = b.cycle_with(offer ? &offer->request : nullptr);
        if (accepted) {
            pending.push_back({*offer, issued++, b.cycle()});
            offer.reset();
        }
        if (!b.dut().rsp_valid) {
            // The accepting cycle counts as 1 (valid_ready.h): valid LATENCY - 1 edges later.
            if (!pending.empty() && b.cycle() > pending.front().accepted_cycle + latency - 1) {
                res.first_mismatch = "no response " + std::to_string(latency) +
                                     " cycles after request #" +
                                     std::to_string(pending.front().index);
                ++res.mismatches;
                break;
            }
            continue;
        }
        if (pending.empty()) {
            res.first_mismatch = "a response without a request";
            ++res.mismatches;
            break;
        }
        const in_flight p = pending.front();
        pending.pop_front();
        ++res.requests;
        const entropy_lb_response rtl = entropy_lb_sample(b.dut());
        const bool late = b.cycle() != p.accepted_cycle + latency - 1;
        if (rtl != p.step.expected || late) {
            if (res.mismatches++ == 0) {
                res.first_mismatch_index = p.index;
                res.first_mismatch =
                    "request #" + std::to_string(p.index) + (late ? " (latency wrong)" : "") +
                    ": " + describe(p.step.request) + "\n  model: " + describe(p.step.expected) +
                    "\n  rtl:   " + describe(rtl);
            }
            if (stop_at_mismatch) break;
        }
    }
    res.paths = stim.paths();
    return res;
}

std::vector<uint16_t> product_slots()
{
    return {0, 1, 2, 7, 2047, 4095};
}

void expect_paths_taken(const entropy_lb_paths& p, uint64_t n)
{
    const uint64_t meaningful = n / 2000;  // at least 0.05 % of the requests each
    EXPECT_GT(p.opens[0], 50u);
    EXPECT_GT(p.opens[1], 50u);
    EXPECT_GT(p.opens[2], 200u);
    EXPECT_GT(p.nexts[0], meaningful);
    EXPECT_GT(p.nexts[1], meaningful);
    EXPECT_GT(p.closes, 200u);
    EXPECT_GT(p.reps.explored, meaningful);
    EXPECT_GT(p.reps.reused, meaningful);
    EXPECT_GT(p.reps.recycled, meaningful);
    EXPECT_GT(p.reps.discarded, meaningful);
    EXPECT_GT(p.reps.freezes, meaningful) << "freezing";
    EXPECT_GT(p.reps.frozen_reused, meaningful) << "frozen reuse";
    EXPECT_GT(p.reps.window_explored, meaningful) << "window explores";
    EXPECT_GT(p.reps.failures_ignored, meaningful) << "failures ignored";
    EXPECT_GT(p.freezes_by_timeout, meaningful / 4) << "timeout path";
    EXPECT_GT(p.freezes_by_failure_detected, meaningful / 4) << "failure_detected path";
    EXPECT_GT(p.freezes_ended, meaningful / 4);
    EXPECT_GT(p.exact_deadline_ends, 50u) << "recycles exactly FreezingTimeout later";
    EXPECT_GT(p.before_deadline_kept, 50u) << "recycles 1 ps before the deadline";
    EXPECT_GT(p.zero_timeout_ends, 50u) << "FreezingTimeout 0";
    EXPECT_GT(p.windows_opened, 50u);
    EXPECT_GT(p.windows_completed, 20u);
    EXPECT_GT(p.held_full, meaningful / 4) << "recycles overwriting held slots";
}

std::string paths_text(const entropy_lb_paths& p)
{
    char buf[800];
    std::snprintf(
        buf, sizeof buf,
        "opens none/default/reps %llu/%llu/%llu, nexts %llu/%llu/%llu, closes %llu; explored %llu "
        "(window %llu), reused %llu, frozen %llu, recycled %llu, discarded %llu, freezes %llu "
        "(timeout %llu, failure_detected %llu), ignored %llu, ended %llu (exact %llu, zero "
        "timeout %llu), 1 ps early kept %llu, windows %llu (completed %llu), held-full recycles "
        "%llu, cache sizes seen 0x%llx",
        (unsigned long long)p.opens[0], (unsigned long long)p.opens[1],
        (unsigned long long)p.opens[2], (unsigned long long)p.nexts[0],
        (unsigned long long)p.nexts[1], (unsigned long long)p.nexts[2],
        (unsigned long long)p.closes, (unsigned long long)p.reps.explored,
        (unsigned long long)p.reps.window_explored, (unsigned long long)p.reps.reused,
        (unsigned long long)p.reps.frozen_reused, (unsigned long long)p.reps.recycled,
        (unsigned long long)p.reps.discarded, (unsigned long long)p.reps.freezes,
        (unsigned long long)p.freezes_by_timeout, (unsigned long long)p.freezes_by_failure_detected,
        (unsigned long long)p.reps.failures_ignored, (unsigned long long)p.freezes_ended,
        (unsigned long long)p.exact_deadline_ends, (unsigned long long)p.zero_timeout_ends,
        (unsigned long long)p.before_deadline_kept, (unsigned long long)p.windows_opened,
        (unsigned long long)p.windows_completed, (unsigned long long)p.held_full,
        (unsigned long long)p.cache_bits_seen);
    return buf;
}

}  // namespace

// 1.2 million random requests through the product build, every response compared.
TEST(entropy_lb_rtl, product_matches_model_on_random_requests)
{
    const uint64_t n = 1200000;
    const auto t0 = std::chrono::steady_clock::now();
    const run_result r = run_random<Ventropy_lb>(11, product_slots(), n, true);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.mismatches, 0u) << r.first_mismatch;
    EXPECT_EQ(r.requests, n);
    std::printf("%llu requests in %.2f s: %s\n", (unsigned long long)n, s,
                paths_text(r.paths).c_str());
    expect_paths_taken(r.paths, n);
    EXPECT_EQ(r.paths.cache_bits_seen, 0x1FFull);  // REPSBufferSizeMaskBits 0..8
}

// The large caches (REPSBufferSizeMaskBits up to 16) on the test-size variant.
TEST(entropy_lb_rtl, large_cache_variant_matches_model)
{
    const uint64_t n = 300000;
    const run_result r = run_random<Ventropy_lb_cache16>(23, {0, 1, 2, 3}, n, true, true);
    ASSERT_EQ(r.mismatches, 0u) << r.first_mismatch;
    std::printf("%s\n", paths_text(r.paths).c_str());
    EXPECT_EQ(r.paths.cache_bits_seen, 0x1FFFFull);  // 0..16
    EXPECT_GT(r.paths.reps.frozen_reused, 1000u);
    EXPECT_GT(r.paths.reps.window_explored, 1000u);
}

// A 2^16-entry cache filled past its size and wrapped, then frozen: the turn starts at the
// write pointer (the oldest slot) and walks all 65,536 held slots.
TEST(entropy_lb_rtl, full_65536_entry_cache_wraps_and_freezes)
{
    bench<Ventropy_lb_cache16> b;
    entropy_config cfg;
    cfg.type = packet_spraying_type::reps;
    cfg.reps_buffer_size_mask_bits = 16;
    cfg.freezing_timeout_s = 1e-9;
    std::unique_ptr<entropy_policy> model;
    uint64_t now = 5000, compared = 0;
    auto check = [&](const entropy_lb_request& r, const entropy_config* c) {
        const entropy_lb_response want = entropy_lb_apply(r, c, 42, model);
        const entropy_lb_response got = b.send(r);
        ++compared;
        ASSERT_EQ(got, want) << describe(r) << "\n  model: " << describe(want)
                             << "\n  rtl:   " << describe(got);
    };
    entropy_lb_request open = entropy_lb_open_request(3, cfg, 42);
    check(open, &cfg);
    entropy_lb_request fb;
    fb.op = entropy_lb_op::feedback;
    fb.slot = 3;
    for (uint32_t i = 0; i < 65536 + 1000; ++i) {
        fb.feedback = uint8_t(path_feedback::ack);
        fb.entropy = uint16_t(i * 7919u);
        fb.now_ps = now++;
        check(fb, nullptr);
        if (HasFatalFailure()) return;
    }
    entropy_lb_request nx;
    nx.op = entropy_lb_op::next;
    nx.slot = 3;
    for (uint32_t i = 0; i < 65536 + 10; ++i) {  // drain the available values, then explore
        nx.now_ps = now;
        check(nx, nullptr);
        if (HasFatalFailure()) return;
    }
    fb.feedback = uint8_t(path_feedback::failure_detected);
    fb.now_ps = now;
    check(fb, nullptr);
    for (uint32_t i = 0; i < 65536 + 100; ++i) {  // frozen: every held slot in turn, and wrap
        nx.now_ps = now;
        check(nx, nullptr);
        if (HasFatalFailure()) return;
    }
    const auto* reps = dynamic_cast<const reps_policy*>(model.get());
    ASSERT_NE(reps, nullptr);
    EXPECT_EQ(reps->cache().held(), 65536u);
    EXPECT_EQ(reps->stats().frozen_reused, 65536u + 100);
    EXPECT_EQ(compared, 1u + 66536 + 65546 + 1 + 65636);
}

// Check values from docs/spraying.md, against constants (not the C++): seed 0 gives state
// 0x993D6596 and the first five draws 33,912 21,520 7,512 63,042 4,322 over 0..65,535, and
// 517 328 114 961 65 over 0..999; Default Packet Spraying at the defaults cycles 256..383; the
// default window (W = 71, C = 8) explores packets 7, 15, ..., 71.
TEST(entropy_lb_rtl, spec_check_values)
{
    bench<Ventropy_lb> b;
    EXPECT_EQ(entropy_random::seed_state(0), 0x993D6596u);
    for (uint32_t n : {65536u, 1000u}) {
        entropy_config cfg;
        cfg.type = packet_spraying_type::reps;
        cfg.entropy_value_set_size = n;
        entropy_lb_request r = entropy_lb_open_request(0, cfg, 0);
        EXPECT_EQ(r.cfg_seed, 0x993D6596u);
        ASSERT_FALSE(b.send(r).error);
        const std::vector<uint16_t> want =
            n == 65536 ? std::vector<uint16_t>{33912, 21520, 7512, 63042, 4322}
                       : std::vector<uint16_t>{517, 328, 114, 961, 65};
        entropy_lb_request nx;
        nx.op = entropy_lb_op::next;
        for (uint16_t w : want) {
            const entropy_lb_response s = b.send(nx);
            EXPECT_EQ(s.value, w) << "over 0.." << n - 1;
            EXPECT_EQ(s.choice, uint8_t(entropy_choice::explored));
        }
    }
    {
        entropy_config cfg;  // Default Packet Spraying at the defaults
        ASSERT_FALSE(b.send(entropy_lb_open_request(5, cfg, 0)).error);
        entropy_lb_request nx;
        nx.op = entropy_lb_op::next;
        nx.slot = 5;
        for (int i = 0; i < 256; ++i) {
            const entropy_lb_response s = b.send(nx);
            EXPECT_EQ(s.value, 256 + i % 128);
            EXPECT_EQ(s.choice, uint8_t(entropy_choice::round_robin));
        }
    }
    {
        entropy_config cfg;  // REPS at the defaults: W = 71, 8 entries, 100 us
        cfg.type = packet_spraying_type::reps;
        entropy_lb_request open = entropy_lb_open_request(9, cfg, 1);
        EXPECT_EQ(open.cfg_window, 71u);
        EXPECT_EQ(open.cfg_timeout_ps, 100000000u);
        ASSERT_FALSE(b.send(open).error);
        entropy_lb_request fb;
        fb.op = entropy_lb_op::feedback;
        fb.slot = 9;
        fb.feedback = uint8_t(path_feedback::timeout);
        fb.now_ps = 1000;
        EXPECT_TRUE(b.send(fb).freezing);
        fb.feedback = uint8_t(path_feedback::ack);
        fb.now_ps = 1000 + 100000000 - 1;  // 1 ps early: still freezing
        EXPECT_TRUE(b.send(fb).freezing);
        fb.now_ps = 1000 + 100000000;  // exactly FreezingTimeout later: the window opens
        const entropy_lb_response end = b.send(fb);
        EXPECT_FALSE(end.freezing);
        EXPECT_TRUE(end.in_window);
        std::vector<int> explored;
        entropy_lb_request nx;
        nx.op = entropy_lb_op::next;
        nx.slot = 9;
        for (int k = 1; k <= 71; ++k) {
            // Keep a value available so only the window's own explores explore.
            fb.entropy = uint16_t(k);
            b.send(fb);
            const entropy_lb_response s = b.send(nx);
            if (s.choice == uint8_t(entropy_choice::explored)) explored.push_back(k);
            EXPECT_EQ(s.window_sent, k == 71 ? 0u : uint32_t(k));
            EXPECT_EQ(s.in_window, k != 71);
        }
        EXPECT_EQ(explored, (std::vector<int>{7, 15, 23, 31, 39, 47, 55, 63, 71}));
    }
    {
        // FreezingTimeout in whole ps as the model decides with its 0.5 ps tolerance: 1.5 ps
        // ends freezing 1 ps after the failure (llround would say 2), 1.6 ps after 2.
        for (double t_ps : {1.5, 1.6, 0.4}) {
            entropy_config cfg;
            cfg.type = packet_spraying_type::reps;
            cfg.freezing_timeout_s = t_ps * 1e-12;
            entropy_lb_request open = entropy_lb_open_request(11, cfg, 1);
            EXPECT_EQ(open.cfg_timeout_ps, t_ps == 1.6 ? 2u : t_ps == 1.5 ? 1u : 0u);
            std::unique_ptr<entropy_policy> model;
            uint64_t now = 500;
            auto both = [&](entropy_lb_request r, const entropy_config* c) {
                r.now_ps = now;
                const entropy_lb_response want = entropy_lb_apply(r, c, 1, model);
                EXPECT_EQ(b.send(r), want) << describe(r) << " FreezingTimeout " << t_ps << " ps";
                return want;
            };
            both(open, &cfg);
            entropy_lb_request fb;
            fb.op = entropy_lb_op::feedback;
            fb.slot = 11;
            fb.feedback = uint8_t(path_feedback::failure_detected);
            EXPECT_TRUE(both(fb, nullptr).freezing);
            fb.feedback = uint8_t(path_feedback::ack);
            for (int d = 0; d < 3 && model->freezing(); ++d, ++now) both(fb, nullptr);
        }
    }
}

// Constant outputs, and what the block refuses: a slot beyond CONTEXTS, an op on a slot that is
// not open, a cache beyond CACHE_BITS; and the wrapper's error texts naming the key.
TEST(entropy_lb_rtl, constants_errors_and_limits)
{
    bench<Ventropy_lb> b;
    EXPECT_EQ(b.dut().latency, 2);
    EXPECT_EQ(b.dut().contexts, 4096u);
    EXPECT_EQ(b.dut().cache_bits, 8);
    entropy_lb_request nx;
    nx.op = entropy_lb_op::next;
    nx.slot = 4;
    EXPECT_TRUE(b.send(nx).error);  // not open
    entropy_config cfg;
    cfg.type = packet_spraying_type::reps;
    cfg.reps_buffer_size_mask_bits = 9;
    EXPECT_TRUE(b.send(entropy_lb_open_request(4, cfg, 0)).error);
    EXPECT_TRUE(b.send(nx).error);  // the refused open left it closed
    cfg.reps_buffer_size_mask_bits = 8;
    EXPECT_FALSE(b.send(entropy_lb_open_request(4, cfg, 0)).error);
    EXPECT_FALSE(b.send(nx).error);
    EXPECT_TRUE(b.send(entropy_lb_open_request(4096, cfg, 0)).error);
    entropy_lb_request cl;
    cl.op = entropy_lb_op::close;
    cl.slot = 4;
    const entropy_lb_response closed = b.send(cl);
    EXPECT_FALSE(closed.error);
    EXPECT_EQ(closed, entropy_lb_model_response(cl, nullptr, 0));
    EXPECT_TRUE(b.send(nx).error);

    const entropy_lb_limits lim = entropy_lb_limits_of(b.dut());
    EXPECT_FALSE(entropy_lb_limit_error(lim, 4095, cfg));
    const auto slot_err = entropy_lb_limit_error(lim, 4096, cfg);
    ASSERT_TRUE(slot_err);
    EXPECT_NE(slot_err->find("UetNic.EntropyContexts"), std::string::npos) << *slot_err;
    cfg.reps_buffer_size_mask_bits = 9;
    const auto cache_err = entropy_lb_limit_error(lim, 0, cfg);
    ASSERT_TRUE(cache_err);
    EXPECT_NE(cache_err->find("UetNic.REPSBufferSizeMaskBits 9"), std::string::npos) << *cache_err;
    EXPECT_NE(cache_err->find("0 to 8"), std::string::npos) << *cache_err;
}

// Mutation: each mutant of the .sv must be caught by the random stimulus within a bound.
namespace {

template <class V>
void expect_caught(const char* name, uint64_t within)
{
    const run_result r = run_random<V>(11, product_slots(), within, true);
    EXPECT_GT(r.mismatches, 0u) << name << " survived " << within << " requests";
    if (r.mismatches)
        std::printf("%s caught at request #%llu:\n%s\n", name,
                    (unsigned long long)r.first_mismatch_index, r.first_mismatch.c_str());
}

}  // namespace

TEST(entropy_lb_rtl, mutant_xorshift_bit_is_caught)
{
    expect_caught<Ventropy_lb_mutant_xorshift_bit>("XORSHIFT_BIT", 10000);
}
TEST(entropy_lb_rtl, mutant_window_off_by_one_is_caught)
{
    expect_caught<Ventropy_lb_mutant_window_off_by_one>("WINDOW_OFF_BY_ONE", 100000);
}
TEST(entropy_lb_rtl, mutant_timeout_gt_is_caught)
{
    expect_caught<Ventropy_lb_mutant_timeout_gt>("TIMEOUT_GT", 100000);
}
TEST(entropy_lb_rtl, mutant_oldest_off_by_one_is_caught)
{
    expect_caught<Ventropy_lb_mutant_oldest_off_by_one>("OLDEST_OFF_BY_ONE", 10000);
}
TEST(entropy_lb_rtl, mutant_turn_from_zero_is_caught)
{
    expect_caught<Ventropy_lb_mutant_turn_from_zero>("TURN_FROM_ZERO", 200000);
}
TEST(entropy_lb_rtl, mutant_failure_in_window_is_caught)
{
    expect_caught<Ventropy_lb_mutant_failure_in_window>("FAILURE_IN_WINDOW", 100000);
}
TEST(entropy_lb_rtl, mutant_no_bypass_is_caught)
{
    expect_caught<Ventropy_lb_mutant_no_bypass>("NO_BYPASS", 10000);
}

// ---- the engine (entropy_lb_rtl) ----
namespace {

// Random use of an engine as a NIC would: groups opened (lowest free slot) and closed, values
// asked, feedback on the values sent; times increasing. Returns the values next() returned.
std::vector<uint16_t> drive_engine(entropy_engine& e, uint64_t seed, uint64_t n)
{
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> open;
    std::vector<uint16_t> values;
    uint64_t now = 1000;
    for (uint64_t i = 0; i < n; ++i) {
        now += rng() % 300;
        const unsigned r = rng() % 1000;
        if (open.empty() || (r < 5 && open.size() < 12)) {
            entropy_config cfg;
            const unsigned t = rng() % 10;
            cfg.type = t == 0  ? packet_spraying_type::none
                       : t < 3 ? packet_spraying_type::default_spraying
                               : packet_spraying_type::reps;
            cfg.local_udp_port = uint16_t(rng());
            cfg.entropy_mask_bits = rng() % 9;
            cfg.starting_port_offset = rng() % 65536;
            cfg.reps_buffer_size_mask_bits = rng() % 5;
            cfg.entropy_value_set_size = 1 + rng() % 65536;
            cfg.freezing_timeout_s = double(rng() % 3000) * 1e-12;
            cfg.initial_base_rtt_s = 1e-6;
            cfg.link_rate_bps = double(rng() % 20 * 4184 + 100) * 8e6;
            const auto slot = e.open(cfg, rng());
            if (slot) open.push_back(*slot);
            continue;
        }
        const uint32_t slot = open[rng() % open.size()];
        if (r < 8) {
            e.close(slot);
            open.erase(std::find(open.begin(), open.end(), slot));
        } else if (r < 500) {
            values.push_back(e.next(slot, now).value);
        } else {
            const unsigned f = rng() % 10;
            const path_feedback fb = f < 5   ? path_feedback::ack
                                     : f < 6 ? path_feedback::nack_trimmed_last_hop
                                     : f < 7 ? path_feedback::ack_ecn
                                     : f < 8 ? path_feedback::timeout
                                             : path_feedback::failure_detected;
            const uint16_t v =
                values.empty() || rng() % 5 == 0 ? uint16_t(rng()) : values[rng() % values.size()];
            e.feedback(slot, v, fb, now);
        }
    }
    return values;
}

}  // namespace

// both: every request (open, next, feedback, close) compared, the model's answers returned.
TEST(entropy_lb_rtl, engine_both_mode_checks_every_request)
{
    entropy_lb_rtl e("host0.entropy_lb", 64, rtl_mode::both, 1000);
    entropy_engine model(64);
    const auto got = drive_engine(e, 5, 200000);
    const auto want = drive_engine(model, 5, 200000);
    EXPECT_EQ(got, want);
    EXPECT_EQ(e.checked(), e.requests());
    EXPECT_EQ(e.requests(), 200000u);             // one request per engine call
    EXPECT_EQ(e.cycles(), 2 + 2 * e.requests());  // reset, then LATENCY per request
    EXPECT_EQ(e.latency_cycles(), 2u);
}

// The latency the rtl layer exports (UetNic.EntropyLookupCycles: auto) is the product block's
// `latency` pin, and the registry gives it for Rtl.EntropyLoadBalancer.
TEST(entropy_lb_rtl, the_exported_latency_is_the_blocks_latency_pin)
{
    entropy_lb_rtl e("host0.entropy_lb", 16, rtl_mode::rtl, 1000);
    EXPECT_EQ(e.latency_cycles(), entropy_lb_latency_cycles);
    EXPECT_EQ(entropy_lb_latency_cycles, 2u);  // entropy_lb.sv: LATENCY = 2
    // A request takes exactly the pin's cycles (the wrapper checks each response against it).
    const uint64_t before = e.cycles();
    entropy_config cfg;
    ASSERT_TRUE(e.open(cfg, 1));
    EXPECT_EQ(e.cycles() - before, entropy_lb_latency_cycles);
}

// rtl: the block's values (equal to the model's), ready LATENCY NIC cycles after the request.
TEST(entropy_lb_rtl, engine_rtl_mode_values_and_ready_time)
{
    entropy_lb_rtl e("host0.entropy_lb", 16, rtl_mode::rtl, 1250);
    entropy_config cfg;
    cfg.type = packet_spraying_type::reps;
    const auto slot = e.open(cfg, 77);
    ASSERT_TRUE(slot);
    entropy_engine m(16);
    ASSERT_EQ(m.open(cfg, 77), slot);
    for (uint64_t now = 1000; now < 1000 + 500 * 100; now += 100) {
        const entropy_answer a = e.next(*slot, now);
        EXPECT_EQ(a.ready_ps, now + 2 * 1250);
        EXPECT_EQ(a.value, m.next(*slot, now).value);
        e.feedback(*slot, a.value, path_feedback::ack, now + 50);
        m.feedback(*slot, a.value, path_feedback::ack, now + 50);
    }
    EXPECT_EQ(e.checked(), 0u);                                        // rtl mode compares nothing
    EXPECT_EQ(e.policy(*slot).last_choice(), entropy_choice::reused);  // the model ran too
}

// A wrong RTL variant in both mode: the report names the block, the first differing request
// (its index and every field) and both responses.
TEST(entropy_lb_rtl, engine_reports_the_first_mismatch_of_a_wrong_variant)
{
    entropy_lb_rtl e(
        "host3.entropy_lb", 16, rtl_mode::both, 1000,
        std::make_unique<entropy_lb_block<Ventropy_lb_mutant_xorshift_bit>>("host3.entropy_lb"));
    static std::vector<rtl_mismatch> seen;
    set_rtl_mismatch_handler([](const rtl_mismatch& m) { seen.push_back(m); });
    entropy_config cfg;
    cfg.type = packet_spraying_type::reps;
    const auto slot = e.open(cfg, 0);
    ASSERT_TRUE(slot);
    for (int i = 0; i < 5; ++i) e.next(*slot, 2000 + i);
    set_rtl_mismatch_handler({});
    ASSERT_EQ(seen.size(), 5u);  // every draw differs; the run's handler stops at the first
    EXPECT_EQ(e.mismatches(), 5u);
    EXPECT_EQ(e.checked(), 6u);
    const std::string t = seen[0].text();
    EXPECT_EQ(seen[0].component, "host3.entropy_lb");
    EXPECT_EQ(seen[0].request_index, 1u);  // #0 was the open
    EXPECT_NE(t.find("host3.entropy_lb"), std::string::npos) << t;
    EXPECT_EQ(seen[0].request.rfind("op=next slot=0 ", 0), 0u) << t;
    EXPECT_NE(seen[0].request.find("now_ps=2000"), std::string::npos) << t;
    EXPECT_EQ(seen[0].model.rfind("op=next slot=0 error=0 value=33912 choice=3 (explored)", 0), 0u)
        << t;
    EXPECT_EQ(seen[0].rtl.rfind("op=next slot=0 error=0 value=", 0), 0u) << t;
    EXPECT_NE(seen[0].rtl, seen[0].model);
}

// Configurations beyond the block's sizes: errors naming the key, the value and what is allowed.
TEST(entropy_lb_rtl, engine_limits_name_the_keys)
{
    try {
        entropy_lb_rtl e("host0.entropy_lb", 8192, rtl_mode::both, 1000);
        ADD_FAILURE() << "8192 contexts accepted";
    } catch (const std::invalid_argument& x) {
        EXPECT_NE(std::string(x.what()).find("UetNic.EntropyContexts 8192"), std::string::npos)
            << x.what();
        EXPECT_NE(std::string(x.what()).find("1 to 4096"), std::string::npos) << x.what();
    }
    entropy_lb_rtl e("host0.entropy_lb", 4096, rtl_mode::rtl, 1000);
    entropy_config cfg;
    cfg.type = packet_spraying_type::reps;
    cfg.reps_buffer_size_mask_bits = 12;
    try {
        e.open(cfg, 0);
        ADD_FAILURE() << "a 2^12-entry cache accepted";
    } catch (const std::invalid_argument& x) {
        EXPECT_NE(std::string(x.what()).find("UetNic.REPSBufferSizeMaskBits 12"), std::string::npos)
            << x.what();
        EXPECT_NE(std::string(x.what()).find("0 to 8"), std::string::npos) << x.what();
    }
}
