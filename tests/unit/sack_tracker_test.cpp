// The receiver's SACK tracker engine (hw/nic/uet/sack_tracker.*), no SystemC kernel: a receiving
// PDC opens the lowest free context slot, a closed slot is reused, the capacity is the limit,
// and the C++ model answers exactly as a bare pdc_receiver on random PSN sequences (reordering,
// duplicates, PSN wrap).
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "hw/nic/uet/sack_tracker.h"

using namespace uetsim;

TEST(sack_tracker, opens_the_lowest_free_slot_and_reuses_closed_ones)
{
    sack_tracker t(3);
    EXPECT_EQ(t.contexts(), 3u);
    EXPECT_EQ(t.open(100), 0u);
    EXPECT_EQ(t.open(200), 1u);
    EXPECT_EQ(t.open(300), 2u);
    EXPECT_EQ(t.open(400), std::nullopt);  // every slot in use
    t.close(2);
    t.close(0);
    EXPECT_EQ(t.in_use(), 1u);
    EXPECT_EQ(t.open(500), 0u);
    EXPECT_EQ(t.open(600), 2u);
    EXPECT_EQ(t.max_in_use(), 3u);
    // A reopened slot starts from its new first PSN: nothing received before it.
    EXPECT_EQ(t.receiver(0).cack(), 499u);
    EXPECT_EQ(t.next_ack(2).cack, 599u);
    EXPECT_THROW(sack_tracker(0), std::invalid_argument);
}

TEST(sack_tracker, worked_example_of_one_ack)
{
    // First PSN 10: 10 in order, 12 and 75 out of order, 12 again a duplicate. The ACK carries
    // CACK 10 and the first 64-PSN block beyond it, from PSN 11: bits 1 (PSN 12); the next ACK
    // walks to the block from PSN 75 (bit 0).
    sack_tracker t(1);
    const uint32_t s = *t.open(10);
    EXPECT_EQ(t.on_data(s, 10).kind, pdc_receiver::arrival::in_order);
    EXPECT_EQ(t.on_data(s, 12).kind, pdc_receiver::arrival::out_of_order);
    const sack_arrival a = t.on_data(s, 75);
    EXPECT_EQ(a.kind, pdc_receiver::arrival::out_of_order);
    EXPECT_EQ(a.cack, 10u);
    EXPECT_EQ(t.on_data(s, 12).kind, pdc_receiver::arrival::duplicate);
    const sack_ack_fields f = t.next_ack(s);
    EXPECT_EQ(f.cack, 10u);
    EXPECT_EQ(f.sack_base, 11u);
    EXPECT_EQ(f.sack_bitmap, 0b10u);
    const sack_ack_fields g = t.next_ack(s);
    EXPECT_EQ(g.sack_base, 75u);
    EXPECT_EQ(g.sack_bitmap, 1u);
    EXPECT_EQ(t.receiver(s).out_of_order_held(), 2u);
}

TEST(sack_tracker, the_model_answers_as_a_bare_pdc_receiver)
{
    // 6 slots, each a PDC whose first PSN sits just below the 32-bit wrap; packets arrive
    // within a reordering window of 200 PSNs with duplicates, ACKs taken at random.
    std::mt19937_64 rng(11);
    sack_tracker t(6);
    std::vector<std::unique_ptr<pdc_receiver>> bare(6);
    uint64_t wraps = 0, dups = 0, ooo = 0, acks = 0;
    for (uint32_t s = 0; s < 6; ++s) {
        const uint32_t first = uint32_t(0xFFFFFFFFu - rng() % 5000);
        ASSERT_EQ(t.open(first), std::optional<uint32_t>(s));
        bare[s] = std::make_unique<pdc_receiver>(first);
    }
    for (int i = 0; i < 300000; ++i) {
        const uint32_t s = uint32_t(rng() % 6);
        const unsigned op = unsigned(rng() % 10000);
        if (op < 3) {
            t.close(s);
            bare[s].reset();
            // Reopened at once: the freed slot is the lowest free one.
            for (uint32_t k = 0; k < 6; ++k)
                if (!bare[k]) {
                    const uint32_t first = uint32_t(0xFFFFFFFFu - rng() % 5000);
                    ASSERT_EQ(t.open(first), std::optional<uint32_t>(k));
                    bare[k] = std::make_unique<pdc_receiver>(first);
                }
        } else if (op < 2000) {
            const sack_ack_fields f = t.next_ack(s);
            const uint32_t cack = bare[s]->cack();
            const pdc_receiver::sack b = bare[s]->next_sack();
            ASSERT_EQ(f.cack, cack);
            ASSERT_EQ(f.sack_base, b.base);
            ASSERT_EQ(f.sack_bitmap, b.bitmap);
            ++acks;
        } else {
            // Mostly new PSNs at or just after the next in order, some up to 200 beyond (more than
            // one 64-PSN block), some old ones again.
            uint32_t psn = bare[s]->expected() + uint32_t(rng() % 4 ? rng() % 4 : rng() % 200);
            if (rng() % 10 == 0) psn = bare[s]->expected() - 1 - uint32_t(rng() % 100);
            const uint32_t before = bare[s]->expected();
            const sack_arrival a = t.on_data(s, psn);
            const pdc_receiver::arrival b = bare[s]->on_data(psn);
            ASSERT_EQ(a.kind, b) << "packet " << i;
            ASSERT_EQ(a.cack, bare[s]->cack());
            ASSERT_EQ(t.receiver(s).out_of_order_held(), bare[s]->out_of_order_held());
            wraps += bare[s]->expected() < before;
            dups += b == pdc_receiver::arrival::duplicate;
            ooo += b == pdc_receiver::arrival::out_of_order;
        }
    }
    EXPECT_GT(wraps, 0u);  // the PSN wrap was crossed
    EXPECT_GT(dups, 1000u);
    EXPECT_GT(ooo, 1000u);
    EXPECT_GT(acks, 10000u);
}
