// The model scheduler's queue without the kernel: earliest time first, and at equal time the
// order of scheduling, however the entries were interleaved with others.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "hw/kernel/wakeup_queue.h"

using namespace uetsim;

namespace {

std::vector<uint32_t> drain(wakeup_queue& q)
{
    std::vector<uint32_t> out;
    while (!q.empty()) out.push_back(q.pop().target());
    return out;
}

// xorshift64: the random tests' stream, the same on every platform.
struct xorshift
{
    uint64_t x;
    uint64_t operator()()
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    }
};

}  // namespace

TEST(wakeup_queue, earliest_time_first)
{
    wakeup_queue q;
    q.push(300, 0);
    q.push(100, 1);
    q.push(200, 2);
    EXPECT_EQ(q.top().at_ps, 100u);
    EXPECT_EQ(drain(q), (std::vector<uint32_t>{1, 2, 0}));
}

TEST(wakeup_queue, equal_times_come_out_in_scheduling_order)
{
    wakeup_queue q;
    // 50 entries at one time, interleaved with earlier and later ones and popped in between:
    // a binary heap alone would give the equal ones in an order set by its history.
    std::vector<uint32_t> expected;
    for (uint32_t i = 0; i < 50; ++i) {
        q.push(1'000, i);
        expected.push_back(i);
        q.push(500 + i, 100 + i);
        q.push(2'000 - i, 200 + i);
        if (i % 7 == 0) q.push(10, 300 + i);
    }
    while (q.top().at_ps < 1'000) q.pop();
    std::vector<uint32_t> got;
    while (!q.empty() && q.top().at_ps == 1'000) got.push_back(q.pop().target());
    EXPECT_EQ(got, expected);
    EXPECT_EQ(q.size(), 50u);  // the later ones are still there
}

TEST(wakeup_queue, each_push_has_its_own_key_naming_its_target)
{
    wakeup_queue q;
    const uint64_t first = q.push(5, 7);
    const uint64_t second = q.push(5, 7);
    const uint64_t last_target = q.push(5, uint32_t(wakeup_entry::max_targets - 1));
    EXPECT_NE(first, second);
    EXPECT_EQ(q.pop().key, first);
    const wakeup_entry e = q.pop();
    EXPECT_EQ(e.key, second);
    EXPECT_EQ(e.target(), 7u);
    EXPECT_EQ(q.pop().target(), uint32_t(wakeup_entry::max_targets - 1));
    EXPECT_NE(last_target, second);
    EXPECT_TRUE(q.empty());
}

TEST(wakeup_queue, the_late_phase_comes_after_every_early_entry_of_its_time)
{
    wakeup_queue q;
    q.push(100, 0, wakeup_queue::late_phase);  // scheduled first, but late
    q.push(100, 1);
    q.push(50, 2, wakeup_queue::late_phase);
    q.push(100, 3);
    q.push(100, 4, wakeup_queue::late_phase);
    EXPECT_EQ(drain(q), (std::vector<uint32_t>{2, 1, 3, 0, 4}));
}

TEST(wakeup_queue, the_phases_of_one_time_come_out_model_line_control_late)
{
    wakeup_queue q;
    q.push(100, 0, wakeup_queue::late_phase);
    q.push(100, 1, wakeup_queue::control_phase);
    q.push(100, 2, wakeup_queue::line_phase);
    q.push(100, 3);
    q.push(90, 4, wakeup_queue::late_phase);  // an earlier time first, whatever its phase
    EXPECT_EQ(drain(q), (std::vector<uint32_t>{4, 3, 2, 1, 0}));
}

TEST(wakeup_queue, line_and_control_places_are_the_targets_index_not_the_scheduling_order)
{
    wakeup_queue q;
    // Scheduled in reverse and again: the key is the same at every push, the order the index.
    for (uint32_t t : {7u, 5u, 3u}) q.push(100, t, wakeup_queue::line_phase);
    for (uint32_t t : {6u, 2u}) q.push(100, t, wakeup_queue::control_phase);
    EXPECT_EQ(q.reserve(5, wakeup_queue::line_phase), wakeup_queue::line_phase | 5);
    EXPECT_EQ(q.reserve(5, wakeup_queue::line_phase), q.reserve(5, wakeup_queue::line_phase));
    // One scheduled in a phase's order of scheduling comes after every place by index of it.
    q.push_key(100, q.sequenced(1, wakeup_queue::line_phase));
    EXPECT_EQ(drain(q), (std::vector<uint32_t>{3, 5, 7, 1, 2, 6}));
}

TEST(wakeup_queue, a_reserved_key_keeps_its_place_when_entered_later)
{
    wakeup_queue q;
    q.push(100, 0);
    const uint64_t held = q.reserve(1);  // a wake-up held back by its owner
    q.push(100, 2);
    q.push(90, 3);
    EXPECT_EQ(q.size(), 3u);  // a reservation is no entry
    q.push_key(100, held);    // entered after 2, comes out before it
    EXPECT_EQ(drain(q), (std::vector<uint32_t>{3, 0, 1, 2}));
    EXPECT_TRUE(wakeup_queue::before(100, held, 101, 0));
    EXPECT_FALSE(wakeup_queue::before(100, held, 100, held));
}

// Against a sorted reference: 20,000 random pushes and pops, many at equal times.
TEST(wakeup_queue, matches_a_sorted_reference_under_random_use)
{
    wakeup_queue q;
    std::vector<std::pair<uint64_t, uint32_t>> ref;  // (time, order pushed)
    xorshift rnd{12345};
    uint32_t pushed = 0;
    uint64_t now = 0;
    for (int step = 0; step < 20'000; ++step) {
        if (ref.empty() || rnd() % 3 != 0) {
            const uint64_t at = now + rnd() % 8;  // few distinct times: many ties
            q.push(at, pushed);
            ref.push_back({at, pushed++});
        } else {
            const auto it = std::min_element(ref.begin(), ref.end());
            const wakeup_entry e = q.pop();
            ASSERT_EQ(e.at_ps, it->first) << step;
            ASSERT_EQ(e.target(), it->second) << step;
            now = e.at_ps;
            ref.erase(it);
        }
        ASSERT_EQ(q.size(), ref.size());
    }
}

TEST(wakeup_queue, a_spent_top_is_taken_by_the_next_push_or_popped)
{
    wakeup_queue q;
    q.push(100, 0);
    q.push(300, 1);
    q.push(200, 2);
    EXPECT_EQ(q.spend_top().target(), 0u);
    ASSERT_NE(q.second(), nullptr);
    EXPECT_EQ(q.second()->target(), 2u);  // what comes out next if nothing earlier is pushed
    q.push(250, 3);                       // takes the spent slot
    q.push(150, 4);
    q.finish_top();  // nothing left to pop: the push took it
    EXPECT_EQ(drain(q), (std::vector<uint32_t>{4, 2, 3, 1}));

    q.push(10, 5);
    q.push(20, 6);
    EXPECT_EQ(q.spend_top().target(), 5u);
    q.finish_top();  // no push while spent: popped
    EXPECT_EQ(drain(q), (std::vector<uint32_t>{6}));
    EXPECT_EQ(q.second(), nullptr);
}

// The scheduler's use: the top is spent while its handler pushes 0 to 3 entries (none in its
// past); the order out must be that of a pop followed by those pushes, against a sorted reference.
TEST(wakeup_queue, spending_the_top_matches_pop_then_push_under_random_use)
{
    wakeup_queue q;
    std::vector<std::pair<uint64_t, uint32_t>> ref;
    xorshift rnd{987654321};
    uint32_t pushed = 0;
    auto push = [&](uint64_t at) {
        q.push(at, pushed);
        ref.push_back({at, pushed++});
    };
    for (int i = 0; i < 50; ++i) push(rnd() % 16);
    for (int step = 0; step < 20'000 && !ref.empty(); ++step) {
        const auto it = std::min_element(ref.begin(), ref.end());
        const wakeup_entry e = q.spend_top();
        ASSERT_EQ(e.at_ps, it->first) << step;
        ASSERT_EQ(e.target(), it->second) << step;
        ref.erase(it);
        const auto* next = q.second();
        if (next && !ref.empty()) {
            // With nothing pushed, the second entry is the next one out.
            const auto n = std::min_element(ref.begin(), ref.end());
            EXPECT_EQ(next->target(), n->second) << step;
        }
        const uint64_t pushes = ref.size() < 20 ? 1 + rnd() % 3 : rnd() % 3;
        for (uint64_t k = 0; k < pushes; ++k) push(e.at_ps + rnd() % 8);  // ties included
        q.finish_top();
        ASSERT_EQ(q.size(), ref.size()) << step;
    }
}
