// RDMA application WQE arithmetic (pure logic), with the page's one-WQE example.
#include <gtest/gtest.h>

#include <stdexcept>

#include "testbench/traffic/app/placement.h"
#include "testbench/traffic/app/wqe_math.h"

using namespace uetsim;

TEST(rdma_app_wqe, one_wqe_on_the_roce_nic)
{
    EXPECT_EQ(doorbell_pcie_bytes(64), 92u);
    wqe_shape w = shape_wqe(k_rdma_app_wqe_bytes, 4096, 58, 400e9);
    EXPECT_EQ(w.bytes, 250000u);
    EXPECT_EQ(w.packets, 62u);
    EXPECT_EQ(w.full_packets, 61u);
    EXPECT_EQ(w.full_packets * 4096, 249856u);
    EXPECT_EQ(w.last_packet_bytes, 144u);
    EXPECT_EQ(w.middle_packets, 60u);  // 1 FIRST, 60 MIDDLE, 1 LAST
    EXPECT_EQ(w.wire_bytes, 253596u);
    EXPECT_NEAR(w.serialization_s * 1e6, 5.07, 0.005);
}

TEST(rdma_app_wqe, one_wqe_on_the_uet_nic)
{
    wqe_shape w = shape_wqe(k_rdma_app_wqe_bytes, 4096, 106, 400e9);
    EXPECT_EQ(w.packets, 62u);
    EXPECT_EQ(w.wire_bytes, 250000u + 62u * 106u);
    EXPECT_EQ(w.wire_bytes, 256572u);
    EXPECT_NEAR(w.serialization_s * 1e6, 5.13, 0.005);
}

TEST(rdma_app_wqe, edge_sizes)
{
    wqe_shape exact = shape_wqe(8192, 4096, 58, 400e9);
    EXPECT_EQ(exact.packets, 2u);
    EXPECT_EQ(exact.full_packets, 2u);
    EXPECT_EQ(exact.last_packet_bytes, 4096u);
    EXPECT_EQ(exact.middle_packets, 0u);
    wqe_shape small = shape_wqe(100, 4096, 58, 400e9);
    EXPECT_EQ(small.packets, 1u);
    EXPECT_EQ(small.full_packets, 0u);
    EXPECT_EQ(small.last_packet_bytes, 100u);
    EXPECT_EQ(small.wire_bytes, 158u);
    wqe_shape zero = shape_wqe(0, 4096, 58, 400e9);
    EXPECT_EQ(zero.packets, 1u);
    EXPECT_EQ(zero.wire_bytes, 58u);
    EXPECT_THROW(shape_wqe(100, 0, 58, 400e9), std::invalid_argument);
    EXPECT_THROW(shape_wqe(100, 4096, 58, 0), std::invalid_argument);
}

TEST(rdma_app_wqe, outstanding_wqes)
{
    EXPECT_EQ(outstanding_per_connection(10), 10u);
    EXPECT_EQ(outstanding_per_pair(1, 10), 10u);
    EXPECT_EQ(outstanding_per_pair(4, 10), 40u);
    EXPECT_EQ(on_wire_per_connection(10), 1u);
    EXPECT_EQ(on_wire_per_connection(0), 0u);
    // Defaults, 16 hosts at 0.5 / 0.5: 8 pairs x 1 connection x 10 = 80.
    placement p = place(placement_config{});
    EXPECT_EQ(outstanding_in_topology(p.pairs.size(), 1, 10), 80u);
}
