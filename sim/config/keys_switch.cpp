// Switch.* keys: every fabric switch (the switch pages' attributes) and their rules.
#include "sim/config/keys_common.h"

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
    k.fixed_choice("Switch.LoadBalancingMethod", "none",
                   "Member selection in an equal-cost set: the flow hash modulo the set size.",
                   {"flowlet"});
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
    k.bytes("Switch.EgressQueueLimit", UETSIM_FIELD(sw.egress_queue_limit_bytes), {0, u32_max},
            "Byte limit of each egress port; 0 derives it: PlaneBDP with trimming, "
            "QueueDropThreshold x PlaneBDP without.");
    k.bytes("Switch.PlaneBDP", UETSIM_FIELD(sw.plane_bdp_bytes), {1, u32_max},
            "The fabric's bandwidth-delay product: base of the derived egress limit.");
    k.integer("Switch.QueueDropThreshold", UETSIM_FIELD(sw.queue_drop_threshold), {1, 1000},
              "Egress limit as a multiple of PlaneBDP when trimming is off.");
    k.boolean("Switch.UETPolicyEnabled", UETSIM_FIELD(sw.uet_policy_enabled),
              "Classify control, trimmed and data packets to TC2, TC1 and TC0.");
    k.boolean("Switch.TrimmingEnabled", UETSIM_FIELD(sw.trimming_enabled),
              "Trim an over-limit packet to its headers instead of dropping it (requires "
              "UETPolicyEnabled).");
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
              "Run the Verilated flow-hash block beside every switch and stop at the first hash "
              "that differs from the model's.")
        .fabric_wide();

    s.rules.push_back(
        {"Switch.TrimmingEnabled requires Switch.UETPolicyEnabled.",
         {"Switch.TrimmingEnabled", "Switch.UETPolicyEnabled"},
         [](scenario& sc, const given_keys&) {
             if (sc.sw.trimming_enabled && !sc.sw.uet_policy_enabled)
                 fail_rule(
                     "Switch.TrimmingEnabled is true but Switch.UETPolicyEnabled is false; "
                     "trimming requires the UET policy (set Switch.UETPolicyEnabled: true)");
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
