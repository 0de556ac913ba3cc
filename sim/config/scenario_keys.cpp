// Every scenario key: one registration line each (path, field, range, doc). Defaults come from
// the structs in testbench/scenario.h and hw/*/..._config.h. Later sections (RoceNic, Trace,
// Check) add their keys here the same way.
#include "sim/config/scenario_keys.h"

#include <algorithm>
#include <regex>

#include "testbench/app/placement.h"
#include "testbench/app/timeline.h"
#include "testbench/topology.h"

namespace uetsim::config {

namespace {

constexpr uint64_t u32_max = 4'294'967'295ull;
constexpr uint64_t u64_max = 18'446'744'073'709'551'615ull;

const text_rule record_prefix{
    "letters, digits, '_', '.' and '-'", [](const std::string& s) -> std::optional<std::string> {
        static const std::regex re("[A-Za-z0-9_.-]+");
        if (std::regex_match(s, re)) return std::nullopt;
        return "may only contain letters, digits, '_', '.' and '-' (it prefixes record file names)";
    }};

// YYYY-MM-DDThh:mm:ssZ with a real calendar date.
const text_rule iso8601_utc{
    "an ISO 8601 UTC time YYYY-MM-DDThh:mm:ssZ",
    [](const std::string& s) -> std::optional<std::string> {
        static const std::regex re(R"((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z)");
        std::smatch m;
        auto bad =
            std::optional<std::string>("is not an ISO 8601 UTC time such as 2026-01-01T00:00:00Z");
        if (!std::regex_match(s, m, re)) return bad;
        int y = std::stoi(m[1]), mo = std::stoi(m[2]), d = std::stoi(m[3]);
        int h = std::stoi(m[4]), mi = std::stoi(m[5]), sec = std::stoi(m[6]);
        static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if (mo < 1 || mo > 12) return bad;
        int month_days = days[mo - 1] + (mo == 2 && leap ? 1 : 0);
        if (d < 1 || d > month_days || h > 23 || mi > 59 || sec > 59) return bad;
        return std::nullopt;
    }};

const text_rule link_name{
    "link names such as host3-leaf0 or leaf0-spine2",
    [](const std::string& s) -> std::optional<std::string> {
        static const std::regex re("[a-z]+[0-9]+-[a-z]+[0-9]+(\\.[0-9]+)?");
        if (std::regex_match(s, re)) return std::nullopt;
        return "is not a link name (two device names joined by '-', lower tier "
               "first, e.g. host3-leaf0)";
    }};

std::vector<std::pair<std::string, ecmp_hash_method>> ecmp_hash_methods()
{
    std::vector<std::pair<std::string, ecmp_hash_method>> out;
    for (auto m : {ecmp_hash_method::crc32_with_salt, ecmp_hash_method::crc32,
                   ecmp_hash_method::hash_with_salt, ecmp_hash_method::hash, ecmp_hash_method::dpr,
                   ecmp_hash_method::dpr_with_fallback})
        out.emplace_back(std::string(to_string(m)), m);
    return out;
}

key_table<flow_spec> flow_keys()
{
    key_table<flow_spec> t;
    // clang-format off
    t.integer("Src", UETSIM_FIELD(src), {0, u32_max}, "Sending host (hosts are numbered from 0 in topology order, leaf 0's first).").required();
    t.integer("Dst", UETSIM_FIELD(dst), {0, u32_max}, "Receiving host.").required();
    t.bytes("Bytes", UETSIM_FIELD(bytes), {0, 1ull << 40}, "Message size (at most 1 TiB).").required();
    t.time("Start", UETSIM_FIELD(start_s), {0, 100}, "When the sender starts the message.");
    t.integer("Entropy", UETSIM_FIELD(entropy), {-1, 65535}, "Nic.Type raw only: entropy value (UDP source port) of the first packet; -1 draws one from the run's seed. A UET NIC chooses its own (UetNic.PacketSprayingType).");
    t.integer("EntropyValues", UETSIM_FIELD(entropy_values), {1, 65536}, "Nic.Type raw only: how many consecutive entropy values the packets cycle through (1: one fixed value for the flow).");
    t.integer("TrafficClass", UETSIM_FIELD(traffic_class), {0, 7}, "Traffic class of the packets.");
    // clang-format on
    return t;
}

void fail_rule(const std::string& msg);

key_table<fault_spec> fault_keys()
{
    key_table<fault_spec> t;
    // clang-format off
    t.time("At", UETSIM_FIELD(at_s), {0, 100}, "When the fault happens.").required();
    t.text("Link", UETSIM_FIELD(link), link_name, "The link, named by its two ends, lower tier first (host3-leaf0, leaf0-spine2).").required();
    t.choice("Action", UETSIM_FIELD(action), {{"down", fault_action::down}, {"up", fault_action::up}, {"degrade", fault_action::degrade}, {"loss", fault_action::loss}}, "down: every frame on the link is lost, in both directions, in flight too; up: back to its nominal rate, no loss; degrade: runs at Rate; loss: loses each frame with probability Loss.").required();
    t.rate("Rate", UETSIM_FIELD(rate_bps), {1e6, 3.2e12}, "The degraded rate (Action degrade).");
    t.real("Loss", UETSIM_FIELD(loss), {0, 1}, "Probability that a frame is lost (Action loss).");
    // clang-format on
    return t;
}

// The link names a scenario may name (Faults, Capture), with the closest one for a typo.
void check_link_name(const topology& t, const std::string& key, const std::string& name)
{
    if (t.find_link(name) >= 0) return;
    std::vector<std::string> names;
    for (const auto& l : t.links) names.push_back(l.name);
    const auto best = detail::closest(name, names);
    fail_rule(key + ": '" + name + "' is not a link of this topology" +
              (best ? "; did you mean '" + *best + "'?" : std::string()) +
              " (links are named by their two ends, lower tier first, e.g. host0-leaf0)");
}

void fail_rule(const std::string& msg)
{
    throw config_error(msg);
}

std::string num(double v)
{
    return detail::format_real(v);
}

uint32_t host_count(const scenario& sc)
{
    if (sc.topology.kind == topology_kind::fat_tree)
        return sc.topology.k * sc.topology.k * sc.topology.k / 4;
    return sc.topology.hosts;
}

scenario_schema build()
{
    scenario_schema s;
    s.sections = {
        {"Simulation", false,
         "Run control: name, seed, stop time, the RDMA application's run timeline, record "
         "intervals."},
        {"Topology", false, "The fabric: its shape, size and link rate."},
        {"Link", false, "Propagation delays of the links."},
        {"Nic", false, "What sits at each host's network port."},
        {"Switch", false, "Every fabric switch (the switch pages' attributes)."},
        {"UetNic", false, "The UET NIC, its PDS manager and packet spraying."},
        {"RoceNic", false, "The RoCE v2 NIC (no keys yet)."},
        {"Pcie", false,
         "Each host's PCIe link between host and NIC: lanes and lane rate per direction, transfer "
         "size and overhead, latency."},
        {"RdmaApplication", false,
         "The RDMA application: Initiators and Responders placed on the hosts and paired, "
         "NumConnections per pair, each connection keeping MaxPendingWQEs RDMA WRITEs "
         "outstanding from the end of the client start window to the stop time."},
        {"Flows", true,
         "Directed messages between hosts, an alternative to RdmaApplication for directed "
         "experiments."},
        {"Faults", true, "Link faults at given times: down, up, degraded rate, random loss."},
        {"Records", false, "Which records the run writes."},
        {"Trace", false, "Waveform settings (no keys yet)."},
        {"Capture", false, "Packet captures (pcap) of chosen links."},
        {"Check", false, "Run-time checks (no keys yet)."},
    };

    auto& k = s.keys;
    // clang-format off
    k.text("Simulation.Name", UETSIM_FIELD(simulation.name), record_prefix, "Prefix of every record file name: {Name}-{record}-0.csv.");
    k.integer("Simulation.RandomSeed", UETSIM_FIELD(simulation.random_seed), {0, u64_max}, "Seed of every random stream of the run.");
    k.time("Simulation.StopTime", UETSIM_FIELD(simulation.stop_time_s), {0, 100, true}, "Hard stop in simulated time. A Flows-only run also stops when every message is done; with the RDMA application on, the run ends at the timeline's stop time (StartTime + ClientStartOffset + ClientStartInterval + WarmUp + RunTime + CoolDown), or at StopTime if StopTime is given and earlier.");
    k.time("Simulation.NDStatsReportInterval", UETSIM_FIELD(simulation.nd_stats_interval_s), {1e-6, 10}, "Spacing of nd-stats rows.");
    k.time("Simulation.StartTime", UETSIM_FIELD(simulation.timeline.start_time), {0, 100}, "RDMA application: when the Responders start listening.");
    k.time("Simulation.ClientStartOffset", UETSIM_FIELD(simulation.timeline.client_start_offset), {0, 100}, "RDMA application: the client start window opens this long after StartTime.");
    k.time("Simulation.ClientStartInterval", UETSIM_FIELD(simulation.timeline.client_start_interval), {0, 100}, "RDMA application: length of the client start window, in which the connections are set up (StartType); WQE posting starts at its end.");
    k.time("Simulation.WarmUp", UETSIM_FIELD(simulation.timeline.warm_up), {0, 100}, "RDMA application: the recording window opens this long after the client start window ends.");
    k.time("Simulation.RunTime", UETSIM_FIELD(simulation.timeline.run_time), {0, 100}, "RDMA application: length of the recording window.");
    k.time("Simulation.CoolDown", UETSIM_FIELD(simulation.timeline.cool_down), {0, 100}, "RDMA application: the run stops this long after the recording window ends.");
    k.time("Simulation.BeaconReportInterval", UETSIM_FIELD(simulation.beacon_interval_s), {1e-6, 10}, "Spacing of beacon rows.");
    k.text("Simulation.EpochUtc", UETSIM_FIELD(simulation.epoch_utc), iso8601_utc, "UTC time of simulated time 0 (time_utc columns), so that records stay deterministic.");

    k.choice("Topology.Kind", UETSIM_FIELD(topology.kind), {{"leaf-spine", topology_kind::leaf_spine}, {"fat-tree", topology_kind::fat_tree}, {"single-switch", topology_kind::single_switch}}, "Shape of the fabric.");
    k.integer("Topology.Hosts", UETSIM_FIELD(topology.hosts), {1, 4096}, "Number of hosts (leaf-spine, single-switch; a fat-tree has K^3/4).");
    k.integer("Topology.HostsPerLeaf", UETSIM_FIELD(topology.hosts_per_leaf), {1, 512}, "Hosts under each leaf (leaf-spine).");
    k.integer("Topology.Spines", UETSIM_FIELD(topology.spines), {1, 256}, "Number of spines (leaf-spine).");
    k.integer("Topology.UplinksPerSpine", UETSIM_FIELD(topology.uplinks_per_spine), {1, 16}, "Parallel links between a leaf and each spine (leaf-spine).");
    k.integer("Topology.K", UETSIM_FIELD(topology.k), {2, 32, 2}, "Fat-tree arity: K pods, K^3/4 hosts (fat-tree).");
    k.rate("Topology.LinkRate", UETSIM_FIELD(topology.link_rate_bps), {1e9, 3.2e12}, "Rate of every link.");

    k.time("Link.NicDelay", UETSIM_FIELD(link.nic_delay_s), {0, 1e-3}, "Propagation delay of host-to-switch links.");
    k.time("Link.SwitchDelay", UETSIM_FIELD(link.switch_delay_s), {0, 1e-3}, "Propagation delay of switch-to-switch links.");

    k.choice("Switch.EcmpHashMethod", UETSIM_FIELD(sw.hash_method), ecmp_hash_methods(), "Hash that sets a flow's identity for equal-cost path selection.");
    k.fixed_choice("Switch.LoadBalancingMethod", "none", "Member selection in an equal-cost set: the flow hash modulo the set size.", {"flowlet"});
    k.boolean("Switch.EnableLoadBalancingStats", UETSIM_FIELD(sw.enable_load_balancing_stats), "Write the switch-load-balancing-stats record.");
    k.time("Switch.LoadBalancingStatsReportInterval", UETSIM_FIELD(sw.load_balancing_stats_interval_s), {10e-6, 10}, "Spacing of switch-load-balancing-stats rows.");
    k.time("Switch.ForwardingLatency", UETSIM_FIELD(sw.forwarding_latency_s), {0, 100e-6}, "Fixed pipeline latency from ingress to the egress queue.");
    k.bytes("Switch.EgressQueueLimit", UETSIM_FIELD(sw.egress_queue_limit_bytes), {0, u32_max}, "Byte limit of each egress port; 0 derives it: PlaneBDP with trimming, QueueDropThreshold x PlaneBDP without.");
    k.bytes("Switch.PlaneBDP", UETSIM_FIELD(sw.plane_bdp_bytes), {1, u32_max}, "The fabric's bandwidth-delay product: base of the derived egress limit.");
    k.integer("Switch.QueueDropThreshold", UETSIM_FIELD(sw.queue_drop_threshold), {1, 1000}, "Egress limit as a multiple of PlaneBDP when trimming is off.");
    k.boolean("Switch.UETPolicyEnabled", UETSIM_FIELD(sw.uet_policy_enabled), "Classify control, trimmed and data packets to TC2, TC1 and TC0.");
    k.boolean("Switch.TrimmingEnabled", UETSIM_FIELD(sw.trimming_enabled), "Trim an over-limit packet to its headers instead of dropping it (requires UETPolicyEnabled).");
    k.boolean("Switch.EnableEcn", UETSIM_FIELD(sw.enable_ecn), "Mark ECT packets CE by RED on the egress queue average.");
    k.real("Switch.EwmaWeight", UETSIM_FIELD(sw.ewma_weight), {0, 1}, "Weight of the egress queue moving average.");
    k.real("Switch.MinThreshold", UETSIM_FIELD(sw.min_threshold), {0, 1}, "Fraction of the static egress limit below which nothing is marked.");
    k.real("Switch.MaxThreshold", UETSIM_FIELD(sw.max_threshold), {0, 1}, "Fraction of the static egress limit at and above which every ECT packet is marked.");
    k.real("Switch.MaxMarkProbability", UETSIM_FIELD(sw.max_mark_probability), {0, 1}, "Marking probability reached at MaxThreshold.");

    k.choice("Nic.Type", UETSIM_FIELD(nic.type), {{"uet", nic_kind::uet}, {"raw", nic_kind::raw}}, "uet: a UET NIC at every host; raw: a NIC-less port that sends Flows packets at line rate with no transport (to exercise the fabric alone).", {"roce"});

    k.bytes("UetNic.RdmaDataMSS", UETSIM_FIELD(nic.uet.rdma_data_mss), {64, 9000}, "Largest payload of one data packet (wire size + 106 B, nominal + 88 B).");
    k.integer("UetNic.AckRequestEveryNthPacket", UETSIM_FIELD(nic.uet.ack_request_every_nth_packet), {1, 1024}, "Every Nth data transmission of a PDC, retransmissions included, requests an ACK.");
    k.boolean("UetNic.AckRequestFirstPacket", UETSIM_FIELD(nic.uet.ack_request_first_packet), "Count ACK requests from the PDC's first packet (1st, N+1th, ...) rather than the Nth.");
    k.boolean("UetNic.AckRequestLastPacket", UETSIM_FIELD(nic.uet.ack_request_last_packet), "The last packet of each message also requests an ACK.");
    k.time("UetNic.InitialRetransmitTimeout", UETSIM_FIELD(nic.uet.initial_retransmit_timeout_s), {1e-9, 1}, "First retransmission timeout of a data packet; doubled with each retransmission up to the backoff cap.");
    k.integer("UetNic.MaxExponentialRTOBackoffCount", UETSIM_FIELD(nic.uet.max_exponential_rto_backoff_count), {0, 15}, "Doublings of the retransmission timeout at most.");
    k.boolean("UetNic.FixedRexmitTimeEnable", UETSIM_FIELD(nic.uet.fixed_rexmit_time_enable), "Every transmission uses FixedRexmitTimeout, with no doubling.");
    k.time("UetNic.FixedRexmitTimeout", UETSIM_FIELD(nic.uet.fixed_rexmit_timeout_s), {1e-9, 1}, "The retransmission timeout with FixedRexmitTimeEnable.");
    k.boolean("UetNic.TrimmingEnabled", UETSIM_FIELD(nic.uet.trimming_enabled), "Mark first transmissions trimmable (and set NSCC's target to 0.75 x InitialBaseRTT).");
    k.boolean("UetNic.UseDistinctDSCPForRetransmits", UETSIM_FIELD(nic.uet.use_distinct_dscp_for_retransmits), "Mark every retransmission trimmable-retransmission.");
    k.boolean("UetNic.PDCGroupsEnabled", UETSIM_FIELD(nic.uet.pdc_groups_enabled), "PDCs to one destination share one window, one spraying state and one scheduler turn.");
    k.bytes("UetNic.EgressDataPoolSize", UETSIM_FIELD(nic.uet.egress_data_pool_bytes), {4202, u32_max}, "Egress pool of the data class: the most data fetched and not yet sent (0.9 x 256 KB).");
    k.bytes("UetNic.IngressDataPoolSize", UETSIM_FIELD(nic.uet.ingress_data_pool_bytes), {4184, u32_max}, "Ingress pool of the data class: the receiver penalty is its occupancy (0.9 x 4 MB).");
    k.quantity("UetNic.ClockFrequency", dimension::frequency, UETSIM_FIELD(nic.uet.clock_hz), {1e6, 10e9}, "NIC clock: the unit of the pipeline latencies below.");
    k.integer("UetNic.DoorbellToScheduleCycles", UETSIM_FIELD(nic.uet.doorbell_to_schedule_cycles), {0, 100000}, "Cycles from a doorbell to the transmit process (15 ns at 1 GHz).");
    k.integer("UetNic.SchedulerCycles", UETSIM_FIELD(nic.uet.scheduler_cycles), {1, 100000}, "Initiation interval of the transmit scheduler: cycles per packet.");
    k.integer("UetNic.EntropyLookupCycles", UETSIM_FIELD(nic.uet.entropy_lookup_cycles), {0, 100000}, "Cycles the group's entropy load balancer takes to give a packet its entropy value.");
    k.integer("UetNic.HeaderBuildCycles", UETSIM_FIELD(nic.uet.header_build_cycles), {0, 100000}, "Cycles from payload arrival (or retransmission pick) to the egress queue.");
    k.integer("UetNic.RxProcessCycles", UETSIM_FIELD(nic.uet.rx_process_cycles), {0, 100000}, "Cycles from a frame's arrival to its PDC update and host write.");

    k.choice("UetNic.PacketSprayingType", UETSIM_FIELD(nic.spraying.type), {{"None", packet_spraying_type::none}, {"Default Packet Spraying", packet_spraying_type::default_spraying}, {"Recycled Entropy Packet Spraying", packet_spraying_type::reps}}, "How each data packet's entropy value (UDP source port) is chosen.");
    k.integer("UetNic.EntropyMaskBits", UETSIM_FIELD(nic.spraying.entropy_mask_bits), {0, 8}, "Default Packet Spraying: 2^bits ports in turn.");
    k.integer("UetNic.StartingPortOffset", UETSIM_FIELD(nic.spraying.starting_port_offset), {0, 65535}, "Default Packet Spraying: first port of the range (wraps past 65,535 to 0).");
    k.integer("UetNic.REPSBufferSizeMaskBits", UETSIM_FIELD(nic.spraying.reps_buffer_size_mask_bits), {0, 16}, "REPS: 2^bits cached entropy values.");
    k.integer("UetNic.EntropyValueSetSize", UETSIM_FIELD(nic.spraying.entropy_value_set_size), {1, 65536}, "REPS: exploring draws from 0 to this minus 1.");
    k.time("UetNic.FreezingTimeout", UETSIM_FIELD(nic.spraying.freezing_timeout_s), {0, 1}, "REPS: shortest freezing after a path failure.");
    k.integer("UetNic.FailureDetectionRTTMultiplier", UETSIM_FIELD(nic.spraying.failure_detection_rtt_multiplier), {0, 1000}, "REPS: base RTTs without an ACK after which a packet's path is reported failed; 0 turns it off.");

    k.boolean("UetNic.NSCCEnable", UETSIM_FIELD(nic.nscc.nscc_enable), "Congestion control moves the window; false: fixed at the max window.");
    k.boolean("UetNic.PassThrough", UETSIM_FIELD(nic.nscc.pass_through), "Compute and record the window but do not enforce it.");
    k.time("UetNic.InitialBaseRTT", UETSIM_FIELD(nic.nscc.initial_base_rtt_s), {0, 1e-2}, "Starting base RTT: sets the BDP, the max window (1.5 x BDP) and the default target.");
    k.time("UetNic.ReferenceNetworkRTT", UETSIM_FIELD(nic.nscc.reference_network_rtt_s), {1e-9, 1e-2}, "RTT of the reference BDP that normalizes the increase gains.");
    k.rate("UetNic.ReferenceNetworkLinkSpeed", UETSIM_FIELD(nic.nscc.reference_network_link_speed_bps), {1e9, 3.2e12}, "Link speed of the reference BDP.");
    k.boolean("UetNic.OverrideSpecTargetQueueDelay", UETSIM_FIELD(nic.nscc.override_spec_target_queue_delay), "Use TargetQueueDelay as the target.");
    k.time("UetNic.TargetQueueDelay", UETSIM_FIELD(nic.nscc.target_queue_delay_s), {0, 1e-2}, "The target with OverrideSpecTargetQueueDelay.");
    k.time("UetNic.TargetQueueDelayMargin", UETSIM_FIELD(nic.nscc.target_queue_delay_margin_s), {0, 1e-2}, "Delay below which ACKs count toward fast increase.");
    k.boolean("UetNic.DisableQuickAdapt", UETSIM_FIELD(nic.nscc.disable_quick_adapt), "Quick Adapt never runs.");
    k.integer("UetNic.QuickAdaptGate", UETSIM_FIELD(nic.nscc.quick_adapt_gate), {0, 31}, "Quick Adapt fires only below max window / 2^gate acknowledged in its window.");
    k.time("UetNic.QuickAdaptThreshold", UETSIM_FIELD(nic.nscc.quick_adapt_threshold_s), {0, 1}, "Average queueing delay that triggers Quick Adapt (trimming off).");
    k.boolean("UetNic.OverrideUetSpecMaxCWind", UETSIM_FIELD(nic.nscc.override_uet_spec_max_cwnd), "The max window is MaxCongestionWindow nominal packets.");
    k.integer("UetNic.MaxCongestionWindow", UETSIM_FIELD(nic.nscc.max_congestion_window), {1, 4096}, "Max window in nominal packets, with OverrideUetSpecMaxCWind.");
    k.real("UetNic.ReceiverCongestionLowThreshold", UETSIM_FIELD(nic.nscc.receiver_congestion_low_threshold), {0, 100}, "Receive-pool occupancy (%) where the receiver penalty starts.");
    k.real("UetNic.ReceiverCongestionHighThreshold", UETSIM_FIELD(nic.nscc.receiver_congestion_high_threshold), {0, 100}, "Receive-pool occupancy (%) where the penalty is full (127).");
    k.boolean("UetNic.RestoreCWindEnable", UETSIM_FIELD(nic.nscc.restore_cwnd_enable), "ACKs ask senders to restore their saved window once the penalty is 0.");
    k.real("UetNic.MaxMultiplicativeDecreaseJump", UETSIM_FIELD(nic.nscc.max_multiplicative_decrease_jump), {0.001, 1}, "Smallest fraction of the window one decrease keeps.");
    k.real("UetNic.AlphaMultiplier", UETSIM_FIELD(nic.nscc.alpha_multiplier), {1, 100}, "Scales proportional increase.");
    k.real("UetNic.FairIncreaseMultiplier", UETSIM_FIELD(nic.nscc.fair_increase_multiplier), {1, 100}, "Scales fair increase.");
    k.real("UetNic.FastIncreaseMultiplier", UETSIM_FIELD(nic.nscc.fast_increase_multiplier), {0.01, 100}, "Scales fast increase.");
    k.real("UetNic.EtaMultiplier", UETSIM_FIELD(nic.nscc.eta_multiplier), {0, 1}, "Scales the additive increase after the routines.");
    k.real("UetNic.Gamma", UETSIM_FIELD(nic.nscc.gamma), {0.001, 1}, "Depth of a multiplicative decrease.");
    k.real("UetNic.DelayAlpha", UETSIM_FIELD(nic.nscc.delay_alpha), {0, 1}, "Weight of the newest sample in the average queueing delay.");

    k.rate("Pcie.NicSideLaneBps", UETSIM_FIELD(pcie.nic_side_lane_bps), {1e9, 1e12}, "Rate of one PCIe lane in the NIC-to-host direction (31.52 Gbps: the PCIe 5.0 lane rate).");
    k.integer("Pcie.NicSideLaneCount", UETSIM_FIELD(pcie.nic_side_lanes), {1, 16}, "PCIe lanes in the NIC-to-host direction, which runs at NicSideLaneCount x NicSideLaneBps.");
    k.rate("Pcie.HostSideLaneBps", UETSIM_FIELD(pcie.host_side_lane_bps), {1e9, 1e12}, "Rate of one PCIe lane in the host-to-NIC direction.");
    k.integer("Pcie.HostSideLaneCount", UETSIM_FIELD(pcie.host_side_lanes), {1, 16}, "PCIe lanes in the host-to-NIC direction, which runs at HostSideLaneCount x HostSideLaneBps.");
    k.bytes("Pcie.MaxPayloadSize", UETSIM_FIELD(pcie.max_payload), {64, 4096}, "Most data bytes one PCIe transfer (TLP) carries; larger transfers are split.");
    k.bytes("Pcie.TlpOverhead", UETSIM_FIELD(pcie.tlp_overhead), {0, 256}, "Protocol overhead bytes added to every PCIe transfer.");
    k.bytes("Pcie.ReadRequestSize", UETSIM_FIELD(pcie.read_request), {0, 4096}, "Bytes of a DMA read request the NIC sends to fetch a payload, before its overhead.");
    k.bytes("Pcie.CompletionSize", UETSIM_FIELD(pcie.completion_bytes), {16, 4096}, "Bytes of the completion queue entry the NIC writes to the host for each completed WQE.");
    k.time("Pcie.Latency", UETSIM_FIELD(pcie.latency_s), {0, 1e-3}, "One-way latency added to each PCIe transfer (the reference model has none).");

    k.boolean("RdmaApplication.Enabled", UETSIM_FIELD(rdma.enabled), "Run the RDMA application. Default: on exactly when the Flows list is empty.").default_shown("true without Flows, else false");
    k.real("RdmaApplication.InitiatorRatio", UETSIM_FIELD(rdma.initiator_ratio), {0, 1}, "Share of the hosts that run an Initiator: floor(ratio x hosts), at least 1; must be above 0 and add up to 1 with ResponderRatio.");
    k.real("RdmaApplication.ResponderRatio", UETSIM_FIELD(rdma.responder_ratio), {0, 1}, "Share of the hosts that run a Responder: floor(ratio x hosts), at least 1; must be above 0 and add up to 1 with InitiatorRatio.");
    k.integer("RdmaApplication.NumConnections", UETSIM_FIELD(rdma.num_connections), {1, 1024}, "Connections per Initiator-Responder pair, each its own queue pair.");
    k.integer("RdmaApplication.MaxPendingWQEs", UETSIM_FIELD(rdma.max_pending_wqes), {0, 4096}, "WQEs each connection keeps outstanding (closed loop); 0 posts nothing.");
    k.choice("RdmaApplication.StartType", UETSIM_FIELD(rdma.start), {{"simultaneous", start_type::simultaneous}, {"uniform", start_type::uniform}, {"sequential", start_type::sequential}}, "When each connection sends its connection request in the client start window: all at its start, at independent uniform random times, or evenly spaced one after another.");
    k.bytes("RdmaApplication.WqeSize", UETSIM_FIELD(rdma.wqe_bytes), {1, 1ull << 30}, "Bytes of every WQE (an RDMA WRITE).");
    k.bytes("RdmaApplication.DoorbellPayloadSize", UETSIM_FIELD(rdma.doorbell_payload_bytes), {0, 4096}, "Payload of the doorbell message posting a WQE on the host-to-NIC PCIe direction (plus 28 B of UDP and IPv4 headers).");
    k.integer("RdmaApplication.RdmaDataPacketTC", UETSIM_FIELD(rdma.data_tc), {0, 7}, "Traffic class of the RDMA WRITE data packets (DSCP 8 x class; the UET NIC adds its codepoint role in the low 3 bits).");
    k.fixed_choice("RdmaApplication.OpCode", "RDMA_OPCODE_WRITE_FIRST", "Every WQE is an RDMA WRITE (the NIC chooses each packet's opcode).", {});
    k.fixed_choice("RdmaApplication.RdmaVerb", "RDMA_VERB_POST_WRITE", "Every WQE is posted as an RDMA WRITE.", {});

    k.boolean("Switch.RtlFlowHashLockstep", UETSIM_FIELD(sw.rtl_flow_hash_lockstep), "Run the Verilated flow-hash block beside every switch and stop at the first hash that differs from the model's.");

    k.table("Faults", UETSIM_FIELD(faults), fault_keys(), "{At: 20us, Link: leaf0-spine3, Action: down}", "Link faults, each on both directions of one link.");
    k.name_list("Capture.Links", UETSIM_FIELD(capture.links), link_name, "Links whose frames go to {Name}-{link}.pcap in the output folder.");
    k.boolean("Records.UetMonitor", UETSIM_FIELD(records.uet_monitor), "Write uet-monitor: one row per UET packet sent or received (large).");

    k.table("Flows", UETSIM_FIELD(flows.messages), flow_keys(), "{Src: 0, Dst: 8, Bytes: 4MiB, Start: 0s}", "Messages between hosts, each sent as RdmaDataMSS-sized packets (a Flows-only run ends when every message is done).");

    k.choice_list("Records.Enabled", UETSIM_FIELD(records.enabled), record_names(), "Records the run writes.");
    // clang-format on

    s.rules = {
        {"Topology.Hosts is a multiple of Topology.HostsPerLeaf (leaf-spine).",
         [](scenario& sc, const given_keys&) {
             const auto& t = sc.topology;
             if (t.kind != topology_kind::leaf_spine || t.hosts % t.hosts_per_leaf == 0) return;
             fail_rule("Topology.Hosts (" + std::to_string(t.hosts) +
                       ") must be a multiple of Topology.HostsPerLeaf (" +
                       std::to_string(t.hosts_per_leaf) + ") for a leaf-spine topology");
         }},
        {"A fat-tree has K^3/4 hosts: Topology.Hosts is derived and may only be given with that "
         "value.",
         [](scenario& sc, const given_keys& given) {
             auto& t = sc.topology;
             if (t.kind != topology_kind::fat_tree) return;
             uint32_t derived = host_count(sc);
             if (given.count("Topology.Hosts") && t.hosts != derived) {
                 fail_rule("Topology.Hosts: " + std::to_string(t.hosts) +
                           " cannot be set for a fat-tree: its host count is derived from "
                           "Topology.K (K^3/4 = " +
                           std::to_string(derived) + " for K = " + std::to_string(t.k) +
                           "); remove Topology.Hosts or change Topology.K");
             }
             t.hosts = derived;
         }},
        {"Switch.TrimmingEnabled requires Switch.UETPolicyEnabled.",
         [](scenario& sc, const given_keys&) {
             if (sc.sw.trimming_enabled && !sc.sw.uet_policy_enabled)
                 fail_rule(
                     "Switch.TrimmingEnabled is true but Switch.UETPolicyEnabled is false; "
                     "trimming requires the UET policy (set Switch.UETPolicyEnabled: true)");
         }},
        {"Switch.MaxThreshold is at least Switch.MinThreshold.",
         [](scenario& sc, const given_keys&) {
             if (sc.sw.max_threshold < sc.sw.min_threshold)
                 fail_rule("Switch.MaxThreshold (" + num(sc.sw.max_threshold) +
                           ") must be at least Switch.MinThreshold (" + num(sc.sw.min_threshold) +
                           ")");
         }},
        {"RdmaApplication.Enabled defaults to on exactly when Flows is empty. With the application "
         "on: Nic.Type is uet, the topology has at least 2 hosts, InitiatorRatio and "
         "ResponderRatio are above 0 and add up to 1, the timeline's times are at least 0, and "
         "Simulation.StopTime becomes the timeline's stop time (or StopTime if given and earlier).",
         [](scenario& sc, const given_keys& given) {
             auto& app = sc.rdma;
             if (!given.count("RdmaApplication.Enabled")) app.enabled = sc.flows.messages.empty();
             if (!app.enabled) return;
             if (sc.nic.type == nic_kind::raw)
                 fail_rule(
                     "Nic.Type is raw but the RDMA application needs NICs: set Nic.Type: uet, or "
                     "give Flows and RdmaApplication.Enabled: false");
             const uint32_t hosts = host_count(sc);
             if (hosts < 2)
                 fail_rule("Topology.Hosts: " + std::to_string(hosts) +
                           ": the RDMA application needs at least 2 hosts (an Initiator and a "
                           "Responder never share a host), or set RdmaApplication.Enabled: false");
             std::vector<std::string> errors = validate_placement(
                 {app.initiator_ratio, app.responder_ratio, hosts, sc.simulation.random_seed});
             for (auto& e : validate_timeline(sc.simulation.timeline)) errors.push_back(e);
             if (!errors.empty()) {
                 std::string msg;
                 for (auto& e : errors) {
                     // Every message names its key by its full path.
                     if (e.rfind("InitiatorRatio", 0) == 0 || e.rfind("ResponderRatio", 0) == 0)
                         e = "RdmaApplication." + e;
                     msg += (msg.empty() ? "" : "; ") + e;
                 }
                 fail_rule(msg);
             }
             const double stop = make_timeline(sc.simulation.timeline).stop_time_s;
             if (!(stop > 0))
                 fail_rule(
                     "Simulation.StartTime + ClientStartOffset + ClientStartInterval + WarmUp + "
                     "RunTime + CoolDown = 0s: the RDMA application's timeline must end after 0s");
             sc.simulation.stop_time_s = given.count("Simulation.StopTime")
                                             ? std::min(sc.simulation.stop_time_s, stop)
                                             : stop;
         }},
        {"Every flow's Src and Dst are hosts of the topology and differ; a fixed Entropy plus "
         "EntropyValues stays within 0..65535; Start is before Simulation.StopTime.",
         [](scenario& sc, const given_keys&) {
             uint32_t hosts = host_count(sc);
             std::string range = hosts > 1 ? "0.." + std::to_string(hosts - 1) : "0";
             for (size_t i = 0; i < sc.flows.messages.size(); ++i) {
                 const auto& f = sc.flows.messages[i];
                 std::string name = "Flows[" + std::to_string(i) + "]";
                 for (auto [key, host] : {std::pair{"Src", f.src}, std::pair{"Dst", f.dst}}) {
                     if (host >= hosts)
                         fail_rule(name + "." + key + ": " + std::to_string(host) +
                                   " is out of range " + range + " (the topology has " +
                                   std::to_string(hosts) + " hosts)");
                 }
                 if (f.src == f.dst)
                     fail_rule(name + ": Src and Dst are both " + std::to_string(f.src) +
                               "; a flow needs two different hosts");
                 if (f.entropy >= 0 && uint64_t(f.entropy) + f.entropy_values > 65536)
                     fail_rule(name + ": Entropy " + std::to_string(f.entropy) + " with " +
                               std::to_string(f.entropy_values) + " EntropyValues goes past 65535");
                 if (f.start_s >= sc.simulation.stop_time_s)
                     fail_rule(name + ".Start: " + format_quantity(f.start_s, dimension::time) +
                               " is not before Simulation.StopTime (" +
                               format_quantity(sc.simulation.stop_time_s, dimension::time) + ")");
             }
         }},
        {"Faults and Capture.Links name links of the topology; a degrade gives a Rate and a loss a "
         "Loss.",
         [](scenario& sc, const given_keys&) {
             const topology t = build_topology(sc.topology, sc.link);
             for (size_t i = 0; i < sc.faults.size(); ++i) {
                 const auto& f = sc.faults[i];
                 const std::string name = "Faults[" + std::to_string(i) + "]";
                 check_link_name(t, name + ".Link", f.link);
                 if (f.action == fault_action::degrade && f.rate_bps <= 0)
                     fail_rule(name + ": Action degrade needs a Rate, e.g. Rate: 100Gbps");
                 if (f.action == fault_action::loss && f.loss <= 0)
                     fail_rule(name +
                               ": Action loss needs a Loss probability above 0, e.g. Loss: 0.01");
             }
             for (size_t i = 0; i < sc.capture.links.size(); ++i)
                 check_link_name(t, "Capture.Links[" + std::to_string(i) + "]",
                                 sc.capture.links[i]);
         }},
        {"UetNic: the NSCC and spraying attributes are consistent.",
         [](scenario& sc, const given_keys&) {
             nscc_config cc = sc.nic.nscc;
             cc.rdma_data_mss = sc.nic.uet.rdma_data_mss;
             for (const auto& e : nscc_config_errors(cc)) fail_rule("UetNic." + e);
             if (auto e = entropy_config_error(sc.nic.spraying)) fail_rule("UetNic." + *e);
         }},
    };
    return s;
}

}  // namespace

const std::vector<std::string>& record_names()
{
    return enabled_record_names();  // the records registry
}

const section_def* scenario_schema::find_section(const std::string& name) const
{
    for (const auto& sec : sections)
        if (sec.name == name) return &sec;
    return nullptr;
}

std::vector<std::string> scenario_schema::section_names() const
{
    std::vector<std::string> out;
    for (const auto& sec : sections) out.push_back(sec.name);
    return out;
}

std::vector<const key_def<scenario>*> scenario_schema::section_keys(
    const std::string& section) const
{
    std::vector<const key_def<scenario>*> out;
    for (const auto& k : keys.keys()) {
        const std::string& p = k.info.path;
        if (p == section || p.rfind(section + ".", 0) == 0) out.push_back(&k);
    }
    return out;
}

const scenario_schema& schema()
{
    static const scenario_schema s = build();
    return s;
}

}  // namespace uetsim::config
