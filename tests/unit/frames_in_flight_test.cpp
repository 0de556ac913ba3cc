// A switch's frames between arrival and exit without the kernel: exits in arrival order over
// the ports and the at-arrival FIFO, the arrivals still to apply in order, recall of a port's
// frames that have not arrived.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "hw/switch/frames_in_flight.h"

using namespace uetsim;

namespace {

std::vector<int> drain_arrivals(frames_in_flight<int>& f)
{
    std::vector<int> order;
    while (f.arrivals_waiting()) {
        order.push_back(f.next_arrival().item);
        f.arrival_applied();
    }
    return order;
}

std::vector<int> drain_exits(frames_in_flight<int>& f)
{
    std::vector<int> order;
    while (!f.empty()) {
        order.push_back(f.next_exit().item);
        f.exited();
    }
    return order;
}

}  // namespace

// A long link's frame taken first arrives after a short link's taken later; a frame that
// entered at its arrival goes between; same-time arrivals go by the wire's place.
TEST(frames_in_flight, exits_and_arrivals_follow_arrival_time_then_place)
{
    frames_in_flight<int> f(3);
    EXPECT_TRUE(f.push_ahead(0, {900, 20}, 1));                    // the only one: next exit
    EXPECT_TRUE(f.push_ahead(1, {400, 30}, 2));                    // earlier: next exit now
    EXPECT_FALSE(f.push_ahead(1, {700, 30}, 3));                   // behind port 1's first
    EXPECT_FALSE(f.push_arrived({500, 10}, 4));                    // after 400
    EXPECT_FALSE(f.push_ahead(2, {700, 25}, 5));                   // same time as 3, a lower place
    EXPECT_EQ(drain_arrivals(f), (std::vector<int>{2, 5, 3, 1}));  // 4 was applied on entry
    EXPECT_EQ(drain_exits(f), (std::vector<int>{2, 4, 5, 3, 1}));
    EXPECT_TRUE(f.empty());
}

// Exits take only arrived frames; a port's later frames keep waiting for their arrival, and a
// port whose first frames left comes back into the arrivals' merge at its next one.
TEST(frames_in_flight, a_port_interleaves_arrived_and_waiting_frames)
{
    frames_in_flight<int> f(2);
    f.push_ahead(0, {100, 1}, 1);
    f.push_ahead(0, {200, 1}, 2);
    f.push_ahead(1, {150, 2}, 3);
    ASSERT_EQ(f.next_arrival().item, 1);
    f.arrival_applied();
    ASSERT_EQ(f.next_arrival().item, 3);
    f.arrival_applied();
    EXPECT_EQ(f.next_exit().item, 1);
    f.exited();
    EXPECT_EQ(f.next_exit().item, 3);
    f.exited();
    f.push_ahead(1, {300, 2}, 4);
    EXPECT_EQ(drain_arrivals(f), (std::vector<int>{2, 4}));
    EXPECT_EQ(drain_exits(f), (std::vector<int>{2, 4}));
}

// A link that goes down takes back its frames that have not arrived, in arrival order; its
// arrived ones, the other ports' and the at-arrival FIFO's stay in order.
TEST(frames_in_flight, recall_takes_out_only_a_ports_frames_not_arrived)
{
    frames_in_flight<int> f(2);
    f.push_ahead(0, {100, 1}, 1);
    f.push_ahead(0, {300, 1}, 2);
    f.push_ahead(0, {500, 1}, 3);
    f.push_ahead(1, {200, 2}, 4);
    f.push_ahead(1, {400, 2}, 5);
    f.push_arrived({250, 3}, 6);
    ASSERT_EQ(f.next_arrival().item, 1);
    f.arrival_applied();
    std::vector<int> lost;
    EXPECT_TRUE(f.recall(0, [&](int x) { lost.push_back(x); }));
    EXPECT_EQ(lost, (std::vector<int>{2, 3}));
    EXPECT_FALSE(f.recall(0, [&](int x) { lost.push_back(x); }));  // none left to take
    EXPECT_EQ(lost.size(), 2u);
    EXPECT_EQ(drain_arrivals(f), (std::vector<int>{4, 5}));
    EXPECT_EQ(drain_exits(f), (std::vector<int>{1, 4, 6, 5}));
}
