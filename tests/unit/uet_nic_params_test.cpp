// The one derivation of a UET NIC's parameters from the scenario, and packets per message:
// which values are copied from where (hand-checked against the keys they come from).
#include <gtest/gtest.h>

#include "hw/nic/uet/uet_nic_params.h"
#include "tlm/header_sizes.h"

using namespace uetsim;

TEST(uet_nic_params, link_rate_mss_trimming_and_base_rtt_reach_nscc_and_spraying)
{
    uet_nic_config uet;
    uet.rdma_data_mss = 2048;
    uet.trimming_enabled = true;
    nscc_config cc;
    cc.initial_base_rtt_s = 9e-6;
    cc.link_rate_bps = 1;  // overridden by the host link
    entropy_config lb;
    lb.initial_base_rtt_s = 1;  // overridden by NSCC's InitialBaseRTT
    const uet_nic_params p = derive_uet_nic_params(uet, cc, lb, 200e9);
    EXPECT_EQ(p.uet.rdma_data_mss, 2048u);
    EXPECT_EQ(p.nscc.link_rate_bps, 200e9);
    EXPECT_EQ(p.nscc.rdma_data_mss, 2048u);
    EXPECT_TRUE(p.nscc.trimming_enabled);
    EXPECT_EQ(p.nscc.initial_base_rtt_s, 9e-6);
    EXPECT_EQ(p.entropy.link_rate_bps, 200e9);
    EXPECT_EQ(p.entropy.initial_base_rtt_s, 9e-6);
    EXPECT_EQ(p.entropy.rdma_data_mss, 2048u);
    EXPECT_EQ(p.entropy.local_udp_port, 0);  // set per PDC group by the NIC
}

TEST(packets_for, an_empty_message_is_one_packet_and_the_last_may_be_short)
{
    EXPECT_EQ(wire::packets_for(0, 4096), 1u);
    EXPECT_EQ(wire::packets_for(1, 4096), 1u);
    EXPECT_EQ(wire::packets_for(4096, 4096), 1u);
    EXPECT_EQ(wire::packets_for(4097, 4096), 2u);
    EXPECT_EQ(wire::packets_for(1 << 20, 4096), 256u);
    EXPECT_EQ(wire::packets_for(10'000, 9000), 2u);
}
