// The entropy load balancer engine (hw/nic/uet/entropy/entropy_engine.*), no SystemC kernel: a
// group opens the lowest free context slot, a closed slot is reused, the capacity is the limit,
// and the C++ model answers exactly as a bare entropy_policy of the same configuration and seed.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "hw/common/picoseconds.h"
#include "hw/nic/uet/entropy/entropy_engine.h"
#include "hw/nic/uet/entropy/entropy_factory.h"
#include "hw/nic/uet/entropy/entropy_random.h"

using namespace uetsim;

namespace {

entropy_config config(packet_spraying_type t)
{
    entropy_config c;
    c.type = t;
    c.local_udp_port = none_port(5);
    c.entropy_value_set_size = 64;  // REPS: explored values repeat, so feedback hits the cache
    c.freezing_timeout_s = 2e-6;    // freezing ends within the random sequences below
    return c;
}

}  // namespace

TEST(entropy_engine, opens_the_lowest_free_slot_and_reuses_closed_ones)
{
    entropy_engine e(4);
    const entropy_config c = config(packet_spraying_type::default_spraying);
    EXPECT_EQ(e.contexts(), 4u);
    EXPECT_EQ(e.open(c, 1), 0u);
    EXPECT_EQ(e.open(c, 2), 1u);
    EXPECT_EQ(e.open(c, 3), 2u);
    EXPECT_EQ(e.in_use(), 3u);
    e.close(1);
    e.close(0);
    EXPECT_EQ(e.in_use(), 1u);
    // The lowest free slot first, whatever the order of closing.
    EXPECT_EQ(e.open(c, 4), 0u);
    EXPECT_EQ(e.open(c, 5), 1u);
    EXPECT_EQ(e.open(c, 6), 3u);
    EXPECT_EQ(e.in_use(), 4u);
    EXPECT_EQ(e.max_in_use(), 4u);
}

TEST(entropy_engine, every_slot_in_use_gives_none_until_one_closes)
{
    entropy_engine e(2);
    const entropy_config c = config(packet_spraying_type::reps);
    ASSERT_EQ(e.open(c, 1), 0u);
    ASSERT_EQ(e.open(c, 2), 1u);
    EXPECT_EQ(e.open(c, 3), std::nullopt);
    EXPECT_EQ(e.in_use(), 2u);
    e.close(1);
    EXPECT_EQ(e.open(c, 3), 1u);
    EXPECT_THROW(entropy_engine(0), std::invalid_argument);
}

TEST(entropy_engine, a_reopened_slot_starts_from_its_new_configuration)
{
    // Default Packet Spraying from offset 256, 2^7 ports: a slot reopened after 3 packets
    // starts its round robin again (a fresh policy), at the new group's offset.
    entropy_engine e(1);
    entropy_config c = config(packet_spraying_type::default_spraying);
    const uint32_t s = *e.open(c, 1);
    EXPECT_EQ(e.next(s, 0).value, 256);
    EXPECT_EQ(e.next(s, 0).value, 257);
    EXPECT_EQ(e.next(s, 0).value, 258);
    e.close(s);
    c.starting_port_offset = 1000;
    ASSERT_EQ(e.open(c, 1), s);
    EXPECT_EQ(e.next(s, 0).value, 1000);
    // None: the fixed value of the PDC that created the group.
    e.close(s);
    ASSERT_EQ(e.open(config(packet_spraying_type::none), 1), s);
    EXPECT_EQ(e.next(s, 0).value, none_port(5));
}

TEST(entropy_engine, the_model_answers_now_with_the_values_of_a_bare_policy)
{
    // Random sequences of next and feedback (every kind) on 8 slots opened and closed at random,
    // each slot checked against its own bare entropy_policy built with the same seed and given
    // the same calls with the time in seconds as the NIC gave it before the engine.
    for (packet_spraying_type t :
         {packet_spraying_type::none, packet_spraying_type::default_spraying,
          packet_spraying_type::reps}) {
        const entropy_config c = config(t);
        std::mt19937_64 rng(42 + int(t));
        entropy_engine e(8);
        std::vector<std::unique_ptr<entropy_policy>> bare(8);
        std::vector<std::vector<uint16_t>> sent(8);
        uint64_t now = 0, seeds = 0, checked = 0, frozen = 0;
        for (int i = 0; i < 200000; ++i) {
            now += rng() % 20000;  // up to 20 ns apart
            const uint32_t s = uint32_t(rng() % 8);
            if (!bare[s]) {
                const uint64_t seed = entropy_seed(7, "host0", seeds++);
                const std::optional<uint32_t> got = e.open(c, seed);
                ASSERT_TRUE(got.has_value());
                bare[*got] = make_entropy_policy(c, seed);
                sent[*got].clear();
                continue;
            }
            const unsigned op = unsigned(rng() % 100);
            if (op < 1) {
                e.close(s);
                bare[s].reset();
            } else if (op < 50 || sent[s].empty()) {
                const entropy_answer a = e.next(s, now);
                ASSERT_EQ(a.value, bare[s]->next(seconds_from_ps(now))) << "request " << i;
                ASSERT_EQ(a.ready_ps, now);
                ASSERT_EQ(e.policy(s).last_choice(), bare[s]->last_choice());
                sent[s].push_back(a.value);
                ++checked;
            } else {
                const uint16_t v = sent[s][rng() % sent[s].size()];
                const path_feedback f = path_feedback(rng() % 6);
                e.feedback(s, v, f, now);
                bare[s]->feedback(v, f, seconds_from_ps(now));
                ASSERT_EQ(e.policy(s).freezing(), bare[s]->freezing());
                frozen += bare[s]->freezing();
            }
        }
        EXPECT_GT(checked, 50000u);
        if (t == packet_spraying_type::reps) {
            EXPECT_GT(frozen, 0u);  // freezing was exercised
        }
    }
}

// A derived engine overrides the virtuals and sees every open and close (the RTL's seam).
TEST(entropy_engine, a_derived_engine_sees_opens_and_closes_and_answers_for_itself)
{
    struct probe_engine : entropy_engine
    {
        using entropy_engine::entropy_engine;
        std::vector<int> log;
        entropy_answer next(uint32_t slot, uint64_t now_ps) override
        {
            const entropy_answer m = entropy_engine::next(slot, now_ps);
            return {uint16_t(m.value + 1), now_ps + 3000};
        }
        void on_open(uint32_t slot, const entropy_config&, uint64_t) override
        {
            log.push_back(int(slot));
        }
        void on_close(uint32_t slot) override { log.push_back(-1 - int(slot)); }
    };
    probe_engine e(2);
    entropy_engine& base = e;
    const uint32_t s = *base.open(config(packet_spraying_type::default_spraying), 1);
    const entropy_answer a = base.next(s, 10);
    EXPECT_EQ(a.value, 257);
    EXPECT_EQ(a.ready_ps, 3010u);
    base.close(s);
    EXPECT_EQ(e.log, (std::vector<int>{0, -1}));
}
