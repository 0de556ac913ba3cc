// The counters behind net-buff-stats, kernel-free: the receive buffer counts packets and bytes
// charged and released only once asked, reads releases that are due but not yet applied (they
// are applied lazily) without applying them, keeps the interval maximum from the occupancy at
// the interval's start, and reports its drops as overflow; the default pools are the records
// page's 3,600,000 and 400,000 B.
#include <gtest/gtest.h>

#include "hw/nic/common/nic_buffer_config.h"
#include "hw/nic/common/nic_pool_stats.h"
#include "hw/nic/common/nic_rx_buffer.h"

using namespace uetsim;

namespace {
const uint32_t k_full_rx = 4'184;
}

TEST(nic_pool_stats, the_receive_buffer_counts_only_once_asked)
{
    nic_rx_buffer b;
    b.arrive(0, k_full_rx);
    b.release(0, k_full_rx);
    EXPECT_EQ(b.sample(0, 0).enq, 0u);
    b.count(true);
    b.arrive(0, k_full_rx);
    const nic_pool_sample s = b.sample(0, 0);
    EXPECT_EQ(s.enq, 1u);
    EXPECT_EQ(s.enq_bytes, k_full_rx);
    EXPECT_EQ(s.deq, 0u);
    EXPECT_EQ(s.occupancy, k_full_rx);
    EXPECT_EQ(s.pool_bytes, 3'600'000u);
    EXPECT_EQ(b.sample(1, 0).pool_bytes, 400'000u);
}

TEST(nic_pool_stats, due_releases_are_read_without_being_applied)
{
    nic_rx_buffer b;
    b.count(true);
    for (int i = 0; i < 3; ++i) b.arrive(0, k_full_rx);
    b.arrive(1, 60);  // an ACK's charge, released at once
    b.release(1, 60);
    b.release_at(0, k_full_rx, 1'000);
    b.release_at(0, k_full_rx, 2'000);
    b.release_at(0, k_full_rx, 3'000);
    const nic_pool_sample at = b.sample(0, 2'000);
    EXPECT_EQ(at.occupancy, k_full_rx);  // two of three due by 2 ns
    EXPECT_EQ(at.deq, 2u);
    EXPECT_EQ(at.deq_bytes, 2u * k_full_rx);
    EXPECT_EQ(at.max_occupancy, 3u * k_full_rx);
    EXPECT_EQ(b.occupancy(0), 3u * k_full_rx);  // nothing applied
    EXPECT_TRUE(b.releases_pending());
    const nic_pool_sample c1 = b.sample(1, 2'000);
    EXPECT_EQ(c1.enq, 1u);
    EXPECT_EQ(c1.deq, 1u);
    EXPECT_EQ(c1.occupancy, 0u);
    // Applying them gives the same counts.
    b.drain(2'000);
    EXPECT_EQ(b.sample(0, 2'000).deq, 2u);
    EXPECT_EQ(b.sample(0, 2'000).occupancy, k_full_rx);
}

TEST(nic_pool_stats, the_interval_maximum_restarts_from_the_occupancy_then)
{
    nic_rx_buffer b;
    b.count(true);
    for (int i = 0; i < 5; ++i) b.arrive(0, k_full_rx);
    for (int i = 0; i < 4; ++i) b.release(0, k_full_rx);
    EXPECT_EQ(b.sample(0, 0).ivl_max_occupancy, 5u * k_full_rx);
    b.start_interval(0);
    EXPECT_EQ(b.sample(0, 0).ivl_max_occupancy, k_full_rx);  // what it holds now
    b.arrive(0, k_full_rx);
    EXPECT_EQ(b.sample(0, 0).ivl_max_occupancy, 2u * k_full_rx);
    EXPECT_EQ(b.sample(0, 0).max_occupancy, 5u * k_full_rx);
}

TEST(nic_pool_stats, drops_are_the_overflow)
{
    nic_ingress_settings s = default_ingress_buffer();
    s.total_buffer_bytes = 10'000;  // class 0: 9,000 B, two full packets
    nic_rx_buffer b(s);
    b.count(true);
    EXPECT_TRUE(b.arrive(0, k_full_rx).admitted);
    EXPECT_TRUE(b.arrive(0, k_full_rx).admitted);
    EXPECT_FALSE(b.arrive(0, k_full_rx).admitted);
    const nic_pool_sample x = b.sample(0, 0);
    EXPECT_EQ(x.overflow, 1u);
    EXPECT_EQ(x.enq, 2u);
    EXPECT_EQ(x.pool_bytes, 9'000u);
}

TEST(nic_pool_stats, counters_of_a_transmit_pool)
{
    nic_pool_counters c;
    c.charged(4'202, 4'202);
    c.charged(4'202, 8'404);
    c.released(4'202);
    const nic_pool_sample s = c.sample(230'400, 4'202, 0);
    EXPECT_EQ(s.enq, 2u);
    EXPECT_EQ(s.deq, 1u);
    EXPECT_EQ(s.enq_bytes, 8'404u);
    EXPECT_EQ(s.deq_bytes, 4'202u);
    EXPECT_EQ(s.max_occupancy, 8'404u);
    c.start_interval(4'202);
    EXPECT_EQ(c.sample(230'400, 4'202, 0).ivl_max_occupancy, 4'202u);
    EXPECT_EQ(c.sample(230'400, 4'202, 0).max_occupancy, 8'404u);
}
