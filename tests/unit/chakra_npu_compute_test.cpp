// A rank's NPU compute without the kernel: the page's worked example, staggered and three-way
// sharing worked out by hand, zero-duration nodes, the collected family, and many random nodes
// against a continuous processor-sharing reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "testbench/traffic/chakra/npu_compute.h"

using namespace uetsim::chakra;

namespace {

constexpr uint64_t us = 1'000'000;  // ps

// Runs the model to the end: every node's finish time, in ps.
std::map<uint64_t, uint64_t> run_out(npu_compute& npu)
{
    std::map<uint64_t, uint64_t> at;
    while (auto t = npu.next_finish_ps()) {
        std::vector<uint64_t> done;
        npu.finish_due(*t, done);
        EXPECT_FALSE(done.empty());
        for (uint64_t n : done) EXPECT_TRUE(at.emplace(n, *t).second) << "node " << n << " twice";
    }
    return at;
}

}  // namespace

// The page's worked example: two 10 us nodes start together at 0 us.
TEST(chakra_npu_compute, worked_example_shared)
{
    npu_compute npu(true);
    npu.start(1, work_ps_from_micros(10), 0);
    npu.start(2, work_ps_from_micros(10), 0);
    EXPECT_EQ(npu.running(), 2u);
    // 10 us of work each x 2 running = 20 us.
    EXPECT_EQ(npu.next_finish_ps(), 20 * us);
    std::vector<uint64_t> done;
    npu.finish_due(20 * us - 1, done);
    EXPECT_TRUE(done.empty());
    npu.finish_due(20 * us, done);
    EXPECT_EQ(done, (std::vector<uint64_t>{1, 2}));  // equal times in start order
    EXPECT_EQ(npu.running(), 0u);
    EXPECT_FALSE(npu.next_finish_ps());
}

TEST(chakra_npu_compute, worked_example_collected)
{
    npu_compute npu(false);
    npu.start(1, 10 * us, 0);
    npu.start(2, 10 * us, 0);
    EXPECT_EQ(npu.next_finish_ps(), 10 * us);
    std::vector<uint64_t> done;
    npu.finish_due(10 * us, done);
    EXPECT_EQ(done, (std::vector<uint64_t>{1, 2}));
}

// A (10 us) at 0, B (10 us) at 5 us.
//   0-5 us:   A alone, 5 us of work done; A has 5 us left.
//   at 5 us:  2 running: A's time left = 5 x 2 = 10 us -> 15 us; B's = 10 x 2 = 20 us.
//   at 15 us: A finishes; B has had 5 us of work (10 us at half the NPU) and has 5 us left.
//   15-20 us: B alone -> finishes at 20 us. Busy 0-20 us = 10 + 10 us of work.
TEST(chakra_npu_compute, staggered_starts)
{
    npu_compute npu(true);
    npu.start(1, 10 * us, 0);
    EXPECT_EQ(npu.next_finish_ps(), 10 * us);
    npu.start(2, 10 * us, 5 * us);
    EXPECT_EQ(npu.next_finish_ps(), 15 * us);
    auto at = run_out(npu);
    EXPECT_EQ(at[1], 15 * us);
    EXPECT_EQ(at[2], 20 * us);

    // Collected: each finishes its duration after its start.
    npu_compute col(false);
    col.start(1, 10 * us, 0);
    col.start(2, 10 * us, 5 * us);
    at = run_out(col);
    EXPECT_EQ(at[1], 10 * us);
    EXPECT_EQ(at[2], 15 * us);
}

// A 3 us, B 6 us, C 9 us, all at 0.
//   0 us:  3 running; A's time left = 3 x 3 = 9 us -> A finishes at 9 us (each has had 3 us).
//   9 us:  2 running; B has 3 us left: 3 x 2 = 6 us -> 15 us (C has had 6 us).
//   15 us: C alone, 3 us left -> 18 us = 3 + 6 + 9.
TEST(chakra_npu_compute, three_nodes_together)
{
    npu_compute npu(true);
    npu.start(1, 3 * us, 0);
    npu.start(2, 6 * us, 0);
    npu.start(3, 9 * us, 0);
    EXPECT_EQ(npu.next_finish_ps(), 9 * us);
    auto at = run_out(npu);
    EXPECT_EQ(at[1], 9 * us);
    EXPECT_EQ(at[2], 15 * us);
    EXPECT_EQ(at[3], 18 * us);
}

