// The SACK tracker RTL block (rtl/sack_tracker/sack_tracker.sv) against its C++ model, the
// pdc_receiver per slot of uetsim::sack_tracker (hw/nic/uet/sack_tracker.h): worked examples,
// a constrained-random run of more than a million requests through the engine in `both` mode
// (every answer and state summary compared by the lockstep checker, every path counted), the
// limits (WINDOW, CONTEXTS), and the test-only mutants each caught (docs/rtl.md).

// Verilated headers first (STYLE.md P13).
#include "Vsack_tracker.h"
#include "Vsack_tracker_mutant_advance_early.h"
#include "Vsack_tracker_mutant_dup_beyond.h"
#include "Vsack_tracker_mutant_sack_index.h"
#include "Vsack_tracker_mutant_stale_summary.h"
#include "Vsack_tracker_mutant_wrap_unsigned.h"
#include "rtl/sack_tracker/sack_tracker_block.h"

#include <gtest/gtest.h>

#include <systemc>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/nic/uet/pdc_receiver.h"
#include "rtl/common/rtl_mismatch.h"
#include "rtl/sack_tracker/sack_tracker_rtl.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

using arrival = pdc_receiver::arrival;
constexpr uint32_t contexts = 4096;
constexpr uint32_t window = 4096;

// Records mismatches instead of stopping (the default handler raises an SC error).
struct mismatch_recorder
{
    std::vector<rtl_mismatch> seen;
    mismatch_recorder()
    {
        set_rtl_mismatch_handler([this](const rtl_mismatch& m) { seen.push_back(m); });
    }
    ~mismatch_recorder() { set_rtl_mismatch_handler(nullptr); }
};

template <class V>
std::unique_ptr<rtl_sack_tracker_core> core_of(const std::string& name)
{
    return std::make_unique<sack_tracker_block<V>>(name);
}

// Every path the stimulus took, counted from the model's state before each request.
struct path_counts
{
    uint64_t requests = 0, opens = 0, reopens = 0, closes = 0, acks = 0;
    uint64_t in_order = 0, out_of_order = 0, dup_below = 0, dup_beyond = 0;
    uint64_t wraps = 0;                 // expected PSNs that crossed 2^32 - 1 -> 0
    uint64_t advances_64 = 0;           // in-order arrivals that retired more than 64 PSNs
    uint64_t advances_1024 = 0;         // ... more than 1024
    uint64_t advances_near_window = 0;  // ... at least WINDOW - 64
    uint64_t multi_block_acks = 0;      // ACKs that reported a block beyond the first
    uint64_t walk_restarts = 0;         // ACKs back at block 0 after a later block
    uint64_t max_slot = 0;
    uint64_t max_distance = 0;  // farthest PSN beyond the expected one
};

// The constrained-random stimulus. Each open slot is a flow: a sender that hands PSNs to a
// reorder buffer of `depth` (1: in order, then sometimes its head held back while up to
// WINDOW - 2 later PSNs arrive: a long hole filled late; up to WINDOW - 1), with duplicate storms
// (old PSNs below the CACK and repeats of PSNs held beyond it) and ACKs at random. First PSNs are
// often just below 2^32 so that flows wrap. A PSN is never WINDOW or more beyond the expected one
// (the RTL's limit, tested apart).
class stimulus
{
public:
    stimulus(sack_tracker& t, uint64_t seed) : m_t(t), m_rng(seed), m_flows(contexts) {}

    path_counts counts;

    // Opens every slot once (each RTL context is opened and checked), then closes all but a few.
    void open_all_then_thin(unsigned keep)
    {
        while (m_t.in_use() < m_t.contexts()) open_one();
        std::vector<uint32_t> open = open_slots();
        std::shuffle(open.begin(), open.end(), m_rng);
        for (size_t i = keep; i < open.size(); ++i) close_one(open[i]);
    }

