// The lazy-deletion deadline heap without the kernel: when the owner must (re)arm its one
// event, which entries fire, which are dropped unfired, and the order of equal deadlines.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "hw/common/deadline_heap.h"

using namespace uetsim;

namespace {

struct entry
{
    uint64_t at;
    int tag;
    uint64_t deadline() const { return at; }
    bool operator>(const entry& o) const { return at > o.at; }
};

// Equal deadlines come out in insertion order (the RDMA application's agenda).
struct sequenced
{
    uint64_t at;
    uint64_t seq;
    uint64_t deadline() const { return at; }
    bool operator>(const sequenced& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

auto all_live = [](const auto&) { return true; };

}  // namespace

TEST(deadline_heap, arms_only_for_an_earlier_deadline)
{
    deadline_heap<entry> h;
    EXPECT_EQ(h.armed(), deadline_heap<entry>::unarmed);
    EXPECT_TRUE(h.push({30, 0}));   // nothing armed yet
    EXPECT_TRUE(h.push({10, 1}));   // earlier than 30
    EXPECT_FALSE(h.push({20, 2}));  // later than 10: the pending event covers it
    EXPECT_FALSE(h.push({10, 3}));  // equal: already armed for 10
    EXPECT_EQ(h.armed(), 10u);
    EXPECT_EQ(h.size(), 4u);
}

TEST(deadline_heap, fires_due_entries_and_rearms_for_the_next)
{
    deadline_heap<entry> h;
    h.push({30, 0});
    h.push({10, 1});
    h.push({20, 2});
    std::vector<int> fired;
    // At 20 the entries due at 10 and 20 fire, in deadline order; 30 is left.
    EXPECT_TRUE(h.expire(20, all_live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_EQ(fired, (std::vector<int>{1, 2}));
    EXPECT_EQ(h.armed(), 30u);
    EXPECT_FALSE(h.expire(30, all_live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_EQ(fired, (std::vector<int>{1, 2, 0}));
    EXPECT_TRUE(h.empty());
    EXPECT_EQ(h.armed(), deadline_heap<entry>::unarmed);
}

TEST(deadline_heap, drops_dead_entries_in_bulk_without_firing)
{
    // Timeouts at 100..500; the packets of 100, 200 and 400 are acknowledged (dead).
    deadline_heap<entry> h;
    for (int i = 1; i <= 5; ++i) h.push({uint64_t(100 * i), i});
    const std::set<int> dead{1, 2, 4};
    auto live = [&](const entry& e) { return dead.count(e.tag) == 0; };
    std::vector<int> fired;
    // The event armed for 100 fires at 100: 100 (due, dead) and 200 (not due, dead) go unfired,
    // 300 is live and not due: the owner re-arms for 300, not for 200.
    EXPECT_TRUE(h.expire(100, live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_TRUE(fired.empty());
    EXPECT_EQ(h.armed(), 300u);
    EXPECT_EQ(h.size(), 3u);
    // At 300: 300 fires; 400 (dead) is dropped; re-armed for 500.
    EXPECT_TRUE(h.expire(300, live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_EQ(fired, (std::vector<int>{3}));
    EXPECT_EQ(h.armed(), 500u);
    EXPECT_EQ(h.size(), 1u);
}

TEST(deadline_heap, equal_deadlines_in_insertion_order_with_a_sequence_tie_breaker)
{
    deadline_heap<sequenced> h;
    for (uint64_t s = 0; s < 6; ++s) h.add({s % 2 ? 50u : 40u, s});  // added before arming
    EXPECT_EQ(h.armed(), deadline_heap<sequenced>::unarmed);
    std::vector<uint64_t> order;
    EXPECT_FALSE(h.expire(50, all_live, [&](const sequenced& e) { order.push_back(e.seq); }));
    EXPECT_EQ(order, (std::vector<uint64_t>{0, 2, 4, 1, 3, 5}));
}

TEST(deadline_heap, an_entry_pushed_while_firing_is_armed_once)
{
    deadline_heap<entry> h;
    h.push({10, 0});
    h.push({100, 1});
    bool armed_inside = false;
    // Firing 10 schedules 60, earlier than the 100 left: push() says arm (for 60); expire()
    // then has nothing earlier to arm.
    const bool rearm = h.expire(10, all_live, [&](const entry& e) {
        if (e.tag == 0) armed_inside = h.push({60, 2});
    });
    EXPECT_TRUE(armed_inside);
    EXPECT_FALSE(rearm);
    EXPECT_EQ(h.armed(), 60u);
}
