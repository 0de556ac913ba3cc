// trace_recorder: change-driven values, the Start..Stop window with the state at its start, and
// the trigger with its PreTrigger ring buffer and PostTrigger, against hand-written timelines.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "testbench/trace/trace_recorder.h"

namespace uetsim {
namespace {

// Records what reaches the file.
class fake_writer : public trace_writer
{
public:
    uint32_t declare(const std::string& name, unsigned) override
    {
        names.push_back(name);
        return uint32_t(names.size() - 1);
    }
    void begin() override { begun = true; }
    void change(uint64_t t, uint32_t id, uint64_t v) override { changes.emplace_back(t, id, v); }
    void close(uint64_t end) override { closed_at = end; }

    std::vector<std::string> names;
    std::vector<std::tuple<uint64_t, uint32_t, uint64_t>> changes;
    bool begun = false;
    uint64_t closed_at = 0;
};

using ch = std::tuple<uint64_t, uint32_t, uint64_t>;

TEST(trace_recorder, writes_only_changes)
{
    fake_writer w;
    trace_recorder r(w, {});
    const uint32_t a = r.add("host0.cwnd_bytes", 64);
    r.begin();
    r.set(a, 10, 5);  // opens the window at 0 with the value before (0), then 5 at 10
    r.set(a, 20, 5);  // same value: nothing
    r.set(a, 30, 7);
    r.finish(40);
    EXPECT_EQ(w.changes, (std::vector<ch>{{0, 0, 0}, {10, 0, 5}, {30, 0, 7}}));
    EXPECT_EQ(r.changes_written(), 3u);
}

TEST(trace_recorder, window_starts_with_the_state_at_start_and_ends_at_stop)
{
    fake_writer w;
    trace_window win;
    win.start_ps = 100;
    win.stop_ps = 200;
    trace_recorder r(w, win);
    const uint32_t a = r.add("leaf0.q", 64);
    const uint32_t b = r.add("leaf0.f", 1);
    r.begin();
    r.set(a, 10, 3);  // before the window: becomes a's value at 100
    r.set(b, 50, 1);  // likewise
    r.set(a, 90, 4);
    r.set(a, 150, 6);  // opens at 100 (a=4, b=1), then 6 at 150
    r.set(b, 200, 0);  // the stop instant is inside
    r.set(a, 201, 9);  // past stop: closes at 200, not written
    r.set(a, 300, 1);
    r.finish(400);
    EXPECT_EQ(w.changes, (std::vector<ch>{{100, 0, 4}, {100, 1, 1}, {150, 0, 6}, {200, 1, 0}}));
    EXPECT_EQ(r.window_start_ps(), 100u);
    EXPECT_EQ(r.window_end_ps(), 200u);
    EXPECT_EQ(w.closed_at, 200u);
}

TEST(trace_recorder, a_window_without_changes_in_it_still_shows_the_state)
{
    fake_writer w;
    trace_window win;
    win.start_ps = 100;
    win.stop_ps = 200;
    trace_recorder r(w, win);
    const uint32_t a = r.add("x.v", 8);
    r.begin();
    r.set(a, 10, 2);
    r.finish(500);
    EXPECT_EQ(w.changes, (std::vector<ch>{{100, 0, 2}}));
}

TEST(trace_recorder, trigger_writes_pre_trigger_from_the_ring_then_post_trigger)
{
    fake_writer w;
    trace_window win;
    win.triggered = true;
    win.pre_ps = 100;
    win.post_ps = 50;
    trace_recorder r(w, win);
    const uint32_t q = r.add("leaf0.queue_bytes", 64);
    const uint32_t trims = r.add("leaf0.trims", 64, false, {trace_fire_rule::kind::rises, 0});
    r.begin();
    r.set(q, 100, 1);  // folds into the base value by the time of the trigger (older than 900)
    r.set(q, 850, 2);  // still older than 1000 - 100: folded as well
    r.set(q, 950, 3);  // inside the ring
    EXPECT_TRUE(w.changes.empty());  // nothing written before the trigger
    r.set(trims, 1000, 1);           // fires at 1000: the window is 900..1050
    EXPECT_TRUE(r.fired());
    r.set(q, 1040, 4);
    r.set(q, 1051, 5);  // past 1050: closes
    r.set(trims, 1100, 2);
    r.finish(2000);
    EXPECT_EQ(w.changes,
              (std::vector<ch>{{900, 0, 2}, {900, 1, 0}, {950, 0, 3}, {1000, 1, 1}, {1040, 0, 4}}));
    EXPECT_EQ(r.fired_at_ps(), 1000u);
    EXPECT_EQ(r.window_start_ps(), 900u);
    EXPECT_EQ(r.window_end_ps(), 1050u);
}

TEST(trace_recorder, queue_threshold_fires_when_reached_and_hidden_signals_stay_out)
{
    fake_writer w;
    trace_window win;
    win.triggered = true;
    win.pre_ps = 10;
    win.post_ps = 10;
    trace_recorder r(w, win);
    const uint32_t shown = r.add("host0.cwnd_bytes", 64);
    const uint32_t q =
        r.add("leaf0.queue_bytes", 64, /*hidden=*/true, {trace_fire_rule::kind::reaches, 1000});
    r.begin();
    EXPECT_EQ(w.names, (std::vector<std::string>{"host0.cwnd_bytes"}));
    r.set(q, 5, 999);
    EXPECT_FALSE(r.fired());
    r.set(shown, 95, 7);
    r.set(q, 100, 1000);  // reaches the threshold: window 90..110
    EXPECT_TRUE(r.fired());
    r.set(shown, 105, 8);
    r.finish(200);
    EXPECT_EQ(w.changes, (std::vector<ch>{{90, 0, 0}, {95, 0, 7}, {105, 0, 8}}));
}

TEST(trace_recorder, never_fired_writes_nothing)
{
    fake_writer w;
    trace_window win;
    win.triggered = true;
    win.pre_ps = 10;
    trace_recorder r(w, win);
    const uint32_t a = r.add("x.v", 8);
    r.begin();
    r.set(a, 5, 1);
    r.finish(100);
    EXPECT_TRUE(w.changes.empty());
    EXPECT_FALSE(r.opened());
}

}  // namespace
}  // namespace uetsim
