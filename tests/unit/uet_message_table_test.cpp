// The UET NIC's message slots: a released slot is reused, so the table holds what is in flight.
#include <gtest/gtest.h>

#include "hw/nic/uet/uet_message_table.h"

using namespace uetsim;

namespace {

uet_message message(uint64_t id)
{
    uet_message m;
    m.id = id;
    m.bytes = 4096 * id;
    return m;
}

}  // namespace

TEST(uet_message_table, a_released_slot_is_reused_most_recent_first)
{
    uet_message_table t;
    const uint64_t a = t.add(message(1));
    const uint64_t b = t.add(message(2));
    const uint64_t c = t.add(message(3));
    EXPECT_EQ(a, 0u);
    EXPECT_EQ(b, 1u);
    EXPECT_EQ(c, 2u);
    t.release(a);
    t.release(c);
    EXPECT_EQ(t.live(), 1u);
    EXPECT_EQ(t.add(message(4)), c);
    EXPECT_EQ(t.add(message(5)), a);
    EXPECT_EQ(t[a].id, 5u);  // the slot holds the new message, fresh
    EXPECT_EQ(t[a].bytes_acked, 0u);
    EXPECT_EQ(t[b].id, 2u);  // others untouched
    EXPECT_EQ(t.add(message(6)), 3u);
    EXPECT_EQ(t.slots(), 4u);
}

TEST(uet_message_table, slots_stay_at_the_most_in_flight_however_many_complete)
{
    uet_message_table t;
    uint64_t open[10];
    for (uint64_t round = 0; round < 1000; ++round) {
        for (uint64_t i = 0; i < 10; ++i) open[i] = t.add(message(round * 10 + i));
        for (uint64_t i = 0; i < 10; ++i) t.release(open[i]);
    }
    EXPECT_EQ(t.live(), 0u);
    EXPECT_EQ(t.slots(), 10u);
}