// A 10 us at 0, B 10 us at 5 us, C 4 us at 7 us.
//   at 5 us:  A has 5 us left.
//   5-7 us:   2 running, 1 us of work each: A 4 us left, B 9 us left.
//   at 7 us:  3 running; A and C have 4 us left: 4 x 3 = 12 us -> both at 19 us.
//   at 19 us: B has had 4 more: 5 us left, alone -> 24 us = 10 + 10 + 4.
TEST(chakra_npu_compute, three_nodes_staggered)
{
    npu_compute npu(true);
    npu.start(1, 10 * us, 0);
    npu.start(2, 10 * us, 5 * us);
    npu.start(3, 4 * us, 7 * us);
    EXPECT_EQ(npu.next_finish_ps(), 19 * us);
    std::vector<uint64_t> done;
    npu.finish_due(19 * us, done);
    EXPECT_EQ(done, (std::vector<uint64_t>{1, 3}));
    EXPECT_EQ(npu.next_finish_ps(), 24 * us);
}

// Where the exact instant falls inside a ps: A and B (1 ps each) at 0, C (1 ps) at 1 ps.
//   at 1 ps:  A and B have had 1/2 ps each.
//   1-2.5 ps: 3 running, A and B need 1/2 each: 3 x 1/2 = 1.5 ps -> done at 2.5 ps, reported 3 ps.
//   2.5-3 ps: C (1/2 ps left after 1.5 ps at a third) alone -> done at 3 ps = 1 + 1 + 1.
TEST(chakra_npu_compute, finish_inside_a_ps_is_rounded_up_once)
{
    npu_compute npu(true);
    npu.start(1, 1, 0);
    npu.start(2, 1, 0);
    EXPECT_EQ(npu.next_finish_ps(), 2u);
    npu.start(3, 1, 1);
    EXPECT_EQ(npu.next_finish_ps(), 3u);
    std::vector<uint64_t> done;
    npu.finish_due(2, done);
    EXPECT_TRUE(done.empty());
    npu.finish_due(3, done);
    EXPECT_EQ(done, (std::vector<uint64_t>{1, 2, 3}));
}

TEST(chakra_npu_compute, zero_duration_finishes_at_once)
{
    for (bool shared : {true, false}) {
        npu_compute npu(shared);
        npu.start(1, 10 * us, 0);
        npu.start(2, 0, 3 * us);  // joins, takes nothing, leaves
        EXPECT_EQ(npu.next_finish_ps(), 3 * us);
        std::vector<uint64_t> done;
        npu.finish_due(3 * us, done);
        EXPECT_EQ(done, (std::vector<uint64_t>{2}));
        // It took no share: node 1 still finishes after its 10 us alone.
        EXPECT_EQ(npu.next_finish_ps(), 10 * us);
    }
    npu_compute idle(true);
    idle.start(7, 0, 42);
    EXPECT_EQ(idle.next_finish_ps(), 42u);
    std::vector<uint64_t> done;
    idle.finish_due(42, done);
    EXPECT_EQ(done, (std::vector<uint64_t>{7}));
    EXPECT_FALSE(idle.next_finish_ps());
}

// A start at the very ps a node finishes, before the owner collects it: the finished node is
// out before the new one shares, and is still handed out at its own time.
TEST(chakra_npu_compute, start_at_a_finish_time)
{
    npu_compute npu(true);
    npu.start(1, 10 * us, 0);
    npu.start(2, 10 * us, 10 * us);
    EXPECT_EQ(npu.running(), 1u);
    EXPECT_EQ(npu.next_finish_ps(), 10 * us);
    std::vector<uint64_t> done;
    npu.finish_due(10 * us, done);
    EXPECT_EQ(done, (std::vector<uint64_t>{1}));
    EXPECT_EQ(npu.next_finish_ps(), 20 * us);
    EXPECT_THROW(npu.start(3, 1, 10 * us - 1), std::invalid_argument);
}

