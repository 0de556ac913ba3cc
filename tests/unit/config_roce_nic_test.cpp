// The RoceNic keys: the RoCE NIC pages' defaults read back, values given in the file, --set and
// per device (RoceNic[glob].Key), and each configuration rule that stops a run, whose message
// names the key, its value and what is allowed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/nic_factory.h"

namespace uetsim::config {
namespace {

const std::string roce = "Nic:\n  Type: roce\n";

using test::error_of;
using test::has;

TEST(config_roce_nic, defaults_are_the_pages)
{
    const scenario s = resolve_text(roce);
    ASSERT_EQ(s.nic.type, nic_kind::roce);
    const roce_nic_config& r = s.nic.roce;
    EXPECT_EQ(r.mss, 4096u);
    EXPECT_EQ(nic_data_mss(s.nic), 4096u);
    EXPECT_EQ(r.mtu, 4184u);
    EXPECT_DOUBLE_EQ(r.retransmit_timeout_s, 64e-3);
    EXPECT_TRUE(r.ack_coalescing_enabled);
    EXPECT_DOUBLE_EQ(r.ack_delay_s, 1e-3);
    EXPECT_EQ(r.ack_threshold, 16u);
    EXPECT_TRUE(r.ecn.enable_ecn);
    EXPECT_DOUBLE_EQ(r.ecn.minimum_rate_percentage, 0.10);
    EXPECT_EQ(r.ecn.fast_recovery_attempt, 3u);
    EXPECT_DOUBLE_EQ(r.ecn.initial_target_rate_percentage, 0.90);
    EXPECT_EQ(r.ecn.number_active_increase_steps, 10u);
    EXPECT_EQ(r.ecn.control_interval_duration_ns, 45000u);
    EXPECT_DOUBLE_EQ(r.ecn.congestion_probability_weight, 0.5);
    EXPECT_EQ(r.ecn.num_of_control_loops_per_increase, 5u);
    EXPECT_FALSE(r.enable_buffer_stats);
    // Buffers: egress 256 KB [0.9, 0.1] WRR [1, 3]; ingress 4 MB; PFC on TC0 and TC1.
    EXPECT_EQ(r.egress.total_buffer_bytes, 256'000u);
    EXPECT_EQ(r.egress.pool_bytes(0), 230'400u);
    EXPECT_EQ(r.egress.pool_bytes(1), 25'600u);
    EXPECT_EQ(r.egress.scheduling, queue_scheduling::strict_priority);
    EXPECT_EQ(r.egress.wrr_weights[0], 1u);
    EXPECT_EQ(r.egress.wrr_weights[1], 3u);
    EXPECT_EQ(r.ingress.total_buffer_bytes, 4'000'000u);
    EXPECT_EQ(r.ingress.pool_bytes(0), 3'600'000u);
    EXPECT_EQ(r.ingress.pool_bytes(1), 400'000u);
    EXPECT_EQ(r.ingress.xoff_bytes(0), 2'880'000u);
    EXPECT_EQ(r.ingress.xon_bytes(0), 1'440'000u);
    EXPECT_EQ(r.ingress.quanta[0], 65535u);
    EXPECT_EQ(r.ingress.wrr_weights[1], 3u);
    const std::array<double, 8> pfc{1, 1, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(r.pfc_enable_vector, pfc);
    // The classes: RdmaDataPacketTC 0 and RdmaControlPacketTC 1.
    EXPECT_EQ(s.rdma.data_tc, 0u);
    EXPECT_EQ(r.control_traffic_class, 1u);
}

TEST(config_roce_nic, values_from_the_file_and_set)
{
    const scenario s =
        resolve_text(roce + R"(RoceNic:
  MSS: 2048
  RetransmitTimeout: 16ms
  AckCoalescingEnabled: false
  AckThreshold: 4
  EnableECN: false
  ControlIntervalDurationNs: 50000
  PfcStaticXoffThreshold: [0.7, 0.7, 0, 0, 0, 0, 0, 0]
  PfcXonResumeThreshold: "[0.3, 0.3, 0, 0, 0, 0, 0, 0]"
  EgressQueueSchedulingType: WeightedRoundRobin
RdmaApplication:
  RdmaControlPacketTC: 2
)",
                     {"RoceNic.EgressPoolAllocationVector=[0.5, 0.3, 0.2, 0, 0, 0, 0, 0]",
                      "RoceNic.EgressWRRQueueWeights=[2, 7, 1, 0, 0, 0, 0, 0]",
                      "RoceNic.MinimumRatePercentage=0.2"});
    const roce_nic_config& r = s.nic.roce;
    EXPECT_EQ(r.mss, 2048u);
    EXPECT_EQ(nic_data_mss(s.nic), 2048u);
    EXPECT_DOUBLE_EQ(r.retransmit_timeout_s, 16e-3);
    EXPECT_FALSE(r.ack_coalescing_enabled);
    EXPECT_EQ(r.ack_threshold, 4u);
    EXPECT_FALSE(r.ecn.enable_ecn);
    EXPECT_EQ(r.ecn.control_interval_duration_ns, 50000u);
    EXPECT_DOUBLE_EQ(r.ecn.minimum_rate_percentage, 0.2);
    EXPECT_EQ(r.ingress.xoff_bytes(0), 2'520'000u);
    EXPECT_EQ(r.ingress.xon_bytes(1), 120'000u);
    EXPECT_EQ(r.egress.pool_bytes(2), 51'200u);
    EXPECT_EQ(r.egress.wrr_weights[1], 7u);
    EXPECT_EQ(r.control_traffic_class, 2u);  // from RdmaControlPacketTC
    // The UET NIC's keys are untouched.
    EXPECT_EQ(s.nic.uet.rdma_data_mss, 4096u);
}

TEST(config_roce_nic, per_device_override)
{
    const scenario s = resolve_text(roce + "RoceNic[host3]:\n  AckThreshold: 8\n",
                                    {"RoceNic[host1*].PFCEnableVector=[1, 0, 0, 0, 0, 0, 0, 0]"});
    EXPECT_EQ(s.nic.roce.ack_threshold, 16u);  // the section keeps its value
    EXPECT_EQ(nic_for(s, "host3").roce.ack_threshold, 8u);
    EXPECT_EQ(nic_for(s, "host4").roce.ack_threshold, 16u);
    EXPECT_EQ(nic_for(s, "host12").roce.pfc_enable_vector[1], 0.0);
    EXPECT_EQ(nic_for(s, "host2").roce.pfc_enable_vector[1], 1.0);
    // MSS and Mtu hold for the whole fabric (the application and Flows cut messages with MSS).
    const std::string e = error_of(roce + "RoceNic[host3]:\n  MSS: 1024\n");
    EXPECT_TRUE(has(e, "RoceNic.MSS")) << e;
    // A device's values meet the same rules.
    const std::string pool =
        error_of(roce, {"RoceNic[host3].EgressPoolAllocationVector=[0, 0.5, 0.5, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(pool, "host3 with RoceNic[host3].EgressPoolAllocationVector")) << pool;
    EXPECT_TRUE(has(pool, "the non-zero entries must come first")) << pool;
}

TEST(config_roce_nic, mss_range_and_mtu_rule)
{
    EXPECT_EQ(error_of(roce, {"RoceNic.MSS=4125"}), "no error");
    EXPECT_EQ(error_of(roce, {"RoceNic.MSS=4126"}),
              "RoceNic.MSS = 4126 B: MSS + 58 = 4184 B must be smaller than RoceNic.Mtu = 4184 B; "
              "allowed: 1 to 4125 B");
    EXPECT_EQ(error_of(roce, {"RoceNic.MSS=9216", "RoceNic.Mtu=9275"}), "no error");
    const std::string big = error_of(roce, {"RoceNic.MSS=9217", "RoceNic.Mtu=10000"});
    EXPECT_TRUE(has(big, "RoceNic.MSS")) << big;
    EXPECT_TRUE(has(big, "9217")) << big;
    EXPECT_TRUE(has(big, "1..9216") || has(big, "1 to 9216")) << big;
    const std::string zero = error_of(roce, {"RoceNic.MSS=0"});
    EXPECT_TRUE(has(zero, "RoceNic.MSS")) << zero;
}

TEST(config_roce_nic, pool_rules_name_the_key)
{
    const std::string gap =
        error_of(roce, {"RoceNic.IngressPoolAllocationVector=[0, 0.5, 0.5, 0, 0, 0, 0, 0]"});
    EXPECT_EQ(gap,
              "RoceNic.IngressPoolAllocationVector = [0, 0.5, 0.5, 0, 0, 0, 0, 0]: the non-zero "
              "entries must come first, from class 0 with no 0 between them");
    const std::string none =
        error_of(roce, {"RoceNic.EgressPoolAllocationVector=[0, 0, 0, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(none, "RoceNic.EgressPoolAllocationVector = [0, 0, 0, 0, 0, 0, 0, 0]")) << none;
    const std::string nan =
        error_of(roce, {"RoceNic.EgressPoolAllocationVector=[x, 0.1, 0, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(nan, "RoceNic.EgressPoolAllocationVector")) << nan;
    EXPECT_TRUE(has(nan, "'x' is not a number")) << nan;
    const std::string negative =
        error_of(roce, {"RoceNic.IngressPoolAllocationVector=[-0.1, 0.1, 0, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(negative, "RoceNic.IngressPoolAllocationVector")) << negative;
    // The data class's egress pool holds MSS + 58 B: 4,154 B at the default MSS.
    EXPECT_EQ(error_of(roce, {"RoceNic.EgressTotalBufferSize=4000"}),
              "RoceNic.EgressPoolAllocationVector = [0.9, 0.1, 0, 0, 0, 0, 0, 0] with "
              "RoceNic.EgressTotalBufferSize = 4000 B: the data class's pool (class 0, 3600 B) "
              "must hold one full data packet, MSS + 58 = 4154 B");
    EXPECT_EQ(error_of(roce, {"RoceNic.EgressTotalBufferSize=4616"}), "no error");  // 4154.4
    // The control class (RdmaControlPacketTC) needs a pool that holds one 126-byte ACK.
    EXPECT_EQ(error_of(roce, {"RdmaApplication.RdmaControlPacketTC=2"}),
              "RoceNic.EgressPoolAllocationVector = [0.9, 0.1, 0, 0, 0, 0, 0, 0] with "
              "RoceNic.EgressTotalBufferSize = 256000 B: the control class's pool (class 2, 0 B) "
              "must hold one 126-byte ACK");
    // A Flows message's class needs a data pool too.
    const std::string flows =
        error_of(roce + "Flows:\n  - {Src: 0, Dst: 1, Bytes: 1MB, TrafficClass: 3}\n");
    EXPECT_TRUE(has(flows, "the data class's pool (class 3, 0 B)")) << flows;
    // The UET NIC does not read the RoceNic buffers.
    EXPECT_EQ(error_of("", {"RoceNic.EgressTotalBufferSize=4000"}), "no error");
}

TEST(config_roce_nic, whole_numbers_and_weights)
{
    const std::string quanta = error_of(roce, {"RoceNic.QuantaValue=[1.5, 2, 0, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(quanta, "RoceNic.QuantaValue")) << quanta;
    EXPECT_TRUE(has(quanta, "whole number")) << quanta;
    const std::string wrr =
        error_of(roce, {"RoceNic.EgressWRRQueueWeights=[1, 2.5, 0, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(wrr, "RoceNic.EgressWRRQueueWeights")) << wrr;
    EXPECT_TRUE(has(wrr, "whole number")) << wrr;
    EXPECT_EQ(error_of(roce, {"RoceNic.IngressQueueSchedulingType=WeightedRoundRobin",
                              "RoceNic.IngressWRRQueueWeights=[0, 3, 0, 0, 0, 0, 0, 0]"}),
              "RoceNic.IngressWRRQueueWeights = [0, 3, 0, 0, 0, 0, 0, 0]: with "
              "WeightedRoundRobin, classes 0 and 1 need a weight of at least 1 each");
    const std::string pfc = error_of(roce, {"RoceNic.PFCEnableVector=[on, 1, 0, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(pfc, "RoceNic.PFCEnableVector")) << pfc;
    EXPECT_TRUE(has(pfc, "'on' is not a number")) << pfc;
    const std::string xon =
        error_of(roce, {"RoceNic.PfcXonResumeThreshold=[a, 0.4, 0, 0, 0, 0, 0, 0]"});
    EXPECT_TRUE(has(xon, "RoceNic.PfcXonResumeThreshold")) << xon;
    const std::string sched = error_of(roce, {"RoceNic.EgressQueueSchedulingType=Fifo"});
    EXPECT_TRUE(has(sched, "RoceNic.EgressQueueSchedulingType")) << sched;
    EXPECT_TRUE(has(sched, "StrictPriority, RoundRobin, WeightedRoundRobin")) << sched;
}

TEST(config_roce_nic, time_and_fraction_ranges)
{
    const std::string rto = error_of(roce, {"RoceNic.RetransmitTimeout=0s"});
    EXPECT_TRUE(has(rto, "RoceNic.RetransmitTimeout")) << rto;
    const std::string fine = error_of(roce, {"RoceNic.AckDelay=0.5ps"});
    EXPECT_TRUE(has(fine, "RoceNic.AckDelay")) << fine;
    EXPECT_EQ(error_of(roce, {"RoceNic.AckDelay=1ps", "RoceNic.RetransmitTimeout=3600s"}),
              "no error");
    const std::string neg = error_of(roce, {"RoceNic.AckDelay=-1us"});
    EXPECT_TRUE(has(neg, "RoceNic.AckDelay")) << neg;
    const std::string unit = error_of(roce, {"RoceNic.AckDelay=1Gbps"});
    EXPECT_TRUE(has(unit, "RoceNic.AckDelay")) << unit;
    const std::string frac = error_of(roce, {"RoceNic.MinimumRatePercentage=1.5"});
    EXPECT_TRUE(has(frac, "RoceNic.MinimumRatePercentage")) << frac;
    const std::string steps = error_of(roce, {"RoceNic.NumberActiveIncreaseSteps=0"});
    EXPECT_TRUE(has(steps, "RoceNic.NumberActiveIncreaseSteps")) << steps;
    const std::string frac_uint = error_of(roce, {"RoceNic.AckThreshold=2.5"});
    EXPECT_TRUE(has(frac_uint, "RoceNic.AckThreshold")) << frac_uint;
    const std::string b = error_of(roce, {"RoceNic.EnableECN=maybe"});
    EXPECT_TRUE(has(b, "RoceNic.EnableECN")) << b;
}

TEST(config_roce_nic, no_uet_policy_with_roce)
{
    EXPECT_EQ(error_of(roce, {"Switch.UETPolicyEnabled=true"}),
              "Switch.UETPolicyEnabled is true but Nic.Type is roce: the UET policy assigns "
              "traffic classes from codepoints the RoCE NIC does not send; allowed with roce: "
              "Switch.UETPolicyEnabled: false");
    // On one switch only: that switch is named.
    const std::string one = error_of(roce, {"Switch[spine0].UETPolicyEnabled=true"});
    EXPECT_TRUE(has(one, "spine0 with Switch[spine0].UETPolicyEnabled")) << one;
    EXPECT_TRUE(has(one, "Switch.UETPolicyEnabled is true but Nic.Type is roce")) << one;
    EXPECT_EQ(error_of("", {"Switch.UETPolicyEnabled=true"}), "no error");  // UET NICs
}

TEST(config_roce_nic, runs_the_rdma_application_or_flows)
{
    EXPECT_EQ(error_of(roce), "no error");  // the RDMA application, by default
    EXPECT_EQ(error_of(roce + "Flows:\n  - {Src: 0, Dst: 1, Bytes: 1MB}\n"), "no error");
    EXPECT_EQ(error_of(roce, {"RdmaApplication.Enabled=false"}),
              "Nic.Type is roce but RdmaApplication.Enabled is false and Flows is empty: a server "
              "with a RoCE NIC runs the RDMA application or Flows; allowed: "
              "RdmaApplication.Enabled: true, or a non-empty Flows list");
}

}  // namespace
}  // namespace uetsim::config