    // One request. `target` flows kept open on average.
    void step(unsigned target)
    {
        const unsigned r = unsigned(m_rng() % 1000);
        if (m_t.in_use() == 0 || (r < 4 && m_t.in_use() < target * 2) ||
            (m_t.in_use() < target && r < 40)) {
            open_one();
            return;
        }
        const uint32_t slot = random_open_slot();
        if (r < 8 && m_t.in_use() > 1 && m_flows[slot].run_left == 0) {  // long holes complete
            close_one(slot);
            return;
        }
        if (r < 160) {
            ack(slot);
            return;
        }
        data(slot);
    }

private:
    struct flow
    {
        bool open = false;
        bool used = false;
        size_t index = 0;               // in m_open
        uint32_t next = 0;              // next PSN the sender hands out
        std::vector<uint32_t> pending;  // handed out, not delivered
        std::vector<uint32_t> recent;   // delivered lately (repeats for duplicate storms)
        uint32_t depth = 1;
        bool holes = false;     // in order, with long holes filled late
        uint32_t run_left = 0;  // holes: PSNs still to pass the held-back head
        uint32_t storm_left = 0;
        uint32_t last_base = 0;      // the previous ACK's SACK base ...
        uint32_t last_expected = 0;  // ... and expected PSN
    };

    std::vector<uint32_t> open_slots() const
    {
        std::vector<uint32_t> v;
        for (uint32_t s = 0; s < m_flows.size(); ++s)
            if (m_flows[s].open) v.push_back(s);
        return v;
    }

    uint32_t random_open_slot() { return m_open[m_rng() % m_open.size()]; }

    void open_one()
    {
        const unsigned kind = unsigned(m_rng() % 4);
        uint32_t first = uint32_t(m_rng());
        if (kind < 2) first = 0xFFFFFFFFu - uint32_t(m_rng() % 30000);  // wraps soon
        if (kind == 2) first = 0xFFFFFFFFu - uint32_t(m_rng() % 8);
        const auto slot = m_t.open(first);
        ASSERT_TRUE(slot.has_value());
        flow& f = m_flows[*slot];
        if (f.used) ++counts.reopens;
        f = flow{};
        f.open = f.used = true;
        f.index = m_open.size();
        m_open.push_back(*slot);
        f.next = first;
        // 0: an in-order flow with long holes filled late.
        static constexpr uint32_t depths[] = {1, 1, 1,  1,  1,  0,   0,    0,    0,   2,
                                              3, 8, 32, 64, 65, 200, 1000, 2500, 4095};
        f.depth = depths[m_rng() % (sizeof depths / sizeof depths[0])];
        // At most 12 open at once: they stay open while a hole is held (see step()).
        f.holes = f.depth == 0 && m_hole_flows < 12;
        if (f.depth == 0) f.depth = 1;
        if (f.holes) ++m_hole_flows;
        counts.max_slot = std::max<uint64_t>(counts.max_slot, *slot);
        ++counts.opens;
        ++counts.requests;
    }

    void close_one(uint32_t slot)
    {
        m_t.close(slot);
        m_flows[slot].open = false;
        const size_t i = m_flows[slot].index;
        m_open[i] = m_open.back();
        m_flows[m_open[i]].index = i;
        m_open.pop_back();
        if (m_flows[slot].holes) --m_hole_flows;
        ++counts.closes;
        ++counts.requests;
    }

    void ack(uint32_t slot)
    {
        const uint32_t expected = m_t.receiver(slot).expected();
        const sack_ack_fields a = m_t.next_ack(slot);
        flow& f = m_flows[slot];
        if (a.sack_base != expected) ++counts.multi_block_acks;
        // Back at block 0 after a later block, the CACK unmoved: the walk started over.
        if (a.sack_base == expected && f.last_expected == expected && f.last_base != expected)
            ++counts.walk_restarts;
        f.last_base = a.sack_base;
        f.last_expected = expected;
        ++counts.acks;
        ++counts.requests;
    }

