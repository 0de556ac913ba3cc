// The NIC factory: Nic.Type uet builds a UET NIC behind host_nic with the context it was given;
// raw builds none.
#include <gtest/gtest.h>

#include <systemc>

#include "hw/nic/uet/uet_nic.h"
#include "testbench/elab/nic_factory.h"
#include "tests/support/stub_host_dma.h"

using namespace uetsim;

TEST(nic_factory, uet_builds_a_uet_nic_raw_builds_none)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    EXPECT_EQ(nic_builder_for(nic_kind::raw), nullptr);
    ASSERT_NE(nic_builder_for(nic_kind::uet), nullptr);
    scenario sc;
    packet_pool pool;
    test::stub_host_dma dma;
    const nic_context ctx{3, 21, 0x0a000004, 1, pool, dma};
    std::unique_ptr<host_nic> nic = make_nic("host3", sc.nic, ctx, 200e9);
    ASSERT_NE(nic, nullptr);
    EXPECT_STREQ(nic->kind_name(), "uet");
    EXPECT_NE(dynamic_cast<uet_nic*>(nic.get()), nullptr);
    EXPECT_EQ(nic->host(), 3u);
    EXPECT_EQ(nic->node_id(), 21u);
    EXPECT_EQ(nic->ip(), 0x0a000004u);
    EXPECT_STREQ(nic->basename(), "host3");
    EXPECT_EQ(nic->data_packets_sent(), 0u);
}
