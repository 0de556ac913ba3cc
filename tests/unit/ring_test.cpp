// The FIFO ring without the kernel: order across growth and wrap, and push_front (a PDC group
// served again at once) ahead of the waiting items.
#include <gtest/gtest.h>

#include <vector>

#include "hw/common/ring.h"

using namespace uetsim;

namespace {

std::vector<int> contents(const ring<int>& r)
{
    std::vector<int> v;
    r.for_each([&](int x) { v.push_back(x); });
    return v;
}

}  // namespace

TEST(ring, fifo_order_survives_wrap_and_growth)
{
    ring<int> r;
    for (int i = 0; i < 10; ++i) r.push_back(i);
    for (int i = 0; i < 8; ++i) r.pop_front();     // head at 8 of 16
    for (int i = 10; i < 30; ++i) r.push_back(i);  // wraps, then grows to 32
    EXPECT_EQ(r.size(), 22u);
    EXPECT_EQ(r.front(), 8);
    std::vector<int> want;
    for (int i = 8; i < 30; ++i) want.push_back(i);
    EXPECT_EQ(contents(r), want);
}

TEST(ring, push_front_goes_ahead_of_every_waiting_item)
{
    ring<int> r;
    r.push_front(1);  // into an empty ring: wraps to the last slot
    r.push_back(2);
    r.push_front(0);
    EXPECT_EQ(contents(r), (std::vector<int>{0, 1, 2}));
    // Growth while the head sits mid-buffer keeps the order.
    for (int i = 3; i < 16; ++i) r.push_back(i);
    r.push_front(-1);  // 17th item: grows
    EXPECT_EQ(r.size(), 17u);
    EXPECT_EQ(r.front(), -1);
    r.pop_front();
    EXPECT_EQ(r.front(), 0);
    EXPECT_EQ(contents(r).back(), 15);
}

TEST(ring, a_copy_is_independent_and_a_moved_from_ring_is_empty)
{
    ring<int> r;
    for (int i = 0; i < 20; ++i) r.push_back(i);  // grown to 32
    for (int i = 0; i < 5; ++i) r.pop_front();
    ring<int> c = r;
    c.push_back(99);
    EXPECT_EQ(contents(r).size(), 15u);
    EXPECT_EQ(contents(c).size(), 16u);
    EXPECT_EQ(c.front(), 5);
    ring<int> m = std::move(r);
    EXPECT_EQ(m.size(), 15u);
    EXPECT_EQ(m.front(), 5);
    EXPECT_TRUE(r.empty());  // NOLINT(bugprone-use-after-move): the state it is left in
    r.push_back(7);          // and usable again
    EXPECT_EQ(contents(r), (std::vector<int>{7}));
}