    void deliver(uint32_t slot, uint32_t psn)
    {
        const pdc_receiver& rx = m_t.receiver(slot);
        const uint32_t before = rx.expected();
        const int32_t d = int32_t(psn - before);
        counts.max_distance = std::max<uint64_t>(counts.max_distance, d > 0 ? uint64_t(d) : 0);
        const sack_arrival a = m_t.on_data(slot, psn);
        const uint32_t after = rx.expected();
        switch (a.kind) {
            case arrival::in_order: {
                ++counts.in_order;
                if (after < before) ++counts.wraps;
                const uint32_t k = after - before;
                if (k > 64) ++counts.advances_64;
                if (k > 1024) ++counts.advances_1024;
                if (k >= window - 64) ++counts.advances_near_window;
                break;
            }
            case arrival::out_of_order:
                ++counts.out_of_order;
                break;
            case arrival::duplicate:
                ++(d < 0 ? counts.dup_below : counts.dup_beyond);
                break;
        }
        ++counts.requests;
        flow& f = m_flows[slot];
        if (f.recent.size() < 64)
            f.recent.push_back(psn);
        else
            f.recent[m_rng() % 64] = psn;
    }

    void data(uint32_t slot)
    {
        flow& f = m_flows[slot];
        const uint32_t expected = m_t.receiver(slot).expected();
        if (f.storm_left == 0 && m_rng() % 2000 == 0) f.storm_left = 20 + uint32_t(m_rng() % 200);
        const unsigned dup_percent = f.storm_left ? 80 : 4;
        if (f.storm_left) --f.storm_left;
        if (m_rng() % 100 < dup_percent) {
            if (m_rng() % 3 == 0) {
                // An old PSN: below the expected one, by up to a few thousand.
                deliver(slot, expected - 1 - uint32_t(m_rng() % 3000));
                return;
            }
            // A repeat of a PSN delivered lately: beyond the CACK if it is still held.
            if (!f.recent.empty()) {
                deliver(slot, f.recent[m_rng() % f.recent.size()]);
                return;
            }
        }
        // In-order flows now and then hold their head PSN back while up to WINDOW - 2 later
        // ones arrive in order (a long hole filled late: one advance over the whole run).
        if (f.holes && f.run_left == 0 && m_rng() % 16 == 0) {
            f.run_left = m_rng() % 4 == 0 ? window - 2 - uint32_t(m_rng() % 64)
                                          : 1 + uint32_t(m_rng() % (window - 2));
            if (f.pending.empty()) f.pending.push_back(f.next++);
        }
        if (f.run_left) {
            --f.run_left;
            if (f.run_left && f.next - expected < window - 1) {
                deliver(slot, f.next++);
                return;
            }
            f.run_left = 0;  // the hole (the only pending PSN) fills now
        }
        // Top up the reorder buffer, never WINDOW or more beyond the expected PSN.
        while (f.pending.size() < f.depth && f.next - expected < window - 1)
            f.pending.push_back(f.next++);
        if (f.pending.empty()) {
            deliver(slot, expected - 1);  // nothing to send: a stray old copy
            return;
        }
        const size_t i = m_rng() % f.pending.size();
        const uint32_t psn = f.pending[i];
        f.pending[i] = f.pending.back();
        f.pending.pop_back();
        deliver(slot, psn);
    }

    sack_tracker& m_t;
    std::mt19937_64 m_rng;
    std::vector<flow> m_flows;
    std::vector<uint32_t> m_open;  // the open slots, in no order
    unsigned m_hole_flows = 0;
};

// Runs the stimulus through a tracker in `both` mode until `n` requests or the first mismatch.
template <class V>
path_counts run_random(uint64_t n, uint64_t seed, mismatch_recorder& rec, sack_tracker_rtl** out,
                       std::unique_ptr<sack_tracker_rtl>& keep)
{
    keep = std::make_unique<sack_tracker_rtl>("host3.sack_tracker", contexts, rtl_mode::both,
                                              core_of<V>("host3.sack_tracker"));
    *out = keep.get();
    stimulus stim(*keep, seed);
    stim.open_all_then_thin(48);
    while (stim.counts.requests < n && rec.seen.empty()) stim.step(48);
    return stim.counts;
}

