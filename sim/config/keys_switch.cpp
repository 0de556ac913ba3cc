// Switch.* keys: every fabric switch (the switch pages' attributes) and their rules.
#include "sim/config/keys_common.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

std::vector<std::pair<std::string, ecmp_hash_method>> ecmp_hash_methods()
{
    std::vector<std::pair<std::string, ecmp_hash_method>> out;
    for (auto m : {ecmp_hash_method::crc32_with_salt, ecmp_hash_method::crc32,
                   ecmp_hash_method::hash_with_salt, ecmp_hash_method::hash, ecmp_hash_method::dpr,
                   ecmp_hash_method::dpr_with_fallback})
        out.emplace_back(std::string(to_string(m)), m);
    return out;
}

}  // namespace

void add_switch_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.choice("Switch.EcmpHashMethod", UETSIM_FIELD(sw.hash_method), ecmp_hash_methods(),
             "Hash that sets a flow's identity for equal-cost path selection.");
    k.choice("Switch.LoadBalancingMethod", UETSIM_FIELD(sw.lb_method),
             {{"none", load_balancing_method::none}, {"flowlet", load_balancing_method::flowlet}},
             "Member selection in an equal-cost set: none, the flow hash modulo the set size; "
             "flowlet, at a gap in a flow the member with the least egress occupancy (PFC-aware, "
             "a 512-slot flow table per set).");
    k.time("Switch.Gap", UETSIM_FIELD(sw.flowlet_gap_s), reals(switch_config::flowlet_gap_range),
           "LoadBalancingFlowlet: smallest idle time of a flow after which flowlet selects its "
           "member again (0s: every packet). Read only with LoadBalancingMethod flowlet; its "
           "range is checked whenever it is given.");
    k.boolean("Switch.PFCAware", UETSIM_FIELD(sw.flowlet_pfc_aware),
              "LoadBalancingFlowlet: a flowlet selection leaves out members whose egress port PFC "
              "has paused for the packet's class, unless every member is paused.");
    k.boolean("Switch.EnableLoadBalancingStats", UETSIM_FIELD(sw.enable_load_balancing_stats),
              "Write the scala-switch-load-balancing-stats record.")
        .fabric_wide();
    k.time("Switch.LoadBalancingStatsReportInterval",
           UETSIM_FIELD(sw.load_balancing_stats_interval_s),
           reals(switch_config::load_balancing_stats_interval_range),
           "Spacing of scala-switch-load-balancing-stats rows.")
        .fabric_wide();
    k.time("Switch.ForwardingLatency", UETSIM_FIELD(sw.forwarding_latency_s), {0, 100e-6},
           "Fixed pipeline latency from ingress to the egress queue.");
    // The shared buffer (the configuration page's SharedBufferManager attributes).
    k.bytes("Switch.TotalSharedBufferSize", UETSIM_FIELD(sw.buffer.total_shared_buffer_size_bytes),
            {1, u32_max},
            "Total packet buffer of the switch; headroom is reserved from it first, the pools "
            "divide the rest.");
    k.bytes("Switch.HeadRoomPerPortLimit", UETSIM_FIELD(sw.buffer.head_room_per_port_limit_bytes),
            {0, u32_max},
            "Headroom reserved for every connected port; a paused port may hold this much in "
            "each pool that carries a lossless class.");
    k.number_list("Switch.PoolAllocationMap", UETSIM_FIELD(sw.buffer.pool_allocation_map),
                  "eight fractions 0.0..1.0, one per pool 0 to 7",
                  "Fraction of the buffer left after headroom for each pool; 0: no pool. Any "
                  "remainder goes to the last pool with a non-zero entry.");
    k.number_list("Switch.TrafficClassPoolMapping",
                  UETSIM_FIELD(sw.buffer.traffic_class_pool_mapping),
                  "eight pool numbers 0..7, one per traffic class 0 to 7",
                  "Pool of each traffic class (index: the class). Map each PFC-enabled class n to "
                  "pool n.");
    k.number_list("Switch.EnablePFC", UETSIM_FIELD(sw.buffer.enable_pfc),
                  "eight entries 0 or 1, one per traffic class 0 to 7",
                  "1: the class is lossless (PFC pauses its sender above Xoff; never dropped at "
                  "egress); 0: lossy.");
    k.bytes("Switch.StaticPoolXoffThreshold",
            UETSIM_FIELD(sw.buffer.static_pool_xoff_threshold_bytes), {0, u32_max},
            "A port's ingress occupancy in a pool above which it pauses its sender (every port "
            "and pool).");
    k.bytes("Switch.StaticPoolXonThreshold",
            UETSIM_FIELD(sw.buffer.static_pool_xon_threshold_bytes), {0, u32_max},
            "The ingress occupancy at or below which a paused port resumes its sender, once its "
            "headroom is empty.");
    k.real("Switch.LossyAlpha", UETSIM_FIELD(sw.buffer.lossy_alpha),
           reals(shared_buffer_config::lossy_alpha_range),
           "Multiplier on the pool's free egress bytes giving a lossy egress queue's limit, per "
           "packet; 0: a fixed limit (QueueDropThresholdEnable).");
    k.boolean("Switch.QueueDropThresholdEnable",
              UETSIM_FIELD(sw.buffer.queue_drop_threshold_enable),
              "With LossyAlpha 0: cap each lossy egress queue at QueueDropThreshold x PlaneBDP "
              "(true) or split each pool evenly between the connected ports (false).");
    k.integer("Switch.QueueDropThreshold", UETSIM_FIELD(sw.buffer.queue_drop_threshold),
              ints(shared_buffer_config::queue_drop_threshold_range),
              "The fixed egress cap (and, under the UET policy without trimming, the egress "
              "limit) as a multiple of PlaneBDP.");
    k.bytes("Switch.PlaneBDP", UETSIM_FIELD(sw.buffer.plane_bdp_bytes), {1, u32_max},
            "The fabric's bandwidth-delay product: base of the fixed egress cap and of the UET "
            "policy's egress limit.");
    k.time("Switch.BufferStatsReportInterval",
           UETSIM_FIELD(sw.buffer.buffer_stats_report_interval_s),
           reals(shared_buffer_config::buffer_stats_report_interval_range),
           "Spacing of scala-switch-agg-buff-stats (and scala-switch-buff-stats) rows.")
        .fabric_wide();
    k.boolean("Switch.ReportPerPortBufferStats",
              UETSIM_FIELD(sw.buffer.report_per_port_buffer_stats),
              "Write the per-port buffer record scala-switch-buff-stats.")
        .fabric_wide();
    k.boolean("Switch.UETPolicyEnabled", UETSIM_FIELD(sw.buffer.uet_policy_enabled),
              "The UET policy: classify control, trimmed and data packets to TC2, TC1 and TC0, "
              "three pools 1.5 : 1 : 1, fixed egress limits.");
    k.boolean("Switch.TrimmingEnabled", UETSIM_FIELD(sw.buffer.trimming_enabled),
              "Trim an over-limit packet to its headers instead of dropping it (requires "
              "UETPolicyEnabled and EnablePFC all 0).");
    k.time("Switch.PfcWatchdogTimeout", UETSIM_FIELD(sw.pfc_watchdog_timeout_s),
           reals(switch_config::pfc_watchdog_timeout_range),
           "PFC watchdog: a traffic class that a port's peer keeps paused without a break for "
           "this long has the packets queued in it dropped (counted in ecn-pfc-stats "
           "pfc_watchdog_drops), again every timeout while the pause lasts; 0 (default) turns "
           "the watchdog off. Set it above the pause time (84.4 us at 400 Gbps and 500 ns) so "
           "that only a pause the peer keeps refreshing trips it.");
    k.boolean("Switch.EnableEcn", UETSIM_FIELD(sw.enable_ecn),
              "Mark ECT packets CE by RED on the egress queue average.");
    k.real("Switch.EwmaWeight", UETSIM_FIELD(sw.ewma_weight), {0, 1},
           "Weight of the egress queue moving average.");
    k.real("Switch.MinThreshold", UETSIM_FIELD(sw.min_threshold), {0, 1},
           "Fraction of the static egress limit below which nothing is marked.");
    k.real("Switch.MaxThreshold", UETSIM_FIELD(sw.max_threshold), {0, 1},
           "Fraction of the static egress limit at and above which every ECT packet is marked.");
    k.real("Switch.MaxMarkProbability", UETSIM_FIELD(sw.max_mark_probability), {0, 1},
           "Marking probability reached at MaxThreshold.");
    k.boolean("Switch.RtlFlowHashLockstep", UETSIM_FIELD(sw.rtl_flow_hash_lockstep),
              "true reads as Rtl.FlowHash: both on every switch.")
        .fabric_wide()
        .deprecated("use Rtl.FlowHash: both (read as that until the next release).");

    s.rules.push_back(
        {"Switch.TrimmingEnabled requires Switch.UETPolicyEnabled.",
         {"Switch.TrimmingEnabled", "Switch.UETPolicyEnabled"},
         [](scenario& sc, const given_keys&) {
             if (sc.sw.buffer.trimming_enabled && !sc.sw.buffer.uet_policy_enabled)
                 fail_rule(
                     "Switch.TrimmingEnabled is true but Switch.UETPolicyEnabled is false; "
                     "trimming requires the UET policy (set Switch.UETPolicyEnabled: true)");
         }});
    s.rules.push_back(
        {"The shared buffer's rules (configuration page): EnablePFC and TrafficClassPoolMapping "
         "have eight whole entries, PoolAllocationMap eight fractions with a non-zero one and "
         "no excess beyond its last non-zero entry, trimming only with PFC off for every class, "
         "and the headroom of every switch's connected ports within TotalSharedBufferSize.",
         {"Switch.EnablePFC", "Switch.TrafficClassPoolMapping", "Switch.PoolAllocationMap",
          "Switch.TrimmingEnabled", "Switch.HeadRoomPerPortLimit", "Switch.TotalSharedBufferSize"},
         [](scenario& sc, const given_keys&) {
             std::vector<std::string> errs = sc.sw.buffer.validate();
             if (errs.empty()) {
                 // Connected ports: the switch with the most links (every port has one).
                 uint32_t ports = 0;
                 std::string name;
                 try {
                     const topology t = build_topology(sc);
                     for (uint32_t d = t.hosts; d < t.devices.size(); ++d)
                         if (t.devices[d].ports.size() > ports) {
                             ports = uint32_t(t.devices[d].ports.size());
                             name = t.devices[d].name;
                         }
                 } catch (const std::exception&) {
                     return;  // the topology's own rules report it
                 }
                 errs = sc.sw.buffer.validate(ports);
                 if (!errs.empty()) errs[0] = name + ": " + errs[0];
             }
             if (!errs.empty()) fail_rule(errs.front());
         }});
    s.rules.push_back(
        {"Switch.LoadBalancingMethod flowlet cannot be combined with Switch.EcmpHashMethod dpr or "
         "dprWithFallback.",
         {"Switch.LoadBalancingMethod", "Switch.EcmpHashMethod"},
         [](scenario& sc, const given_keys&) {
             const auto m = sc.sw.hash_method;
             if (sc.sw.lb_method == load_balancing_method::flowlet &&
                 (m == ecmp_hash_method::dpr || m == ecmp_hash_method::dpr_with_fallback))
                 fail_rule("Switch.LoadBalancingMethod is flowlet but Switch.EcmpHashMethod is " +
                           std::string(to_string(m)) +
                           "; flowlet needs a flow hash (crc32WithSalt, crc32, hashWithSalt or "
                           "hash), not a destination index");
         }});
    s.rules.push_back({"Switch.MaxThreshold is at least Switch.MinThreshold.",
                       {"Switch.MaxThreshold", "Switch.MinThreshold"},
                       [](scenario& sc, const given_keys&) {
                           if (sc.sw.max_threshold < sc.sw.min_threshold)
                               fail_rule("Switch.MaxThreshold (" + num(sc.sw.max_threshold) +
                                         ") must be at least Switch.MinThreshold (" +
                                         num(sc.sw.min_threshold) + ")");
                       }});
}

}  // namespace uetsim::config
