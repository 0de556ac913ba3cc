// Deadline lanes without the kernel: entries come out in (deadline, push order) whether a lane
// or the heap beside the lanes holds them, moot entries are dropped unfired, and the owner is
// told to (re)arm exactly as with deadline_heap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "hw/common/deadline_lanes.h"

using namespace uetsim;

namespace {

struct entry
{
    uint64_t at;
    int tag;
    uint64_t deadline() const { return at; }
};

using lanes3 = deadline_lanes<entry, 3>;

auto all_live = [](const entry&) { return true; };

// One step of random use: up to three entries, each in a random lane, mostly at its lane's
// fixed timeout from `now`, sometimes earlier (which breaks the lane's order); `push(at, lane)`.
template <typename Push>
void random_pushes(std::mt19937_64& rng, uint64_t now, const uint64_t (&timeouts)[3], Push&& push)
{
    const int n = int(rng() % 4);
    for (int k = 0; k < n; ++k) {
        const size_t lane = rng() % 3;
        push(now + (rng() % 8 ? timeouts[lane] : rng() % 300), lane);
    }
}

std::vector<int> fire_all(lanes3& l, uint64_t now)
{
    std::vector<int> fired;
    l.expire(now, all_live, [&](const entry& e) { fired.push_back(e.tag); });
    return fired;
}

}  // namespace

TEST(deadline_lanes, arms_only_for_an_earlier_deadline)
{
    lanes3 l;
    EXPECT_EQ(l.armed(), lanes3::unarmed);
    EXPECT_TRUE(l.push({30, 0}, 0));
    EXPECT_TRUE(l.push({10, 1}, 1));   // earlier than 30, in another lane
    EXPECT_FALSE(l.push({20, 2}, 2));  // the pending wake-up covers it
    EXPECT_FALSE(l.push({10, 3}, 0));  // equal: already armed for 10 (and behind 30: the heap)
    EXPECT_EQ(l.armed(), 10u);
    EXPECT_EQ(l.size(), 4u);
    EXPECT_EQ(l.out_of_order(), 1u);
}

TEST(deadline_lanes, equal_deadlines_come_out_in_push_order_across_lanes_and_heap)
{
    lanes3 l;
    l.push({50, 0}, 0);
    l.push({40, 1}, 1);
    l.push({40, 2}, 0);  // behind 50 in lane 0: the heap
    l.push({50, 3}, 2);
    l.push({40, 4}, 2);  // behind 50 in lane 2: the heap
    l.push({40, 5}, 1);
    EXPECT_EQ(l.out_of_order(), 2u);
    EXPECT_EQ(fire_all(l, 50), (std::vector<int>{1, 2, 4, 5, 0, 3}));
    EXPECT_TRUE(l.empty());
    EXPECT_EQ(l.armed(), lanes3::unarmed);
}