sack_tracker_rtl make_both()
{
    return sack_tracker_rtl("host0.sack_tracker", 16, rtl_mode::both);
}

}  // namespace

// Worked example (docs/rtl.md): PDC opened at PSN 100; 103 arrives first (held, span 4: offsets
// 0..3 may be set), the ACK's bitmap has bit 3; 100 fills the head (CACK 100); 102 is held; 101
// fills the hole and the CACK jumps over 102 and 103 to 103. Then duplicates on both sides.
TEST(sack_tracker_rtl, worked_example_cack_sack_and_duplicates)
{
    mismatch_recorder rec;
    sack_tracker_rtl t = make_both();
    const uint32_t s = *t.open(100);
    EXPECT_EQ(t.last_rtl_response().cack, 99u);

    EXPECT_EQ(t.on_data(s, 103).kind, arrival::out_of_order);
    EXPECT_EQ(t.last_rtl_response().arrival, 1u);
    EXPECT_EQ(t.last_rtl_response().cack, 99u);
    EXPECT_EQ(t.last_rtl_response().held, 1u);
    EXPECT_EQ(t.last_rtl_response().span, 4u);

    const sack_ack_fields a = t.next_ack(s);
    EXPECT_EQ(a.cack, 99u);
    EXPECT_EQ(a.sack_base, 100u);
    EXPECT_EQ(a.sack_bitmap, 0x8u);
    EXPECT_EQ(t.last_rtl_response().sack_base, 100u);
    EXPECT_EQ(t.last_rtl_response().sack_bitmap, 0x8u);

    EXPECT_EQ(t.on_data(s, 100).cack, 100u);
    EXPECT_EQ(t.last_rtl_response().cack, 100u);
    EXPECT_EQ(t.last_rtl_response().span, 3u);
    EXPECT_EQ(t.on_data(s, 102).kind, arrival::out_of_order);
    EXPECT_EQ(t.on_data(s, 102).kind, arrival::duplicate);  // beyond the CACK
    EXPECT_EQ(t.last_rtl_response().arrival, 2u);
    EXPECT_EQ(t.last_rtl_response().held, 2u);
    const sack_arrival fill = t.on_data(s, 101);
    EXPECT_EQ(fill.kind, arrival::in_order);
    EXPECT_EQ(fill.cack, 103u);
    EXPECT_EQ(t.last_rtl_response().cack, 103u);
    EXPECT_EQ(t.last_rtl_response().held, 0u);
    EXPECT_EQ(t.last_rtl_response().span, 0u);
    EXPECT_EQ(t.on_data(s, 50).kind, arrival::duplicate);  // below the CACK
    EXPECT_EQ(t.last_rtl_response().arrival, 2u);

    // Nothing held: the ACK's bitmap is empty and based at the expected PSN.
    const sack_ack_fields b = t.next_ack(s);
    EXPECT_EQ(b.sack_base, 104u);
    EXPECT_EQ(b.sack_bitmap, 0u);
    EXPECT_EQ(t.last_rtl_response().sack_base, 104u);

    EXPECT_EQ(t.latency_cycles(), 4u);
    EXPECT_EQ(t.latency_cycles(), sack_tracker_latency_cycles);  // the exported constant
    EXPECT_EQ(t.window(), window);
    EXPECT_TRUE(rec.seen.empty()) << rec.seen[0].text();
    EXPECT_EQ(t.checked(), t.requests());
    EXPECT_EQ(t.requests(), 9u);
}

