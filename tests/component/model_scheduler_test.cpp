// Wake-ups through the model scheduler, with the kernel: sc_event's notification rule, the
// order at equal time (the order of scheduling, not the kernel's), and that one kernel
// activation serves every wake-up of a time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <systemc>

#include "hw/common/model_scheduler.h"
#include "hw/common/time.h"
#include "hw/common/wakeup.h"

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
