// RCCC's two plain classes without the kernel: the receiver's pull pacer (the turn, the grant
// per pull, the pacing after each grant at the downlink rate) and the sender's credit account
// (spending, cumulative 24-bit credit, the credit target and when a CREDIT_REQ is due).
// Numbers from htsim's defaults: 256 B quanta, 64 quanta (4 x 4,096 B) per pull, 400 Gb/s.
#include <gtest/gtest.h>

#include <cstdint>

#include "hw/nic/uet/rccc_credit.h"
#include "hw/nic/uet/rccc_pull_pacer.h"

using namespace uetsim;

namespace {
constexpr uint32_t quantum = 256;
constexpr uint32_t per_pull = 64;
constexpr double rate = 400e9;
constexpr uint32_t full_packet = 4096 + 106;  // a data frame's wire bytes: what it spends
}  // namespace

TEST(rccc_pull_pacer, a_full_pull_paces_the_next_by_its_bytes_at_the_link_rate)
{
    rccc_pull_pacer p(quantum, per_pull, rate);
    // 64 x 256 B = 16,384 B; x 8 / 400 Gb/s = 327.68 ns.
    EXPECT_EQ(p.interval_ps(64), 327'680u);
    // 17 quanta = 4,352 B: 87.04 ns.
    EXPECT_EQ(p.interval_ps(17), 87'040u);
}

TEST(rccc_pull_pacer, senders_take_turns_and_a_pull_grants_at_most_credits_per_pull)
{
    rccc_pull_pacer p(quantum, per_pull, rate);
    EXPECT_FALSE(p.has_demand());
    EXPECT_TRUE(p.on_target(7, 100));
    EXPECT_TRUE(p.on_target(9, 30));
    ASSERT_TRUE(p.has_demand());

    rccc_grant g = p.pull(0);
    EXPECT_EQ(g.sender, 7u);
    EXPECT_EQ(g.quanta, 64u);
    EXPECT_EQ(g.credit24, 64u);
    EXPECT_EQ(p.next_pull_ps(), 327'680u);

    g = p.pull(p.next_pull_ps());
    EXPECT_EQ(g.sender, 9u);
    EXPECT_EQ(g.quanta, 30u);  // all it asked for
    EXPECT_EQ(g.credit24, 30u);
    EXPECT_EQ(p.next_pull_ps(), 327'680u + 153'600u);  // 30 x 256 x 8 / 400 Gb/s
    EXPECT_FALSE(p.pending(9));

    g = p.pull(p.next_pull_ps());
    EXPECT_EQ(g.sender, 7u);
    EXPECT_EQ(g.quanta, 36u);  // the rest of its 100
    EXPECT_EQ(g.credit24, 100u);
    EXPECT_FALSE(p.has_demand());
    EXPECT_EQ(p.pulls(), 3u);
    EXPECT_EQ(p.granted_quanta(), 130u);
    EXPECT_EQ(p.credit24(7), 100u);
    EXPECT_EQ(p.credit24(8), 0u);  // never asked
}

TEST(rccc_pull_pacer, a_stale_or_repeated_target_does_not_reopen_a_satisfied_sender)
{
    rccc_pull_pacer p(quantum, per_pull, rate);
    p.on_target(1, 10);
    p.pull(0);
    EXPECT_FALSE(p.on_target(1, 10));  // the same target
    EXPECT_FALSE(p.on_target(1, 5));   // an older one (reordered on the way)
    EXPECT_FALSE(p.has_demand());
    EXPECT_TRUE(p.on_target(1, 11));
    EXPECT_EQ(p.pull(p.next_pull_ps()).quanta, 1u);
}

TEST(rccc_pull_pacer, targets_wrap_at_24_bits)
{
    rccc_pull_pacer p(quantum, 1u << 24, rate);
    // Each raise is less than 2^23 quanta: 0x7FFFF8, then 0xFFFFF0.
    p.on_target(1, 0x7FFFF8);
    p.pull(0);
    EXPECT_TRUE(p.on_target(1, 0xFFFFF0));
    EXPECT_EQ(p.pull(p.next_pull_ps()).credit24, 0xFFFFF0u);
    // 0x000010 is 0x20 past 0xFFFFF0 modulo 2^24: a raise, not a fall.
    EXPECT_TRUE(p.on_target(1, 0x10));
    const rccc_grant g = p.pull(p.next_pull_ps());
    EXPECT_EQ(g.quanta, 0x20u);
    EXPECT_EQ(g.credit24, 0x10u);
}

TEST(rccc_credit, a_packet_goes_while_any_credit_is_left_and_spends_its_wire_size)
{
    rccc_credit c(16384, quantum);
    int sent = 0;
    while (c.allows()) c.spend(full_packet), ++sent;
    // 16,384 - 3 x 4,202 = 3,778 > 0 lets a fourth go: -424.
    EXPECT_EQ(sent, 4);
    EXPECT_EQ(c.balance_bytes(), -424);
    // One pull's credit: 64 quanta, 16,384 B.
    EXPECT_EQ(c.on_credit(64), 16384u);
    EXPECT_EQ(c.balance_bytes(), 15960);
    EXPECT_EQ(c.on_credit(64), 0u);  // the same cumulative credit again (an ACK repeating it)
    EXPECT_EQ(c.on_credit(40), 0u);  // an older one
    EXPECT_EQ(c.balance_bytes(), 15960);
    EXPECT_EQ(c.granted_quanta(), 64u);
}

TEST(rccc_credit, the_target_is_the_granted_credit_plus_the_demand_beyond_the_balance)
{
    rccc_credit c(0, quantum);
    EXPECT_EQ(c.target(1 << 30), 0u);  // nothing waiting
    EXPECT_FALSE(c.needs_request(1 << 30));
    c.add_demand(full_packet);
    // 4,202 B / 256 = 16.4: 17 quanta.
    EXPECT_EQ(c.target(1 << 30), 17u);
    EXPECT_TRUE(c.needs_request(1 << 30));
    c.advertised(17);
    EXPECT_FALSE(c.needs_request(1 << 30));  // asked already
    c.on_credit(17);
    EXPECT_TRUE(c.allows());
    EXPECT_EQ(c.target(1 << 30), 17u);  // the balance covers the demand
    c.spend(full_packet);
    c.remove_demand(full_packet);
    EXPECT_EQ(c.balance_bytes(), 17 * 256 - 4202);

    // 1 MiB waiting, capped at 100,000 B: granted 17 + ceil((100,000 - 150) / 256) = 17 + 391.
    c.add_demand(1 << 20);
    EXPECT_EQ(c.target(100000), 17u + 391u);
    EXPECT_FALSE(c.needs_request(100000));  // 150 B of credit left: not blocked
    c.spend(full_packet);
    EXPECT_TRUE(c.starved());
    EXPECT_TRUE(c.needs_request(100000));
}

TEST(rccc_credit, cumulative_credit_wraps_at_24_bits)
{
    rccc_credit c(0, quantum);
    // Each step is less than 2^23 quanta ahead of the last: a raise.
    c.on_credit(0x7FFFFF);
    c.on_credit(0xFFFFF0);
    EXPECT_EQ(c.granted_quanta(), 0xFFFFF0u);
    EXPECT_EQ(c.on_credit(0x000003), 19u * 256);  // 0x13 quanta past 0xFFFFF0, modulo 2^24
    EXPECT_EQ(c.granted_quanta(), 0x1000003u);
    // A value 2^23 or more ahead reads as one from before (a late packet): no credit.
    EXPECT_EQ(c.on_credit(0x800003), 0u);
}