// The SACK walk: span 200 beyond the CACK = 4 blocks of 64 (the last one partial); successive
// ACKs report blocks 0, 1, 2, 3, then 0 again, each base 64 PSNs further, each bitmap the PSNs
// held in it. Across the PSN wrap.
TEST(sack_tracker_rtl, sack_walk_visits_each_block_within_the_span_then_starts_over)
{
    mismatch_recorder rec;
    sack_tracker_rtl t = make_both();
    const uint32_t first = 0xFFFFFFC0u;  // the second block starts at PSN 0
    const uint32_t s = *t.open(first);
    for (uint32_t off : {1u, 63u, 64u, 130u, 199u}) t.on_data(s, first + off);
    EXPECT_EQ(t.last_rtl_response().span, 200u);
    const uint64_t want[4] = {(uint64_t(1) << 1) | (uint64_t(1) << 63), 1u, uint64_t(1) << 2,
                              uint64_t(1) << 7};
    for (int round = 0; round < 2; ++round) {
        for (uint32_t b = 0; b < 4; ++b) {
            const sack_ack_fields a = t.next_ack(s);
            EXPECT_EQ(a.sack_base, first + 64 * b) << "block " << b;
            EXPECT_EQ(a.sack_bitmap, want[b]) << "block " << b;
            EXPECT_EQ(t.last_rtl_response().sack_base, first + 64 * b);
            EXPECT_EQ(t.last_rtl_response().sack_bitmap, want[b]);
        }
    }
    EXPECT_EQ(t.receiver(s).out_of_order_held(), 5u);
    EXPECT_TRUE(rec.seen.empty()) << rec.seen[0].text();
}

// The longest advance the RTL can make: all WINDOW - 1 PSNs beyond the expected one held (in
// random order), then the head arrives and the CACK moves WINDOW PSNs at once; the window is
// empty afterwards and the next WINDOW - 1 can be held again.
TEST(sack_tracker_rtl, a_full_window_retires_in_one_advance)
{
    mismatch_recorder rec;
    sack_tracker_rtl t = make_both();
    const uint32_t first = 0xFFFFF000u + 17;
    const uint32_t s = *t.open(first);
    std::mt19937 rng(3);
    for (int round = 0; round < 3; ++round) {
        const uint32_t e = t.receiver(s).expected();
        std::vector<uint32_t> psns;
        for (uint32_t i = 1; i < window; ++i) psns.push_back(e + i);
        std::shuffle(psns.begin(), psns.end(), rng);
        for (uint32_t p : psns) ASSERT_EQ(t.on_data(s, p).kind, arrival::out_of_order);
        EXPECT_EQ(t.last_rtl_response().held, window - 1);
        EXPECT_EQ(t.last_rtl_response().span, window);
        t.next_ack(s);
        const sack_arrival a = t.on_data(s, e);
        EXPECT_EQ(a.kind, arrival::in_order);
        EXPECT_EQ(a.cack, e + window - 1);
        EXPECT_EQ(t.last_rtl_response().cack, e + window - 1);
        EXPECT_EQ(t.last_rtl_response().held, 0u);
        EXPECT_EQ(t.last_rtl_response().span, 0u);
    }
    EXPECT_TRUE(rec.seen.empty()) << rec.seen[0].text();
}