TEST(chakra_npu_compute, idle_gap_starts_afresh)
{
    npu_compute npu(true);
    npu.start(1, 3, 0);
    npu.start(2, 3, 0);
    auto at = run_out(npu);
    EXPECT_EQ(at[1], 6u);
    npu.start(3, 5, 100);
    npu.start(4, 5, 100);
    at = run_out(npu);
    EXPECT_EQ(at[3], 110u);
    EXPECT_EQ(at[4], 110u);
}

// Many nodes with random works and arrivals, the NPU never idle: the NPU delivers one ps of work
// per ps, so the last finish is the sum of the works. Each finish is also within a ps of a
// continuous processor-sharing reference run with the same start times.
TEST(chakra_npu_compute, random_nodes_conserve_work)
{
    std::mt19937_64 rng(18760);
    std::uniform_int_distribution<uint64_t> work_of(0, 5 * us);
    std::uniform_int_distribution<uint64_t> gap_of(0, 3 * us);
    constexpr uint64_t k_nodes = 3000;

    npu_compute npu(true);
    std::vector<uint64_t> work(k_nodes), start_at(k_nodes), finish_at(k_nodes, UINT64_MAX);
    uint64_t total = 0, now = 0, next = 0, finished = 0;
    size_t peak = 0;
    for (uint64_t i = 0; i < k_nodes; ++i) work[i] = i % 17 == 0 ? 0 : work_of(rng) + 1;
    for (uint64_t w : work) total += w;
    while (finished < k_nodes) {
        auto nf = npu.next_finish_ps();
        // The next start comes after a random gap, or at once if the NPU would go idle.
        uint64_t start_time = next == k_nodes ? UINT64_MAX : nf ? now + gap_of(rng) : now;
        if (nf && *nf < start_time) {
            now = *nf;
            std::vector<uint64_t> done;
            npu.finish_due(now, done);
            for (uint64_t n : done) finish_at[n] = now;
            finished += done.size();
            if (npu.running() > 0 || next == k_nodes) continue;
            start_time = now;
        }
        now = start_time;
        start_at[next] = now;
        npu.start(next, work[next], now);
        ++next;
        peak = std::max(peak, npu.running());
    }
    EXPECT_EQ(*std::max_element(finish_at.begin(), finish_at.end()), total);
    EXPECT_GT(peak, 3u);

    // The reference: remaining work in long double, finishes at their exact instants.
    std::vector<long double> left(k_nodes);
    std::vector<uint64_t> running;
    long double t = 0;
    uint64_t k = 0;
    size_t checked = 0;
    while (k < k_nodes || !running.empty()) {
        long double t_finish = INFINITY;
        uint64_t min_node = 0;
        for (uint64_t n : running) {
            long double f = t + left[n] * running.size();
            if (f < t_finish) t_finish = f, min_node = n;
        }
        const long double t_start = k < k_nodes ? (long double)start_at[k] : INFINITY;
        const long double t_next = std::min(t_finish, t_start);
        for (uint64_t n : running) left[n] -= (t_next - t) / running.size();
        t = t_next;
        if (t_finish <= t_start) {
            for (size_t i = 0; i < running.size();) {
                uint64_t n = running[i];
                if (n == min_node || left[n] <= 1e-9L) {
                    EXPECT_GE((long double)finish_at[n], t - 1e-3L) << "node " << n;
                    EXPECT_LT((long double)finish_at[n], t + 1 + 1e-3L) << "node " << n;
                    ++checked;
                    running[i] = running.back();
                    running.pop_back();
                } else {
                    ++i;
                }
            }
        } else {
            left[k] = work[k];
            running.push_back(k++);
        }
    }
    EXPECT_EQ(checked, k_nodes);
}

// Many nodes started together: in start order when their works are equal, and the k-th
// smallest work w_k finishes at sum over j of min(w_j, w_k).
TEST(chakra_npu_compute, many_together)
{
    npu_compute npu(true);
    std::vector<uint64_t> w;
    for (uint64_t i = 0; i < 50; ++i) w.push_back((i % 7 + 1) * us / 3);
    for (uint64_t i = 0; i < w.size(); ++i) npu.start(i, w[i], 0);
    auto at = run_out(npu);
    for (uint64_t i = 0; i < w.size(); ++i) {
        uint64_t expect = 0;
        for (uint64_t wj : w) expect += std::min(wj, w[i]);
        EXPECT_EQ(at[i], expect) << "node " << i;
    }
}
