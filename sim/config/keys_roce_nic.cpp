// RoceNic.* keys: the RoCE v2 NIC (the RoCE NIC pages' attributes: ScalaRoceQpManager,
// RoceTransportLayer, ECNHandler, the two buffers), and the configuration rules that stop a run.
#include "sim/config/keys_common.h"
#include "sim/config/keys_nic_buffers.h"

#include "tlm/header_sizes.h"

namespace uetsim::config {

namespace {

// The transport page's sizes on the wire: a data packet is MSS + 58 B, an ACK or NAK 126 B.
constexpr uint32_t k_roce_data_overhead = wire::roce_data_overhead;
constexpr uint32_t k_roce_ack_wire_bytes = 126;

}  // namespace

void add_roce_nic_keys(scenario_schema& s)
{
    auto& k = s.keys;
    // The page's timeval: any time, not finer than 1 ps (the kernel's resolution).
    const std::string timeval = " (any time from 1 ps)";

    // ScalaRoceQpManager, and the global Mtu its rule compares with.
    k.bytes("RoceNic.MSS", UETSIM_FIELD(nic.roce.mss), ints(roce_nic_config::mss_range),
            "Largest payload of one data packet (ScalaRoceQpManager MSS): a message of N bytes "
            "is ceil(N / MSS) packets, each at most MSS + 58 B on the wire (BTH 12, UDP 8, IPv4 "
            "20, Ethernet 14, FCS 4); a 0-byte message is one packet. MSS + 58 must be below "
            "RoceNic.Mtu (at most 4,125 with the default 4,184).")
        .fabric_wide();
    k.bytes("RoceNic.Mtu", UETSIM_FIELD(nic.roce.mtu), {64, 65535},
            "The link MTU the MSS rule compares with: the platform's global Mtu "
            "(DefaultNetworkParameters GenericNetDevice Mtu, 4,184 B on the platform).")
        .fabric_wide();

    // RoceTransportLayer.
    k.time("RoceNic.RetransmitTimeout", UETSIM_FIELD(nic.roce.retransmit_timeout_s), {1e-12, 3600},
           "Interval of each queue pair's transport timer: starts when a PSN is given while none "
           "is outstanding, restarts on each ACK that retires a PSN with PSNs left, stops when "
           "none is outstanding; on expiry the queue pair resends from its oldest outstanding "
           "PSN. No retry limit and no backoff" +
               timeval + ".");
    k.boolean("RoceNic.AckCoalescingEnabled", UETSIM_FIELD(nic.roce.ack_coalescing_enabled),
              "true: ACK on every (AckThreshold + 1)-th packet, on the last packet of each message "
              "and when AckDelay expires with packets held; false: every in-order or duplicate "
              "data packet is acknowledged.");
    k.time("RoceNic.AckDelay", UETSIM_FIELD(nic.roce.ack_delay_s), {1e-12, 3600},
           "With coalescing, the longest the receiver holds an acknowledgement" + timeval + ".");
    k.integer("RoceNic.AckThreshold", UETSIM_FIELD(nic.roce.ack_threshold), {0, u32_max},
              "With coalescing, the packets the receiver holds before the next one sends an ACK "
              "(packets).");

    // ECNHandler (the congestion-control page's DCQCN-style loop).
    k.boolean("RoceNic.EnableECN", UETSIM_FIELD(nic.roce.ecn.enable_ecn),
              "true: data is sent ECT(0) and received CNPs drive the queue pair's rate loop; "
              "false: data is Not-ECT, CNPs are ignored, line rate always. The NIC sends CNPs for "
              "CE-marked packets it receives either way.");
    k.real("RoceNic.MinimumRatePercentage", UETSIM_FIELD(nic.roce.ecn.minimum_rate_percentage),
           {0, 1},
           "Floor of a congested queue pair's rate, as a fraction of the line rate (DataRate).");
    k.integer("RoceNic.FastRecoveryAttempt", UETSIM_FIELD(nic.roce.ecn.fast_recovery_attempt),
              {0, u32_max},
              "Recovery count threshold: below it, increases are fast recovery; at or above it, "
              "additive increase (increases).");
    k.real("RoceNic.InitialTargetRatePercentage",
           UETSIM_FIELD(nic.roce.ecn.initial_target_rate_percentage), {0, 1},
           "Sizes the additive step: (1 - this) x the target rate at the episode's start / "
           "NumberActiveIncreaseSteps (a fraction; the episode's first target is the rate the "
           "queue pair had when it began).");
    k.integer("RoceNic.NumberActiveIncreaseSteps",
              UETSIM_FIELD(nic.roce.ecn.number_active_increase_steps), {1, u32_max},
              "Divisor of the additive step (steps).");
    k.integer("RoceNic.ControlIntervalDurationNs",
              UETSIM_FIELD(nic.roce.ecn.control_interval_duration_ns), {2, u32_max},
              "Control interval in ns: the loop runs every half interval, alternating reduction "
              "and increase halves, and counts CNPs and packets over one interval.");
    k.real("RoceNic.CongestionProbabilityWeight",
           UETSIM_FIELD(nic.roce.ecn.congestion_probability_weight), {0, 1},
           "Weight of each new interval in the congestion estimate's moving average (a "
           "fraction).");
    k.integer("RoceNic.NumOfControlLoopsPerIncrease",
              UETSIM_FIELD(nic.roce.ecn.num_of_control_loops_per_increase), {0, u32_max},
              "While CNPs keep arriving, an increase only on every (this + 1)-th increase half "
              "that saw CNPs (control loops).");

    k.boolean("RoceNic.EnableBufferStats", UETSIM_FIELD(nic.roce.enable_buffer_stats),
              "The NIC's receive and transmit pools, one buffer per class with a pool, take part "
              "in net-buff-stats (with the record on).");

    // The buffers (the RoCE buffers-and-PFC page), prefixed Egress / Ingress as UetNic's are.
    add_nic_buffer_keys(
        k, "RoceNic", UETSIM_FIELD(nic.roce),
        {1,
         " A data packet reserves MSS + 58 B in its own class's pool before its payload is "
         "fetched; a full pool holds back that class's generation, nothing is dropped. ACKs "
         "and NAKs reserve theirs in the control class's pool and wait for room there.",
         "PFC frames and CNPs",
         " Each class has its own pool and queue; every data class's pool holds one full "
         "packet (MSS + 58 B), the control class's one 126-byte ACK.",
         "on for TC0 and TC1 by default, unlike the UET NIC", "; set it below Xoff"});

    // First of RoCE's rules: the ones below read the class it sets.
    s.rules.push_back(
        {"The RoCE NIC's queue pairs send their ACKs, NAKs and CNPs in "
         "RdmaApplication.RdmaControlPacketTC.",
         {"RdmaApplication.RdmaControlPacketTC"},
         [](scenario& sc, const given_keys&) {
             sc.nic.roce.control_traffic_class = sc.rdma.control_tc;
         }});
    s.rules.push_back(
        {"RoceNic.MSS + 58 B is below RoceNic.Mtu (the largest MSS at the default 4,184-byte Mtu "
         "is 4,125).",
         {"RoceNic.MSS", "RoceNic.Mtu"},
         [](scenario& sc, const given_keys&) {
             const roce_nic_config& r = sc.nic.roce;
             if (uint64_t(r.mss) + k_roce_data_overhead >= r.mtu)
                 fail_rule(
                     "RoceNic.MSS = " + std::to_string(r.mss) +
                     " B: MSS + 58 = " + std::to_string(uint64_t(r.mss) + k_roce_data_overhead) +
                     " B must be smaller than RoceNic.Mtu = " + std::to_string(r.mtu) +
                     " B; allowed: 1 to " +
                     std::to_string(
                         r.mtu > k_roce_data_overhead + 1 ? r.mtu - k_roce_data_overhead - 1 : 0) +
                     " B");
         }});
    s.rules.push_back(
        {"RoceNic: each PoolAllocationVector gives classes 0 and 1 a pool, its non-zero entries "
         "first; the egress pool of every data class holds one data packet (MSS + 58 B) and the "
         "control class's (RdmaApplication.RdmaControlPacketTC) one 126-byte ACK; "
         "WeightedRoundRobin weights of classes 0 and 1 are at least 1.",
         {"RoceNic.EgressPoolAllocationVector", "RoceNic.IngressPoolAllocationVector",
          "RoceNic.EgressTotalBufferSize", "RoceNic.EgressWRRQueueWeights",
          "RoceNic.IngressWRRQueueWeights", "RoceNic.MSS", "RdmaApplication.RdmaDataPacketTC",
          "RdmaApplication.RdmaControlPacketTC"},
         [](scenario& sc, const given_keys&) {
             if (sc.nic.type != nic_kind::roce) return;
             const roce_nic_config& r = sc.nic.roce;
             std::vector<std::string> errors = {
                 pool_allocation_error(r.egress, "RoceNic.Egress"),
                 pool_allocation_error(r.ingress, "RoceNic.Ingress")};
             for (int data_class : nic_data_classes(sc))
                 errors.push_back(
                     egress_pool_error(r.egress, "RoceNic.Egress",
                                       {"MSS", r.mss, k_roce_data_overhead, k_roce_ack_wire_bytes},
                                       data_class, r.control_traffic_class));
             errors.push_back(wrr_weights_error(r.egress, "RoceNic.Egress"));
             errors.push_back(wrr_weights_error(r.ingress, "RoceNic.Ingress"));
             for (const std::string& e : errors)
                 if (!e.empty()) fail_rule(e);
         }});
    s.rules.push_back(
        {"Nic.Type roce: no switch has Switch.UETPolicyEnabled true (that policy takes traffic "
         "classes from UET codepoints the RoCE NIC does not send).",
         {"Nic.Type", "Switch.UETPolicyEnabled"},
         [](scenario& sc, const given_keys&) {
             if (sc.nic.type == nic_kind::roce && sc.sw.buffer.uet_policy_enabled)
                 fail_rule(
                     "Switch.UETPolicyEnabled is true but Nic.Type is roce: the UET policy "
                     "assigns traffic classes from codepoints the RoCE NIC does not send; "
                     "allowed with roce: Switch.UETPolicyEnabled: false");
         }});
    s.rules.push_back(
        {"Nic.Type roce: the hosts run the RDMA application, Flows or the Chakra workload (the "
         "RoCE NIC runs no other application).",
         {"Nic.Type", "RdmaApplication.Enabled", "Flows", "Chakra.Traces", "Collectives"},
         [](scenario& sc, const given_keys&) {
             if (sc.nic.type != nic_kind::roce) return;
             if (!sc.rdma.enabled && sc.flows.messages.empty() && !sc.chakra.enabled())
                 fail_rule(
                     "Nic.Type is roce but RdmaApplication.Enabled is false and Flows is empty: a "
                     "server with a RoCE NIC runs the RDMA application or Flows; allowed: "
                     "RdmaApplication.Enabled: true, or a non-empty Flows list");
         }});
}

}  // namespace uetsim::config