// Over a million constrained-random requests through the engine in `both` mode: no mismatch in
// any answer or state summary, and every path taken many times.
TEST(sack_tracker_rtl, matches_model_on_a_million_random_requests)
{
    mismatch_recorder rec;
    sack_tracker_rtl* t = nullptr;
    std::unique_ptr<sack_tracker_rtl> keep;
    const auto start = std::chrono::steady_clock::now();
    const path_counts c = run_random<Vsack_tracker>(1'000'000, 0x5AC7, rec, &t, keep);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(rec.seen.empty()) << rec.seen[0].text();
    std::printf(
        "requests %llu in %.2f s: in_order %llu out_of_order %llu dup_below %llu "
        "dup_beyond %llu acks %llu multi_block_acks %llu walk_restarts %llu wraps %llu "
        "advances>64 %llu >1024 %llu >=W-64 %llu opens %llu reopens %llu closes %llu "
        "max_slot %llu max_distance %llu\n",
        (unsigned long long)c.requests, secs, (unsigned long long)c.in_order,
        (unsigned long long)c.out_of_order, (unsigned long long)c.dup_below,
        (unsigned long long)c.dup_beyond, (unsigned long long)c.acks,
        (unsigned long long)c.multi_block_acks, (unsigned long long)c.walk_restarts,
        (unsigned long long)c.wraps, (unsigned long long)c.advances_64,
        (unsigned long long)c.advances_1024, (unsigned long long)c.advances_near_window,
        (unsigned long long)c.opens, (unsigned long long)c.reopens, (unsigned long long)c.closes,
        (unsigned long long)c.max_slot, (unsigned long long)c.max_distance);
    EXPECT_GE(c.requests, 1'000'000u);
    EXPECT_EQ(t->requests(), c.requests);
    EXPECT_EQ(t->checked(), c.requests);
    EXPECT_EQ(t->mismatches(), 0u);
    EXPECT_GT(c.in_order, 200'000u);
    EXPECT_GT(c.out_of_order, 200'000u);
    EXPECT_GT(c.dup_below, 20'000u);
    EXPECT_GT(c.dup_beyond, 10'000u);
    EXPECT_GT(c.acks, 100'000u);
    EXPECT_GT(c.multi_block_acks, 20'000u);
    EXPECT_GT(c.walk_restarts, 5'000u);
    EXPECT_GE(c.wraps, 100u);
    EXPECT_GT(c.advances_64, 100u);
    EXPECT_GT(c.advances_1024, 10u);
    EXPECT_GE(c.advances_near_window, 5u);
    EXPECT_EQ(c.max_slot, contexts - 1);  // every context slot of the RTL was used
    EXPECT_GT(c.reopens, 1'000u);
    EXPECT_GT(c.closes, 1'000u);
    EXPECT_GE(c.max_distance, window - 64);  // deep reorder buffers reach the RTL's limit
    EXPECT_LT(c.max_distance, window);
}

// A PSN WINDOW or more beyond the expected one is out of the RTL's reach: WINDOW - 1 is fine;
// WINDOW stops the run with an error naming the limit (the model would have taken it).
TEST(sack_tracker_rtl, a_psn_beyond_the_window_stops_the_run_naming_the_limit)
{
    sack_tracker_rtl t("host5.sack_tracker", 4, rtl_mode::rtl);
    const uint32_t s = *t.open(0xFFFFFFFEu);
    EXPECT_EQ(t.on_data(s, 0xFFFFFFFEu + window - 1).kind, arrival::out_of_order);
    EXPECT_FALSE(t.last_rtl_response().out_of_window);
    std::string error;
    try {
        t.on_data(s, 0xFFFFFFFEu + window);
    } catch (const std::runtime_error& e) {
        error = e.what();
    }
    EXPECT_TRUE(t.last_rtl_response().out_of_window);
    EXPECT_NE(error.find("host5.sack_tracker"), std::string::npos) << error;
    EXPECT_NE(error.find("4096 PSNs beyond the expected PSN"), std::string::npos) << error;
    EXPECT_NE(error.find("WINDOW = 4096"), std::string::npos) << error;
}

// UetNic.SackContexts above the RTL's CONTEXTS is refused, naming the key and the limit; `rtl`
// mode returns the RTL's answers.
TEST(sack_tracker_rtl, contexts_limit_and_rtl_mode)
{
    try {
        sack_tracker_rtl t("host0.sack_tracker", contexts + 1, rtl_mode::rtl);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("UetNic.SackContexts"), std::string::npos) << m;
        EXPECT_NE(m.find("4097"), std::string::npos) << m;
        EXPECT_NE(m.find("CONTEXTS (4096"), std::string::npos) << m;
    }
    EXPECT_THROW(sack_tracker_rtl("host0.sack_tracker", 4, rtl_mode::model), std::invalid_argument);

    sack_tracker_rtl t("host0.sack_tracker", contexts, rtl_mode::rtl);
    for (uint32_t i = 0; i < contexts; ++i) ASSERT_EQ(t.open(i * 7), std::optional<uint32_t>(i));
    EXPECT_FALSE(t.open(1).has_value());
    const uint32_t s = contexts - 1;
    const uint32_t first = (contexts - 1) * 7;
    EXPECT_EQ(t.on_data(s, first + 5).kind, arrival::out_of_order);
    const sack_ack_fields a = t.next_ack(s);
    EXPECT_EQ(a.sack_bitmap, uint64_t(1) << 5);
    EXPECT_EQ(a.sack_base, first);
    EXPECT_EQ(t.checked(), 0u);  // rtl mode compares nothing
    EXPECT_EQ(t.requests(), contexts + 2);
    t.close(s);
    EXPECT_EQ(t.open(9), std::optional<uint32_t>(s));  // reopened: fresh context
    EXPECT_EQ(t.last_rtl_response().cack, 8u);
    EXPECT_EQ(t.next_ack(s).sack_bitmap, 0u);
}

// The block's own waves (FST) while it serves requests.
TEST(sack_tracker_rtl, block_waves_to_fst)
{
    const std::string dir = test::scratch_dir("sack_tracker_fst");
    const std::string path = dir + "/sack_tracker.fst";
    {
        sack_tracker_rtl t("host1.sack_tracker", 4, rtl_mode::both);
        t.open_fst(path);
        const uint32_t s = *t.open(10);
        for (uint32_t p : {12u, 11u, 10u, 14u}) t.on_data(s, p);
        t.next_ack(s);
        EXPECT_EQ(t.pins().pins().size(), 14u);
    }
    std::error_code ec;
    EXPECT_GT(std::filesystem::file_size(path, ec), 500u) << path;
    EXPECT_FALSE(ec);
}

// Mutation: each test-only variant of the .sv (UETSIM_MUTANT_<NAME>, docs/rtl.md) is caught by
// the random run in `both` mode, the report naming the component and the request.
template <class V>
void expect_caught(uint64_t budget)
{
    mismatch_recorder rec;
    sack_tracker_rtl* t = nullptr;
    std::unique_ptr<sack_tracker_rtl> keep;
    const path_counts c = run_random<V>(budget, 0x5AC7, rec, &t, keep);
    ASSERT_FALSE(rec.seen.empty()) << "mutant survived " << c.requests << " requests";
    const rtl_mismatch& m = rec.seen.front();
    EXPECT_EQ(m.component, "host3.sack_tracker");
    EXPECT_NE(m.request.find("slot="), std::string::npos) << m.text();
    EXPECT_NE(m.model, m.rtl);
    std::printf("caught after %llu requests: %s\n", (unsigned long long)c.requests,
                m.text().c_str());
}

TEST(sack_tracker_rtl, mutant_dup_beyond_is_caught)
{
    expect_caught<Vsack_tracker_mutant_dup_beyond>(1'000'000);
}
TEST(sack_tracker_rtl, mutant_sack_index_is_caught)
{
    expect_caught<Vsack_tracker_mutant_sack_index>(1'000'000);
}
TEST(sack_tracker_rtl, mutant_wrap_unsigned_is_caught)
{
    expect_caught<Vsack_tracker_mutant_wrap_unsigned>(1'000'000);
}
TEST(sack_tracker_rtl, mutant_advance_early_is_caught)
{
    expect_caught<Vsack_tracker_mutant_advance_early>(1'000'000);
}
TEST(sack_tracker_rtl, mutant_stale_summary_is_caught)
{
    expect_caught<Vsack_tracker_mutant_stale_summary>(1'000'000);
}