TEST(deadline_lanes, fires_due_entries_and_rearms_for_the_next)
{
    lanes3 l;
    l.push({10, 0}, 0);
    l.push({30, 1}, 0);
    l.push({20, 2}, 1);
    std::vector<int> fired;
    EXPECT_TRUE(l.expire(20, all_live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_EQ(fired, (std::vector<int>{0, 2}));
    EXPECT_EQ(l.armed(), 30u);
    EXPECT_FALSE(l.expire(30, all_live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_EQ(fired, (std::vector<int>{0, 2, 1}));
    EXPECT_TRUE(l.empty());
}

TEST(deadline_lanes, drops_moot_entries_without_firing_and_arms_for_the_first_live_one)
{
    // Timeouts at 100..500 in one lane; 100, 200 and 400 are acknowledged (moot).
    lanes3 l;
    for (int i = 1; i <= 5; ++i) l.push({uint64_t(100 * i), i}, 0);
    const std::set<int> dead{1, 2, 4};
    auto live = [&](const entry& e) { return dead.count(e.tag) == 0; };
    std::vector<int> fired;
    EXPECT_TRUE(l.expire(100, live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_TRUE(fired.empty());
    EXPECT_EQ(l.armed(), 300u);
    EXPECT_EQ(l.size(), 3u);
    EXPECT_TRUE(l.expire(300, live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_EQ(fired, (std::vector<int>{3}));
    EXPECT_EQ(l.armed(), 500u);
    EXPECT_EQ(l.size(), 1u);
}

TEST(deadline_lanes, an_entry_pushed_while_firing_is_armed_once)
{
    lanes3 l;
    l.push({10, 0}, 0);
    l.push({100, 1}, 0);
    bool armed_inside = false;
    const bool rearm = l.expire(10, all_live, [&](const entry& e) {
        if (e.tag == 0) armed_inside = l.push({60, 2}, 1);
    });
    EXPECT_TRUE(armed_inside);
    EXPECT_FALSE(rearm);
    EXPECT_EQ(l.armed(), 60u);
}

// Random lanes, timeouts and wake-up times against a sort by (deadline, push order): the order
// entries fire in, which are dropped, and every armed time.
TEST(deadline_lanes, matches_a_sorted_reference_under_random_use)
{
    std::mt19937_64 rng(15);
    for (int round = 0; round < 20; ++round) {
        lanes3 l;
        struct ref_entry
        {
            uint64_t at;
            int tag;
        };
        std::vector<ref_entry> ref;  // in push order
        std::set<int> dead;
        auto live = [&](const entry& e) { return dead.count(e.tag) == 0; };
        const uint64_t timeouts[3] = {1000, 2000, 500};
        uint64_t now = 0;
        int next_tag = 0;
        std::vector<int> fired, expected;
        size_t most_out_of_order = 0;  // the heap beside the lanes was used
        for (int step = 0; step < 400; ++step) {
            now += rng() % 200;
            random_pushes(rng, now, timeouts, [&](uint64_t at, size_t lane) {
                l.push({at, next_tag}, lane);
                ref.push_back({at, next_tag});
                ++next_tag;
            });
            most_out_of_order = std::max(most_out_of_order, l.out_of_order());
            if (!ref.empty() && rng() % 3 == 0) dead.insert(int(rng() % uint64_t(next_tag)));
            l.expire(now, live, [&](const entry& e) { fired.push_back(e.tag); });
            // The reference: due entries in (deadline, push order), live ones fire; then the
            // earliest entries that are moot go too, up to the first live one.
            std::stable_sort(ref.begin(), ref.end(),
                             [](const ref_entry& a, const ref_entry& b) { return a.at < b.at; });
            size_t i = 0;
            for (; i < ref.size(); ++i) {
                if (ref[i].at <= now) {
                    if (!dead.count(ref[i].tag)) expected.push_back(ref[i].tag);
                } else if (dead.count(ref[i].tag)) {
                    continue;
                } else {
                    break;
                }
            }
            ref.erase(ref.begin(), ref.begin() + long(i));
            ASSERT_EQ(fired, expected) << "round " << round << " step " << step;
            ASSERT_EQ(l.size(), ref.size());
            ASSERT_EQ(l.armed(), ref.empty() ? lanes3::unarmed : ref.front().at);
        }
        EXPECT_GT(most_out_of_order, 0u);
        EXPECT_GT(fired.size(), 100u);
    }
}

TEST(deadline_lanes, a_pruned_push_drops_the_moot_front_of_its_lane_and_keeps_the_armed_time)
{
    // One lane of timeouts 100..400; the first two are acknowledged before the next push.
    lanes3 l;
    for (int i = 1; i <= 4; ++i) l.push({uint64_t(100 * i), i}, 0);
    l.push({50, 9}, 1);  // another lane's entry, moot too: only the pushed-to lane is pruned
    const std::set<int> dead{1, 2, 4, 9};
    auto live = [&](const entry& e) { return dead.count(e.tag) == 0; };
    EXPECT_FALSE(l.push_pruned({500, 5}, 0, live));
    // 1 and 2 went; 3 (live) stops the pruning, so 4 stays behind it; 9 is in lane 1.
    EXPECT_EQ(l.size(), 4u);
    EXPECT_EQ(l.armed(), 50u);
    std::vector<int> fired;
    EXPECT_TRUE(l.expire(400, live, [&](const entry& e) { fired.push_back(e.tag); }));
    EXPECT_EQ(fired, (std::vector<int>{3}));
    EXPECT_EQ(l.armed(), 500u);
}

// The same random use with push() and with push_pruned(): the same entries fire in the same
// order and the same times are armed, while the pruned lanes hold fewer entries.
TEST(deadline_lanes, pruned_pushes_fire_and_arm_as_plain_ones_under_random_use)
{
    std::mt19937_64 rng(21);
    for (int round = 0; round < 20; ++round) {
        lanes3 plain, pruned;
        std::set<int> dead;
        auto live = [&](const entry& e) { return dead.count(e.tag) == 0; };
        // Timeouts long against the push rate, as a retransmission timeout is against frames.
        const uint64_t timeouts[3] = {10000, 20000, 5000};
        uint64_t now = 0;
        int next_tag = 0, acked = 0;
        std::vector<int> fired_plain, fired_pruned;
        size_t most_saved = 0;
        for (int step = 0; step < 400; ++step) {
            now += rng() % 200;
            random_pushes(rng, now, timeouts, [&](uint64_t at, size_t lane) {
                const bool a = plain.push({at, next_tag}, lane);
                const bool b = pruned.push_pruned({at, next_tag}, lane, live);
                EXPECT_EQ(a, b) << "round " << round << " step " << step;
                ++next_tag;
                // ACKs mostly come in order: the oldest entry goes moot, sometimes a later one.
                if (rng() % 4) dead.insert(acked++);
                if (rng() % 10 == 0) dead.insert(int(rng() % uint64_t(next_tag)));
            });
            ASSERT_LE(pruned.size(), plain.size());
            most_saved = std::max(most_saved, plain.size() - pruned.size());
            const bool ra =
                plain.expire(now, live, [&](const entry& e) { fired_plain.push_back(e.tag); });
            const bool rb =
                pruned.expire(now, live, [&](const entry& e) { fired_pruned.push_back(e.tag); });
            ASSERT_EQ(ra, rb) << "round " << round << " step " << step;
            ASSERT_EQ(fired_plain, fired_pruned) << "round " << round << " step " << step;
            ASSERT_EQ(plain.armed(), pruned.armed()) << "round " << round << " step " << step;
        }
        EXPECT_GT(most_saved, 50u);
        EXPECT_GT(fired_plain.size(), 50u);
    }
}
