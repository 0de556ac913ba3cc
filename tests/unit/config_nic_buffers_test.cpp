// The UET NIC buffer keys: the page's defaults, lists as strings or YAML sequences, and the
// configuration rules that stop a run naming the key and the value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"

namespace uetsim::config {
namespace {

using test::error_of;
using test::has;

TEST(config_nic_buffers, defaults_are_the_pages)
{
    const scenario s = resolve_text("", {});
    EXPECT_EQ(s.nic.uet.egress.total_buffer_bytes, 256'000u);
    EXPECT_EQ(s.nic.uet.egress.pool_bytes(0), 230'400u);
    EXPECT_EQ(s.nic.uet.ingress.total_buffer_bytes, 4'000'000u);
    EXPECT_EQ(s.nic.uet.ingress.pool_bytes(0), 3'600'000u);
    EXPECT_EQ(s.nic.uet.egress.wrr_weights[1], 5u);
    EXPECT_EQ(s.nic.uet.ingress.wrr_weights[1], 3u);
    for (double e : s.nic.uet.pfc_enable_vector) EXPECT_EQ(e, 0.0);
}

TEST(config_nic_buffers, lists_as_text_or_sequences)
{
    const scenario s = resolve_text(
        "UetNic:\n  EgressPoolAllocationVector: [0.5, 0.3, 0.2, 0, 0, 0, 0, 0]\n"
        "  EgressQueueSchedulingType: WeightedRoundRobin\n",
        {"UetNic.EgressWRRQueueWeights=[2, 7, 1, 0, 0, 0, 0, 0]",
         "UetNic.PFCEnableVector=[1, 0, 0, 0, 0, 0, 0, 0]"});
    EXPECT_EQ(s.nic.uet.egress.classes(), 3);
    EXPECT_EQ(s.nic.uet.egress.pool_bytes(2), 51'200u);
    EXPECT_EQ(s.nic.uet.egress.wrr_weights[1], 7u);
    EXPECT_EQ(s.nic.uet.egress.scheduling, queue_scheduling::weighted_round_robin);
    EXPECT_EQ(s.nic.uet.pfc_enable_vector[0], 1.0);
}

TEST(config_nic_buffers, rules_name_the_key)
{
    const std::string gap =
        error_of("", {"UetNic.IngressPoolAllocationVector=[0, 0.5, 0.5, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(gap, "UetNic.IngressPoolAllocationVector = [0, 0.5, 0.5, 0, 0, 0, 0, 0]"))
        << gap;
    EXPECT_TRUE(has(error_of("", {"UetNic.EgressPoolAllocationVector=[1, 0, 0, 0, 0, 0, 0, 0]"}),
                    "two non-zero"));
    const std::string small = error_of("", {"UetNic.EgressTotalBufferSize=4000"});
    EXPECT_TRUE(has(small, "UetNic.EgressTotalBufferSize = 4000 B")) << small;
    EXPECT_TRUE(has(small, "4202 B")) << small;
    EXPECT_TRUE(has(error_of("", {"UetNic.EgressQueueSchedulingType=WeightedRoundRobin",
                                  "UetNic.EgressWRRQueueWeights=[0, 5, 0, 0, 0, 0, 0, 0]"}),
                    "UetNic.EgressWRRQueueWeights"));
    const std::string few = error_of("", {"UetNic.QuantaValue=[1, 2]"});
    EXPECT_TRUE(has(few, "UetNic.QuantaValue")) << few;
    EXPECT_TRUE(has(few, "eight entries")) << few;
    EXPECT_TRUE(has(error_of("", {"UetNic.PfcStaticXoffThreshold=[1.5, 0.8, 0, 0, 0, 0, 0, 0]"}),
                    "entry 0"));
    EXPECT_TRUE(
        has(error_of("", {"UetNic.EgressQueueSchedulingType=ProbabilisticWeightedRoundRobin"}),
            "UetNic.EgressQueueSchedulingType"));
}

// Every data class reserves in its own egress pool: a Flows message of class 2 needs class 2's
// pool to hold one data packet, RdmaDataMSS + 106 = 4,202 B; [0.5, 0.3, 0.2] of 256,000 B gives
// it 51,200 B, [0.9, 0.1] none.
TEST(config_nic_buffers, each_data_class_needs_an_egress_pool_for_one_packet)
{
    const std::string flows = "Flows:\n  - {Src: 0, Dst: 1, Bytes: 1MB, TrafficClass: 2}\n";
    EXPECT_EQ(error_of(flows),
              "UetNic.EgressPoolAllocationVector = [0.9, 0.1, 0, 0, 0, 0, 0, 0] with "
              "UetNic.EgressTotalBufferSize = 256000 B: the data class's pool (class 2, 0 B) "
              "must hold one full data packet, RdmaDataMSS + 106 = 4202 B");
    EXPECT_EQ(error_of(flows, {"UetNic.EgressPoolAllocationVector=[0.5, 0.3, 0.2, 0, 0, 0, 0, 0]"}),
              "no error");
    // The RoCE NIC does not read the UetNic buffers.
    EXPECT_EQ(error_of("Nic: {Type: roce}\nRoceNic: {EgressPoolAllocationVector: [0.5, 0.3, 0.2, "
                       "0, 0, 0, 0, 0]}\n" +
                       flows),
              "no error");
}

}  // namespace
}  // namespace uetsim::config
