// derive_pipeline_bounds: each stage's packet-rate bound and the binding stage, by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "hw/nic/uet/pipeline_bounds.h"

using namespace uetsim;

TEST(pipeline_bounds, with_the_defaults_only_the_scheduler_bounds_the_rate)
{
    const pipeline_bounds b = derive_pipeline_bounds(uet_nic_config{});
    // 1 GHz / 2 cycles = 500 M packets/s; x 4,096 B x 8 = 16,384 Gb/s.
    EXPECT_EQ(std::string(b.stages[b.binding].stage.name), "Scheduler");
    EXPECT_DOUBLE_EQ(b.stages[1].bound_pps, 500e6);
    EXPECT_DOUBLE_EQ(b.stages[1].bound_gbps, 16'384.0);
    EXPECT_TRUE(std::isinf(b.stages[0].bound_pps));  // Doorbell: a latency only
    EXPECT_EQ(b.stages[0].stage.timing.cycles, 15u);
    EXPECT_EQ(b.stages[5].stage.timing.cycles, 4u);  // RxParse
}

TEST(pipeline_bounds, a_40_cycle_receive_stage_binds_at_25_million_packets_per_second)
{
    uet_nic_config c;
    c.rdma_data_mss = 1024;
    c.sack_update.interval_cycles = 40;
    const pipeline_bounds b = derive_pipeline_bounds(c);
    EXPECT_EQ(std::string(b.stages[b.binding].stage.name), "SackUpdate");
    EXPECT_DOUBLE_EQ(b.stages[b.binding].bound_pps, 25e6);
    EXPECT_DOUBLE_EQ(b.stages[b.binding].bound_gbps, 204.8);  // 25 M x 1,024 B x 8
}

TEST(pipeline_bounds, the_clock_scales_every_bound)
{
    uet_nic_config c;
    c.clock_hz = 2e9;
    c.header_build.interval_cycles = 10;
    const pipeline_bounds b = derive_pipeline_bounds(c);
    EXPECT_EQ(std::string(b.stages[b.binding].stage.name), "HeaderBuild");
    EXPECT_DOUBLE_EQ(b.stages[b.binding].bound_pps, 200e6);
    EXPECT_DOUBLE_EQ(b.stages[1].bound_pps, 1e9);
}
