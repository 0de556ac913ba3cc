// RDMA application run timeline and connection start times (pure logic).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "testbench/traffic/app/timeline.h"

using namespace uetsim;

TEST(rdma_app_timeline, default_timeline)
{
    run_timeline t = make_timeline(timeline_params{});
    EXPECT_DOUBLE_EQ(t.responders_start_s, 0.001);
    EXPECT_DOUBLE_EQ(t.client_start_from_s, 0.002);
    EXPECT_DOUBLE_EQ(t.client_start_to_s, 0.003);
    EXPECT_DOUBLE_EQ(t.recording_from_s, 0.005);
    EXPECT_DOUBLE_EQ(t.recording_to_s, 0.505);
    EXPECT_DOUBLE_EQ(t.stop_time_s, 0.506);
    EXPECT_TRUE(t.in_recording_window(0.2));
    EXPECT_FALSE(t.in_recording_window(0.004));
    EXPECT_FALSE(t.in_recording_window(0.5055));
}

TEST(rdma_app_timeline, data_starts_at_window_end_or_setup_end)
{
    run_timeline t = make_timeline(timeline_params{});
    EXPECT_DOUBLE_EQ(t.data_start_s(0.0021), 0.003);   // setup done early: wait for the window
    EXPECT_DOUBLE_EQ(t.data_start_s(0.0035), 0.0035);  // setup done late: start at once
}

TEST(rdma_app_timeline, simultaneous_starts_everyone_at_window_start)
{
    run_timeline t = make_timeline(timeline_params{});
    auto s = connection_start_times(start_type::simultaneous, t, 5, 18760);
    ASSERT_EQ(s.size(), 5u);
    for (double v : s) EXPECT_DOUBLE_EQ(v, 0.002);
}

TEST(rdma_app_timeline, sequential_is_evenly_spaced_from_window_start)
{
    run_timeline t = make_timeline(timeline_params{});
    auto s = connection_start_times(start_type::sequential, t, 4, 18760);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_DOUBLE_EQ(s[0], 0.002);
    EXPECT_DOUBLE_EQ(s[1], 0.00225);
    EXPECT_DOUBLE_EQ(s[2], 0.0025);
    EXPECT_DOUBLE_EQ(s[3], 0.00275);
    EXPECT_DOUBLE_EQ(connection_start_times(start_type::sequential, t, 1, 0)[0], 0.002);
}

TEST(rdma_app_timeline, uniform_is_seeded_and_inside_the_window)
{
    run_timeline t = make_timeline(timeline_params{});
    auto a = connection_start_times(start_type::uniform, t, 100, 18760);
    auto b = connection_start_times(start_type::uniform, t, 100, 18760);
    auto c = connection_start_times(start_type::uniform, t, 100, 1);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    for (double v : a) {
        EXPECT_GE(v, 0.002);
        EXPECT_LT(v, 0.003);
    }
    // Not all the same and spread over the window.
    auto [lo, hi] = std::minmax_element(a.begin(), a.end());
    EXPECT_LT(*lo, 0.0022);
    EXPECT_GT(*hi, 0.0028);
}

TEST(rdma_app_timeline, start_type_names)
{
    EXPECT_EQ(parse_start_type("simultaneous"), start_type::simultaneous);
    EXPECT_EQ(parse_start_type("uniform"), start_type::uniform);
    EXPECT_EQ(parse_start_type("sequential"), start_type::sequential);
    EXPECT_FALSE(parse_start_type("Uniform").has_value());
    EXPECT_STREQ(to_string(start_type::sequential), "sequential");
}

TEST(rdma_app_timeline, negative_times_are_rejected_by_key)
{
    timeline_params p;
    p.warm_up = -0.001;
    p.cool_down = -1;
    auto errs = validate_timeline(p);
    ASSERT_EQ(errs.size(), 2u);
    EXPECT_NE(errs[0].find("Simulation.WarmUp = -0.001"), std::string::npos);
    EXPECT_NE(errs[1].find("Simulation.CoolDown = -1"), std::string::npos);
    EXPECT_THROW(make_timeline(p), std::invalid_argument);

    timeline_params q;
    q.start_time = std::numeric_limits<double>::quiet_NaN();
    errs = validate_timeline(q);
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_NE(errs[0].find("Simulation.StartTime"), std::string::npos);

    timeline_params z;  // zero-length windows are fine
    z.client_start_interval = 0;
    z.run_time = 0;
    EXPECT_TRUE(validate_timeline(z).empty());
}
