// Wake-ups through the model scheduler, with the kernel: sc_event's notification rule, the
// order at equal time (the order of scheduling, not the kernel's), and that one kernel
// activation serves every wake-up of a time.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/time.h"
#include "hw/kernel/timed_fifo.h"
#include "hw/kernel/wakeup.h"

using namespace uetsim;

namespace {

struct log_t
{
    std::vector<std::string> entries;
    void add(const std::string& who) { entries.push_back(who + "@" + std::to_string(now())); }
    static uint64_t now() { return sc_core::sc_time_stamp().value(); }
};

void resolution()
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
}

}  // namespace

TEST(model_scheduler, an_earlier_wakeup_wins_and_a_later_one_is_dropped)
{
    resolution();
    log_t log;
    wakeup a{[&] { log.add("a"); }};
    wakeup b{[&] { log.add("b"); }};
    a.notify(picoseconds(300));
    a.notify(picoseconds(100));  // earlier: replaces
    a.notify(picoseconds(200));  // later than the pending one: dropped
    b.notify(picoseconds(100));
    b.cancel();
    b.notify(picoseconds(400));  // after a cancel: pending again
    sc_core::sc_start(picoseconds(1'000));
    EXPECT_EQ(log.entries, (std::vector<std::string>{"a@100", "b@400"}));
}

TEST(model_scheduler, equal_times_run_in_the_order_they_were_scheduled)
{
    resolution();
    log_t log;
    std::vector<std::unique_ptr<wakeup>> w;
    for (int i = 0; i < 6; ++i)
        w.push_back(std::make_unique<wakeup>([&, i] { log.add(std::to_string(i)); }));
    // Scheduled from different earlier times, so the kernel's own order would depend on its
    // queue's history; here it is the order of the notify calls.
    wakeup early{[&] {
        w[4]->notify(picoseconds(900));  // due at 1000
        w[1]->notify(picoseconds(900));
    }};
    early.notify(picoseconds(100));
    w[5]->notify(picoseconds(1'000));
    w[2]->notify(picoseconds(1'000));
    sc_core::sc_start(picoseconds(2'000));
    EXPECT_EQ(log.entries, (std::vector<std::string>{"5@1000", "2@1000", "4@1000", "1@1000"}));
}

TEST(model_scheduler, rescheduling_to_the_same_time_keeps_the_place)
{
    resolution();
    log_t log;
    wakeup a{[&] { log.add("a"); }};
    wakeup b{[&] { log.add("b"); }};
    a.notify(picoseconds(50));
    b.notify(picoseconds(50));
    a.reschedule_at_ps(50);  // same time: still first
    sc_core::sc_start(picoseconds(100));
    b.reschedule_at_ps(150);
    a.reschedule_at_ps(200);
    b.reschedule_at_ps(250);  // later than pending: moved, unlike notify
    sc_core::sc_start(picoseconds(500));
    EXPECT_EQ(log.entries, (std::vector<std::string>{"a@50", "b@50", "a@200", "b@250"}));
}

TEST(model_scheduler, a_zero_delay_runs_after_what_is_due_now)
{
    resolution();
    log_t log;
    wakeup later_same_time{[&] { log.add("zero"); }};
    wakeup first{[&] {
        log.add("first");
        later_same_time.notify(sc_core::SC_ZERO_TIME);
    }};
    wakeup second{[&] { log.add("second"); }};
    first.notify(picoseconds(10));
    second.notify(picoseconds(10));
    sc_core::sc_start(picoseconds(100));
    EXPECT_EQ(log.entries, (std::vector<std::string>{"first@10", "second@10", "zero@10"}));
}

TEST(model_scheduler, one_kernel_activation_per_due_time)
{
    resolution();
    int runs = 0;
    std::vector<std::unique_ptr<wakeup>> w;
    for (int i = 0; i < 20; ++i) w.push_back(std::make_unique<wakeup>([&] { ++runs; }));
    for (int i = 0; i < 20; ++i) w[size_t(i)]->notify(picoseconds(i < 10 ? 100 : 200));
    const uint64_t before = model_scheduler::instance().activations();
    sc_core::sc_start(picoseconds(1'000));
    EXPECT_EQ(runs, 20);
    EXPECT_EQ(model_scheduler::instance().activations() - before, 2u);
}

TEST(model_scheduler, a_destroyed_wakeup_never_runs)
{
    resolution();
    int runs = 0;
    auto w = std::make_unique<wakeup>([&] { ++runs; });
    wakeup kept{[&] { ++runs; }};
    w->notify(picoseconds(10));
    kept.notify(picoseconds(20));
    w.reset();
    sc_core::sc_start(picoseconds(100));
    EXPECT_EQ(runs, 1);
}

TEST(model_scheduler, a_sampler_runs_after_the_model_at_its_time)
{
    resolution();
    log_t log;
    wakeup sampler{[&] { log.add("sample"); }, wakeup::phase::sample};
    wakeup follow_up{[&] { log.add("follow_up"); }};
    wakeup model{[&] {
        log.add("model");
        follow_up.notify(sc_core::SC_ZERO_TIME);  // still before the sampler
    }};
    sampler.notify(picoseconds(10));  // scheduled first
    model.notify(picoseconds(10));
    sc_core::sc_start(picoseconds(100));
    EXPECT_EQ(log.entries, (std::vector<std::string>{"model@10", "follow_up@10", "sample@10"}));
}

TEST(model_scheduler, delay_lines_deliver_after_the_model_in_the_order_they_were_made)
{
    resolution();
    log_t log;
    timed_fifo<int> first{"first", [&](int i) { log.add("first" + std::to_string(i)); }};
    timed_fifo<int> second{"second", [&](int i) { log.add("second" + std::to_string(i)); }};
    wakeup model{[&] { log.add("model"); }};
    wakeup sampler{[&] { log.add("sample"); }, wakeup::phase::sample};
    wakeup control{[&] { log.add("control"); }, wakeup::phase::control};
    // The second line's head is queued first, the first line's item waits behind an earlier
    // one (its head is queued when that one leaves), the model wake-up is scheduled last: the
    // order at 20 is none of these histories.
    second.push(1, 20);
    control.notify(picoseconds(20));
    sampler.notify(picoseconds(20));
    first.push(1, 10);
    first.push(2, 20);
    model.notify(picoseconds(20));
    sc_core::sc_start(picoseconds(100));
    EXPECT_EQ(log.entries, (std::vector<std::string>{"first1@10", "model@20", "first2@20",
                                                     "second1@20", "control@20", "sample@20"}));
}

TEST(model_scheduler, a_wakeup_for_now_from_a_later_phase_runs_later_in_that_phase)
{
    resolution();
    log_t log;
    wakeup follow_up{[&] { log.add("follow_up"); }};
    timed_fifo<int> first{"first", [&](int) {
                              log.add("first");
                              follow_up.notify(sc_core::SC_ZERO_TIME);  // model phase, now
                          }};
    timed_fifo<int> second{"second", [&](int) { log.add("second"); }};
    wakeup control{[&] { log.add("control"); }, wakeup::phase::control};
    first.push(0, 30);
    second.push(0, 30);
    control.notify(picoseconds(30));
    sc_core::sc_start(picoseconds(100));
    // Not before the line that scheduled it (it has run): after every line placed by its
    // index, before the control phase.
    EXPECT_EQ(log.entries, (std::vector<std::string>{"first@30", "second@30", "follow_up@30",
                                                     "control@30"}));
}

TEST(model_scheduler, a_control_wakeup_runs_at_its_time_not_at_a_stale_entrys)
{
    resolution();
    log_t log;
    wakeup c{[&] { log.add("c"); }, wakeup::phase::control};
    wakeup later{[&] { c.notify(picoseconds(15)); }};  // at 60
    c.notify(picoseconds(50));
    c.notify(picoseconds(40));  // earlier: the entry at 50 is stale, though its key is the same
    later.notify(picoseconds(45));
    sc_core::sc_start(picoseconds(100));
    // At 50 the wake-up is pending again (for 60) with the same key: the entry's time tells.
    EXPECT_EQ(log.entries, (std::vector<std::string>{"c@40", "c@60"}));
}

namespace {

// An owner that holds one wake-up back and does its work when settled.
struct holder final : deferred_owner
{
    std::vector<std::string>& log;
    wakeup w;
    std::vector<std::pair<uint64_t, uint64_t>> asked;  // the bounds it was settled before
    explicit holder(std::vector<std::string>& l)
        : log(l), w([this] { log.push_back("held(run)@" + std::to_string(sim_now_ps())); })
    {
    }
    void hold_at(uint64_t at_ps)
    {
        w.defer_at_ps(at_ps);
        model_scheduler::instance().owe(this);
    }
    bool settle_before(uint64_t at_ps, uint64_t key) override
    {
        asked.push_back({at_ps, key});
        if (!w.deferred_before(at_ps, key)) return w.deferred();
        w.take_deferred();
        log.push_back("held(settled, due " + std::to_string(w.due_ps()) + ")@" +
                      std::to_string(sim_now_ps()));
        return false;
    }
};

// Holding back is the decoupled time base's (the component tier also runs in the kernel one).
void decoupled()
{
    resolution();
    model_scheduler::instance().set_time_base(model_scheduler::time_base::decoupled);
}

// Runs the kernel for `ps` with the model allowed to run ahead through it, as a run does.
void run_ahead_for(uint64_t ps)
{
    model_scheduler& s = model_scheduler::instance();
    s.set_horizon_ps(sc_core::sc_time_stamp().value() + ps);
    sc_core::sc_start(picoseconds(ps));
    s.set_horizon_ps(0);
}

std::string at(const std::string& who, uint64_t t)
{
    return who + "@" + std::to_string(t);
}

}  // namespace

TEST(model_scheduler, nothing_is_held_back_in_lockstep_or_past_the_horizon)
{
    decoupled();
    model_scheduler& s = model_scheduler::instance();
    bool lockstep = true, inside = false, outside = true;
    const uint64_t t0 = sc_core::sc_time_stamp().value();
    wakeup probe{[&] { lockstep = s.may_defer(sim_now_ps() + 10); }};
    probe.notify(picoseconds(10));
    sc_core::sc_start(picoseconds(100));  // no horizon: lockstep
    EXPECT_FALSE(lockstep);
    wakeup probe2{[&] {
        inside = s.may_defer(t0 + 100 + 500);
        outside = s.may_defer(t0 + 100 + 1'000);  // the horizon itself is the next slice's
    }};
    probe2.notify(picoseconds(10));
    run_ahead_for(1'000);
    EXPECT_TRUE(inside);
    EXPECT_FALSE(outside);
    EXPECT_FALSE(s.may_defer(0));  // not while the scheduler is not running
}

TEST(model_scheduler, a_held_back_wakeup_is_settled_before_a_sampler_of_a_later_time)
{
    decoupled();
    std::vector<std::string> log;
    holder h{log};
    const uint64_t t0 = sc_core::sc_time_stamp().value();
    wakeup sampler{[&] { log.push_back(at("sample", sim_now_ps() - t0)); }, wakeup::phase::sample};
    wakeup model{[&] {
        log.push_back(at("model", sim_now_ps() - t0));
        h.hold_at(sim_now_ps() + 40);  // due at 50
    }};
    wakeup later{[&] { log.push_back(at("later", sim_now_ps() - t0)); }};
    model.notify(picoseconds(10));
    later.notify(picoseconds(55));  // does not touch the holder: no settling before it
    sampler.notify(picoseconds(60));
    run_ahead_for(1'000);
    ASSERT_EQ(log.size(), 4u);
    EXPECT_EQ(log[0], "model@10");
    EXPECT_EQ(log[1], "later@55");
    // Settled just before the sampler runs, at the sampler's time, with its due time kept.
    EXPECT_EQ(log[2],
              "held(settled, due " + std::to_string(t0 + 50) + ")@" + std::to_string(t0 + 60));
    EXPECT_EQ(log[3], "sample@60");
    ASSERT_FALSE(h.asked.empty());
    EXPECT_EQ(h.asked.front().first, t0 + 60);
    EXPECT_FALSE(h.w.deferred());
}

TEST(model_scheduler, held_back_wakeups_are_settled_before_the_activation_returns)
{
    decoupled();
    std::vector<std::string> log;
    holder h{log};
    const uint64_t t0 = sc_core::sc_time_stamp().value();
    wakeup model{[&] { h.hold_at(sim_now_ps() + 100); }};  // due at 110, nothing after it
    model.notify(picoseconds(10));
    run_ahead_for(1'000);
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0],
              "held(settled, due " + std::to_string(t0 + 110) + ")@" + std::to_string(t0 + 10));
    EXPECT_FALSE(h.w.deferred());
}

TEST(model_scheduler, a_realised_wakeup_runs_in_the_place_it_was_held_back_in)
{
    decoupled();
    std::vector<std::string> log;
    wakeup first{[&] { log.push_back("first"); }};
    wakeup last{[&] { log.push_back("last"); }};
    holder h{log};
    const uint64_t t0 = sc_core::sc_time_stamp().value();
    wakeup model{[&] {
        first.notify_at_ps(t0 + 100);
        h.hold_at(t0 + 100);  // between first and last at 100
        last.notify_at_ps(t0 + 100);
    }};
    wakeup something_arrives{[&] { h.w.realize(); }};  // it is needed after all
    model.notify(picoseconds(10));
    something_arrives.notify(picoseconds(20));
    run_ahead_for(1'000);
    EXPECT_EQ(log, (std::vector<std::string>{"first", at("held(run)", t0 + 100), "last"}));
    EXPECT_FALSE(h.w.deferred());
}

// The kernel time base ignores the horizon: every due time is a kernel event, and the model's
// clock is the kernel's whenever a wake-up runs; nothing is held back.
TEST(model_scheduler, the_kernel_time_base_never_runs_ahead)
{
    resolution();
    model_scheduler& s = model_scheduler::instance();
    s.set_time_base(model_scheduler::time_base::kernel);
    std::vector<std::string> log;
    bool deferrable = false;
    const uint64_t t0 = sc_core::sc_time_stamp().value();
    wakeup b{[&] { log.push_back(at("b", sc_core::sc_time_stamp().value() - t0)); }};
    wakeup a{[&] {
        log.push_back(at("a", sc_core::sc_time_stamp().value() - t0));
        deferrable = s.may_defer(sim_now_ps() + 10);
        EXPECT_EQ(sim_now_ps(), sc_core::sc_time_stamp().value());
        b.notify(picoseconds(490));
    }};
    a.notify(picoseconds(10));
    const uint64_t before = s.activations();
    run_ahead_for(1'000);
    EXPECT_EQ(log, (std::vector<std::string>{"a@10", "b@500"}));
    EXPECT_FALSE(deferrable);
    EXPECT_EQ(s.activations() - before, 2u);
    EXPECT_TRUE(s.blocking());  // in an SC_THREAD
}

// The component tier runs twice, the second time with UETSIM_TIME_BASE=kernel
// (tests/CMakeLists.txt): the scheduler takes its time base from there when it is made.
TEST(model_scheduler, the_environment_chooses_the_time_base)
{
    resolution();
    const char* env = std::getenv("UETSIM_TIME_BASE");
    const bool kernel = env && std::string(env) == "kernel";
    model_scheduler& s = model_scheduler::instance();
    EXPECT_EQ(s.get_time_base(),
              kernel ? model_scheduler::time_base::kernel : model_scheduler::time_base::decoupled);
    EXPECT_EQ(s.blocking(), kernel);
    std::vector<uint64_t> kernel_times;
    wakeup b{[&] { kernel_times.push_back(sc_core::sc_time_stamp().value()); }};
    wakeup a{[&] {
        kernel_times.push_back(sc_core::sc_time_stamp().value());
        b.notify(picoseconds(400));
    }};
    a.notify(picoseconds(100));
    run_ahead_for(1'000);
    // Decoupled runs b ahead of the kernel, still at 100 ps; kernel waits for 500 ps.
    EXPECT_EQ(kernel_times, (std::vector<uint64_t>{100, kernel ? 500u : 100u}));
}
