// UetNic.* keys: the UET NIC, its PDS manager, NSCC and packet spraying.
#include <algorithm>
#include <set>

#include "sim/config/keys_common.h"
#include "sim/config/keys_nic_buffers.h"
#include "sim/config/profile_rules.h"
#include "hw/nic/uet/prefetch_buffer.h"
#include "hw/nic/uet/uet_nic_params.h"
#include "testbench/elab/fabric_rtt.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/rtl_blocks.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

constexpr int_range stage_cycles_range{0, 100000};

// UetNic.<Stage>IntervalCycles and <Stage>QueueDepth of one pipeline stage.
template <class K, class F>
void stage_pacing_keys(K& k, const std::string& stage, F field, int min_interval)
{
    k.integer(
        "UetNic." + stage + "IntervalCycles",
        [field](auto& o) -> auto& { return field(o).interval_cycles; }, {min_interval, 100000},
        "Initiation interval of the " + stage + " stage: cycles between two items it accepts" +
            (min_interval ? "." : " (0: no limit)."));
    k.integer(
        "UetNic." + stage + "QueueDepth",
        [field](auto& o) -> auto& { return field(o).queue_depth; }, {0, 1000000},
        "Input FIFO entries of the " + stage +
            " stage (0: unbounded); full, the stage "
            "upstream stalls.");
}

// UetNic.<Stage>Cycles, <Stage>IntervalCycles, <Stage>QueueDepth for one pipeline stage.
template <class K, class F>
void stage_keys(K& k, const std::string& stage, F field, const std::string& what,
                int min_interval = 0)
{
    k.integer(
        "UetNic." + stage + "Cycles", [field](auto& o) -> auto& { return field(o).cycles; },
        stage_cycles_range, "Latency in cycles of the " + stage + " stage: " + what + ".");
    stage_pacing_keys(k, stage, field, min_interval);
}

// The same for a stage that consults an RTL block's engine (rtl_blocks.h): its Cycles take
// `auto`, the block's latency.
template <class K>
void consulting_stage_keys(K& k, const std::string& block_key, const std::string& what)
{
    const rtl_block_def& def = *find_rtl_block(block_key);
    const auto field = def.stage_field;
    const auto flag = def.stage_auto;
    k.integer_or_auto(
         "UetNic." + def.stage + "Cycles",
         [field](auto& o) -> auto& { return (o.nic.uet.*field).cycles; },
         [flag](auto& o) -> auto& { return o.nic.*flag; }, stage_cycles_range,
         "Latency in cycles of the " + def.stage + " stage: " + what + "; auto: the latency of " +
             "the " + def.title + " (the built-in " + def.component + " block's, " +
             std::to_string(def.latency_cycles) + "), in every Rtl." + def.key +
             " mode; not below it where Rtl." + def.key + " is rtl or both.")
        .default_shown("auto");
    stage_pacing_keys(
        k, def.stage, [field](auto& o) -> auto& { return o.nic.uet.*field; }, 0);
}

// `Rtl.EntropyLoadBalancer` or `Rtl[host3].EntropyLoadBalancer`: the key that gave `device` its
// value of `path` (the last matching override, else the section's).
std::string key_for_device(const scenario& sc, const std::string& path, const std::string& device)
{
    std::string shown = path;
    for (const auto& o : sc.overrides)
        if (o.key == path && matches(o, device))
            shown = o.section + "[" + o.glob + "]." + path.substr(path.find('.') + 1);
    return shown;
}

// "host0..host7, host12": consecutive numbers of one kind as a range.
std::string device_ranges(const std::vector<std::string>& names)
{
    auto split = [](const std::string& n) {
        const size_t d = n.find_first_of("0123456789");
        return std::pair<std::string, long>(n.substr(0, d),
                                            d == std::string::npos ? -1 : std::stol(n.substr(d)));
    };
    std::string out;
    for (size_t i = 0; i < names.size();) {
        size_t j = i;
        while (j + 1 < names.size() && split(names[j + 1]).first == split(names[i]).first &&
               split(names[j + 1]).second == split(names[j]).second + 1)
            ++j;
        out += (out.empty() ? "" : ", ") + (j == i ? names[i] : names[i] + ".." + names[j]);
        i = j + 1;
    }
    return out;
}

// Whether block `def` runs in rtl or both on any device (the section or an override says so).
bool runs_rtl_anywhere(const scenario& sc, const rtl_block_def& def)
{
    if (uses_rtl(sc.rtl.mode(def.key))) return true;
    for (const auto& o : sc.overrides)
        if (o.key == "Rtl." + def.key) return true;
    return false;
}

// The distinct rates of the hosts' links, lowest first: Topology.LinkRate unless Link[glob].Rate
// or Link.Rate sets others.
std::set<double> host_link_rates(const scenario& sc)
{
    const bool per_link = !sc.link.rate_auto ||
                          std::any_of(sc.overrides.begin(), sc.overrides.end(),
                                      [](const device_override& o) { return o.section == "Link"; });
    if (!per_link) return {sc.topology.link_rate_bps};
    const topology t = build_topology(sc);
    std::set<double> rates;
    for (uint32_t h = 0; h < t.hosts; ++h) rates.insert(t.host_link(h).rate_bps);
    return rates;
}

// A stage that consults a block must not complete before the block answers: where the block
// runs in rtl or both, UetNic.<Stage>Cycles below its latency is refused, naming the hosts.
void check_stage_latency(const scenario& sc, const rtl_block_def& def)
{
    // Only a UET NIC has the stage and consults the engine.
    if (sc.nic.type != nic_kind::uet || !runs_rtl_anywhere(sc, def)) return;
    const std::string cycles_key = "UetNic." + def.stage + "Cycles";
    const std::string rtl_key = "Rtl." + def.key;
    const topology t = build_topology(sc);
    struct conflict
    {
        std::string cycles_key;
        uint32_t cycles;
        uint32_t latency;
        std::string rtl_key;
        rtl_mode mode;
        std::vector<std::string> hosts;
    };
    std::vector<conflict> found;
    scenario scratch;  // the stage's value on one device: the section's, then its overrides
    for (uint32_t h = 0; h < t.hosts; ++h) {
        const std::string& name = t.devices[h].name;
        const rtl_config rc = rtl_for(sc, name);
        const rtl_mode mode = rc.mode(def.key);
        if (!uses_rtl(mode)) continue;
        scratch.nic.uet.*def.stage_field = sc.nic.uet.*def.stage_field;
        scratch.nic.*def.stage_auto = sc.nic.*def.stage_auto;
        for (const auto& o : sc.overrides)
            if (o.key == cycles_key && matches(o, name)) o.apply(scratch);
        const uint32_t latency = rtl_block_latency(def, rc);
        const uint32_t cycles =
            scratch.nic.*def.stage_auto ? latency : (scratch.nic.uet.*def.stage_field).cycles;
        if (cycles >= latency) continue;
        conflict c{key_for_device(sc, cycles_key, name), cycles, latency,
                   key_for_device(sc, rtl_key, name),    mode,   {}};
        auto same = [&c](const conflict& o) {
            return o.cycles_key == c.cycles_key && o.cycles == c.cycles && o.latency == c.latency &&
                   o.rtl_key == c.rtl_key && o.mode == c.mode;
        };
        auto it = std::find_if(found.begin(), found.end(), same);
        if (it == found.end()) it = found.insert(found.end(), c);
        it->hosts.push_back(name);
    }
    if (found.empty()) return;
    const conflict& c = found.front();
    fail_rule(c.cycles_key + ": " + std::to_string(c.cycles) + " is below the latency of the RTL " +
              def.title + " (" + std::to_string(c.latency) + " cycles, " + c.rtl_key + ": " +
              std::string(to_string(c.mode)) + " on " + device_ranges(c.hosts) +
              "); allowed: auto or " + std::to_string(c.latency) + ".." +
              std::to_string(stage_cycles_range.max));
}

// The keys whose attribute names nscc_config_errors and entropy_config_error put in messages.
std::vector<std::string> nscc_and_spraying_keys()
{
    std::vector<std::string> out = {"UetNic.RdmaDataMSS"};
    for (const char* name : {"QuickAdaptGate",
                             "MaxCongestionWindow",
                             "ReceiverCongestionLowThreshold",
                             "ReceiverCongestionHighThreshold",
                             "MaxMultiplicativeDecreaseJump",
                             "AlphaMultiplier",
                             "FairIncreaseMultiplier",
                             "FastIncreaseMultiplier",
                             "EtaMultiplier",
                             "Gamma",
                             "DelayAlpha",
                             "InitialBaseRTT",
                             "ReferenceNetworkRTT",
                             "ReferenceNetworkLinkSpeed",
                             "TargetQueueDelay",
                             "TargetQueueDelayMargin",
                             "QuickAdaptThreshold",
                             "EntropyMaskBits",
                             "StartingPortOffset",
                             "REPSBufferSizeMaskBits",
                             "EntropyValueSetSize",
                             "FreezingTimeout"})
        out.push_back(std::string("UetNic.") + name);
    return out;
}

}  // namespace

void add_uet_nic_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.bytes("UetNic.RdmaDataMSS", UETSIM_FIELD(nic.uet.rdma_data_mss), {64, 9000},
            "Largest payload of one data packet (wire size + 106 B, nominal + 88 B).")
        .fabric_wide();
    k.integer("UetNic.AckRequestEveryNthPacket", UETSIM_FIELD(nic.uet.ack_request_every_nth_packet),
              {1, 1024},
              "Every Nth data transmission of a PDC, retransmissions included, requests an ACK.");
    k.boolean(
        "UetNic.AckRequestFirstPacket", UETSIM_FIELD(nic.uet.ack_request_first_packet),
        "Count ACK requests from the PDC's first packet (1st, N+1th, ...) rather than the Nth.");
    k.boolean("UetNic.AckRequestLastPacket", UETSIM_FIELD(nic.uet.ack_request_last_packet),
              "The last packet of each message also requests an ACK.");
    k.time("UetNic.InitialRetransmitTimeout", UETSIM_FIELD(nic.uet.initial_retransmit_timeout_s),
           {1e-9, 1},
           "First retransmission timeout of a data packet; doubled with each retransmission up to "
           "the backoff cap.");
    k.integer("UetNic.MaxExponentialRTOBackoffCount",
              UETSIM_FIELD(nic.uet.max_exponential_rto_backoff_count),
              ints(uet_nic_config::max_exponential_rto_backoff_count_range),
              "Doublings of the retransmission timeout at most.");
    k.boolean("UetNic.FixedRexmitTimeEnable", UETSIM_FIELD(nic.uet.fixed_rexmit_time_enable),
              "Every transmission uses FixedRexmitTimeout, with no doubling.");
    k.time("UetNic.FixedRexmitTimeout", UETSIM_FIELD(nic.uet.fixed_rexmit_timeout_s), {1e-9, 1},
           "The retransmission timeout with FixedRexmitTimeEnable.");
    k.boolean(
        "UetNic.TrimmingEnabled", UETSIM_FIELD(nic.uet.trimming_enabled),
        "Mark first transmissions trimmable (and set NSCC's target to 0.75 x InitialBaseRTT).");
    k.boolean("UetNic.UseDistinctDSCPForRetransmits",
              UETSIM_FIELD(nic.uet.use_distinct_dscp_for_retransmits),
              "Mark every retransmission trimmable-retransmission.");
    k.boolean(
        "UetNic.PDCGroupsEnabled", UETSIM_FIELD(nic.uet.pdc_groups_enabled),
        "PDCs to one destination share one window, one spraying state and one scheduler turn.");
    k.boolean("UetNic.PrefetchBufferEnable", UETSIM_FIELD(nic.uet.prefetch_buffer_enable),
              "A fetched payload waits in a prefetch buffer the NIC's PDCs share "
              "(UetNic.PrefetchBufferSize) until the congestion window and the egress pool let "
              "it go on the wire, and its egress space is reserved then; the fetch itself needs "
              "room in that buffer and the group's bytes fetched and not acknowledged within the "
              "window. false: the egress space is reserved, and the window checked, when the "
              "fetch is issued.");
    k.bytes("UetNic.PrefetchBufferSize", UETSIM_FIELD(nic.uet.prefetch_buffer_size),
            {int64_t(prefetch_buffer::min_size_bytes), u32_max},
            "Size of the prefetch buffer, used only with UetNic.PrefetchBufferEnable: a fetch "
            "reserves its packet's wire size (payload + 106 B) in it until the packet is "
            "committed to the wire; the default holds 62 full data packets. At least 4202 "
            "whatever PrefetchBufferEnable is; with it on, also at least UetNic.RdmaDataMSS + "
            "106.");
    k.boolean("UetNic.EnableBufferStats", UETSIM_FIELD(nic.uet.enable_buffer_stats),
              "This NIC's receive and transmit pools take part in net-buff-stats when "
              "Records.Enabled lists it (the reference's EnableNetworkBufferStatsReporting).");
    k.boolean("UetNic.EnableEventLogging", UETSIM_FIELD(nic.uet.enable_event_logging),
              "Write this NIC's PDC and work-request events (created, complete, closed) to "
              "uet-events.");
    // The buffers (docs/buffers-and-pfc.md, "UET NIC buffers"): the page's attributes of the
    // EgressBufferManager and IngressBufferManager, prefixed Egress / Ingress where both have one.
    add_nic_buffer_keys(k, "UetNic", UETSIM_FIELD(nic.uet),
                        {78, "", "PFC frames",
                         " Each class has its own pool and queue: a data packet holds its wire "
                         "size in its class's pool from its payload fetch until serialized; ACKs, "
                         "NACKs and probes in the control class's, waiting for room there.",
                         "", ""});
    k.quantity("UetNic.ClockFrequency", dimension::frequency, UETSIM_FIELD(nic.uet.clock_hz),
               {1e6, 10e9}, "NIC clock: the unit of the pipeline latencies below.");
    // The pipeline stages (docs/nic-pipeline.md), each with its latency, initiation interval
    // and input FIFO; the older single-latency keys stay as aliases of the same fields.
    stage_keys(k, "Doorbell", UETSIM_FIELD(nic.uet.doorbell),
               "from a doorbell to the scheduler's wake-up");
    stage_keys(k, "Scheduler", UETSIM_FIELD(nic.uet.scheduler),
               "the transmit scheduler's pick of the next packet", 1);
    stage_keys(k, "PayloadFetch", UETSIM_FIELD(nic.uet.payload_fetch),
               "the payload's DMA read, on top of the PCIe transfer");
    consulting_stage_keys(k, "EntropyLoadBalancer",
                          "the group's entropy load balancer giving a packet its entropy value");
    stage_keys(k, "HeaderBuild", UETSIM_FIELD(nic.uet.header_build),
               "the headers built, the packet into the egress queue");
    stage_keys(k, "RxParse", UETSIM_FIELD(nic.uet.rx_parse),
               "a received frame parsed; its FIFO is the MAC's receive FIFO (full: dropped)");
    stage_keys(k, "PdcLookup", UETSIM_FIELD(nic.uet.pdc_lookup), "the frame's PDC found");
    consulting_stage_keys(k, "SackTracker",
                          "PSN tracking and SACK state updated (the receiver's SACK tracker)");
    stage_keys(k, "HostWrite", UETSIM_FIELD(nic.uet.host_write),
               "the payload handed to the host write engine");
    stage_keys(k, "AckBuild", UETSIM_FIELD(nic.uet.ack_build),
               "an ACK, NACK or probe answer built");
    k.integer("UetNic.MaxOutstandingReads", UETSIM_FIELD(nic.uet.max_outstanding_reads), {0, 65535},
              "Read tags of the payload-fetch DMA engine: a fetch waits for a free tag and holds "
              "it until its last completion returns (0: unlimited).");
    k.integer("UetNic.PdcContextCacheEntries", UETSIM_FIELD(nic.uet.pdc_context_cache_entries),
              ints(uet_nic_config::pdc_context_cache_entries_range),
              "PDC contexts held on chip, the rest in host memory: a lookup that misses reads the "
              "context over PCIe (a read tag) and writes back the least recently used one; the "
              "stage that missed waits (0: every context on chip, no cache).");
    k.bytes("UetNic.PdcContextBytes", UETSIM_FIELD(nic.uet.pdc_context_bytes),
            ints(uet_nic_config::pdc_context_bytes_range),
            "Size of one PDC context (PSN and SACK state, retransmission queue, timers, its "
            "group's congestion state): the bytes a cache miss reads and an eviction writes.");
    k.integer("UetNic.EntropyContexts", UETSIM_FIELD(nic.uet.entropy_contexts),
              ints(uet_nic_config::entropy_contexts_range),
              "Context slots of the entropy load balancer, one per open PDC group (a group opens "
              "the lowest free slot and frees it when it closes); running out stops the run with "
              "an error naming this key.");
    k.integer("UetNic.SackContexts", UETSIM_FIELD(nic.uet.sack_contexts),
              ints(uet_nic_config::sack_contexts_range),
              "Context slots of the receiver's SACK tracker, one per receiving PDC (opened by its "
              "first packet, kept until a SYN reopens the sender's id); running out stops the run "
              "with an error naming this key.");
    k.integer("UetNic.DoorbellToScheduleCycles", UETSIM_FIELD(nic.uet.doorbell.cycles), {0, 100000},
              "Alias of UetNic.DoorbellCycles.");
    k.integer("UetNic.RxProcessCycles", UETSIM_FIELD(nic.uet.rx_parse.cycles), {0, 100000},
              "Alias of UetNic.RxParseCycles.");

    k.choice("UetNic.PacketSprayingType", UETSIM_FIELD(nic.spraying.type),
             {{"None", packet_spraying_type::none},
              {"Default Packet Spraying", packet_spraying_type::default_spraying},
              {"Recycled Entropy Packet Spraying", packet_spraying_type::reps}},
             "How each data packet's entropy value (UDP source port) is chosen.");
    k.integer("UetNic.EntropyMaskBits", UETSIM_FIELD(nic.spraying.entropy_mask_bits),
              ints(entropy_config::entropy_mask_bits_range),
              "Default Packet Spraying: 2^bits ports in turn.");
    k.integer("UetNic.StartingPortOffset", UETSIM_FIELD(nic.spraying.starting_port_offset),
              ints(entropy_config::starting_port_offset_range),
              "Default Packet Spraying: first port of the range (wraps past 65,535 to 0).");
    k.integer("UetNic.REPSBufferSizeMaskBits",
              UETSIM_FIELD(nic.spraying.reps_buffer_size_mask_bits),
              ints(entropy_config::reps_buffer_size_mask_bits_range),
              "REPS: 2^bits cached entropy values.");
    k.integer("UetNic.EntropyValueSetSize", UETSIM_FIELD(nic.spraying.entropy_value_set_size),
              ints(entropy_config::entropy_value_set_size_range),
              "REPS: exploring draws from 0 to this minus 1.");
    k.time("UetNic.FreezingTimeout", UETSIM_FIELD(nic.spraying.freezing_timeout_s),
           reals(entropy_config::freezing_timeout_range),
           "REPS: shortest freezing after a path failure.");
    k.integer("UetNic.FailureDetectionRTTMultiplier",
              UETSIM_FIELD(nic.spraying.failure_detection_rtt_multiplier),
              ints(entropy_config::failure_detection_rtt_multiplier_range),
              "REPS: base RTTs without an ACK after which a packet's path is reported failed; 0 "
              "turns it off.");

    k.boolean("UetNic.NSCCEnable", UETSIM_FIELD(nic.nscc.nscc_enable),
              "Congestion control moves the window; false: fixed at the max window.");
    k.boolean("UetNic.PassThrough", UETSIM_FIELD(nic.nscc.pass_through),
              "Compute and record the window but do not enforce it.");
    k.time_or_auto("UetNic.InitialBaseRTT", UETSIM_FIELD(nic.nscc.initial_base_rtt_s),
                   UETSIM_FIELD(nic.initial_base_rtt_auto),
                   reals(nscc_config::initial_base_rtt_range),
                   "Starting base RTT: sets the BDP, the max window (1.5 x BDP) and the default "
                   "target; auto: the fabric's unloaded round trip (inspect's fabric).");
    k.time("UetNic.ReferenceNetworkRTT", UETSIM_FIELD(nic.nscc.reference_network_rtt_s),
           reals(nscc_config::reference_network_rtt_range),
           "RTT of the reference BDP that normalizes the increase gains.");
    k.rate(
        "UetNic.ReferenceNetworkLinkSpeed", UETSIM_FIELD(nic.nscc.reference_network_link_speed_bps),
        reals(nscc_config::reference_network_link_speed_range), "Link speed of the reference BDP.");
    k.boolean("UetNic.OverrideSpecTargetQueueDelay",
              UETSIM_FIELD(nic.nscc.override_spec_target_queue_delay),
              "Use TargetQueueDelay as the target.");
    k.time("UetNic.TargetQueueDelay", UETSIM_FIELD(nic.nscc.target_queue_delay_s),
           reals(nscc_config::target_queue_delay_range),
           "The target with OverrideSpecTargetQueueDelay.");
    k.time("UetNic.TargetQueueDelayMargin", UETSIM_FIELD(nic.nscc.target_queue_delay_margin_s),
           reals(nscc_config::target_queue_delay_margin_range),
           "Delay below which ACKs count toward fast increase.");
    k.boolean("UetNic.DisableQuickAdapt", UETSIM_FIELD(nic.nscc.disable_quick_adapt),
              "Quick Adapt never runs.");
    k.integer("UetNic.QuickAdaptGate", UETSIM_FIELD(nic.nscc.quick_adapt_gate),
              ints(nscc_config::quick_adapt_gate_range),
              "Quick Adapt fires only below max window / 2^gate acknowledged in its window.");
    k.time("UetNic.QuickAdaptThreshold", UETSIM_FIELD(nic.nscc.quick_adapt_threshold_s),
           reals(nscc_config::quick_adapt_threshold_range),
           "Average queueing delay that triggers Quick Adapt (trimming off).");
    k.boolean("UetNic.OverrideUetSpecMaxCWind", UETSIM_FIELD(nic.nscc.override_uet_spec_max_cwnd),
              "The max window is MaxCongestionWindow nominal packets.");
    k.integer("UetNic.MaxCongestionWindow", UETSIM_FIELD(nic.nscc.max_congestion_window),
              ints(nscc_config::max_congestion_window_range),
              "Max window in nominal packets, with OverrideUetSpecMaxCWind.");
    k.real("UetNic.ReceiverCongestionLowThreshold",
           UETSIM_FIELD(nic.nscc.receiver_congestion_low_threshold),
           reals(nscc_config::receiver_congestion_threshold_range),
           "Receive-pool occupancy (%) where the receiver penalty starts.");
    k.real("UetNic.ReceiverCongestionHighThreshold",
           UETSIM_FIELD(nic.nscc.receiver_congestion_high_threshold),
           reals(nscc_config::receiver_congestion_threshold_range),
           "Receive-pool occupancy (%) where the penalty is full (127).");
    k.boolean("UetNic.RestoreCWindEnable", UETSIM_FIELD(nic.nscc.restore_cwnd_enable),
              "ACKs ask senders to restore their saved window once the penalty is 0.");
    k.real("UetNic.MaxMultiplicativeDecreaseJump",
           UETSIM_FIELD(nic.nscc.max_multiplicative_decrease_jump),
           reals(nscc_config::max_multiplicative_decrease_jump_range),
           "Smallest fraction of the window one decrease keeps.");
    k.real("UetNic.AlphaMultiplier", UETSIM_FIELD(nic.nscc.alpha_multiplier),
           reals(nscc_config::alpha_multiplier_range), "Scales proportional increase.");
    k.real("UetNic.FairIncreaseMultiplier", UETSIM_FIELD(nic.nscc.fair_increase_multiplier),
           reals(nscc_config::fair_increase_multiplier_range), "Scales fair increase.");
    k.real("UetNic.FastIncreaseMultiplier", UETSIM_FIELD(nic.nscc.fast_increase_multiplier),
           reals(nscc_config::fast_increase_multiplier_range), "Scales fast increase.");
    k.real("UetNic.EtaMultiplier", UETSIM_FIELD(nic.nscc.eta_multiplier),
           reals(nscc_config::eta_multiplier_range),
           "Scales the additive increase after the routines.");
    k.real("UetNic.Gamma", UETSIM_FIELD(nic.nscc.gamma), reals(nscc_config::gamma_range),
           "Depth of a multiplicative decrease.");
    k.real("UetNic.DelayAlpha", UETSIM_FIELD(nic.nscc.delay_alpha),
           reals(nscc_config::delay_alpha_range),
           "Weight of the newest sample in the average queueing delay.");

    // RCCC (docs/nscc.md, "RCCC"): the receiver's credit beside the NSCC window.
    k.boolean("UetNic.RcccEnabled", UETSIM_FIELD(nic.uet.rccc.enabled),
              "RCCC, UET 1.0's receiver credit: this NIC's data waits for credit its receiver's "
              "pull pacer grants (CREDIT packets, ACK_CC cc_type 1) as well as for the NSCC "
              "window; a packet may go while its destination's credit is above zero and spends "
              "its wire size. Receivers grant credit whatever their own setting.");
    k.bytes("UetNic.RcccPullQuantum", UETSIM_FIELD(nic.uet.rccc.pull_quantum_bytes),
            ints(rccc_config::pull_quantum_range),
            "The unit of RCCC credit: the 24-bit credit and credit_target fields count pull "
            "quanta (htsim's UEC_PULL_QUANTA).")
        .fabric_wide();
    k.integer("UetNic.RcccCreditsPerPull", UETSIM_FIELD(nic.uet.rccc.credits_per_pull),
              ints(rccc_config::credits_per_pull_range),
              "Pull quanta one pull of the receiver's pull pacer grants at most (64: htsim's 4 "
              "packets of 4,096 B at 256 B quanta); the next pull waits for that credit's time "
              "at the pull rate.");
    k.bytes("UetNic.RcccInitialCredit", UETSIM_FIELD(nic.uet.rccc.initial_credit_bytes),
            ints(rccc_config::initial_credit_range),
            "Credit an RCCC sender has toward each destination before its first grant "
            "(speculative credit; 0: the first packet waits for a CREDIT_REQ's answer).");
    k.rate("UetNic.RcccPullRate", UETSIM_FIELD(nic.uet.rccc.pull_rate_bps),
           reals(rccc_config::pull_rate_range),
           "Rate at which the receiving NIC's pull pacer grants credit, in bits of wire bytes "
           "per second; 0: its link's rate.");

    // The PDC close handshake (docs/pdc-lifecycle.md).
    k.time("UetNic.PdcIdleCloseTimeout", UETSIM_FIELD(nic.uet.pdc_idle_close_timeout_s),
           {0, uet_nic_config::pdc_idle_close_timeout_max_s},
           "0: a PDC ends at its sender only, with no packet (as before). Above 0: the close "
           "handshake. A queue pair's PDC idle (every packet acknowledged, no new message) this "
           "long closes; a Flows message's PDC closes when its message completes. Closing sends "
           "CLOSE_CMD (again after the retransmission timeout until its ACK) and frees the "
           "target's receiving end; a target with no free receiving end NACKs NO_PDC_AVAIL and "
           "sends CLOSE_REQ for an idle one.")
        .fabric_wide();
    // Profiles and jobs (docs/jobs-and-profiles.md).
    k.choice("UetNic.Profile", UETSIM_FIELD(nic.uet.profile),
             {{"AIBase", uet_profile::ai_base},
              {"AIFull", uet_profile::ai_full},
              {"HPC", uet_profile::hpc}},
             "The UET 1.0 profile the NIC implements, which decides the optional features a "
             "scenario may ask of it: AIBase RUD, RUDI, UUD and deferrable sends; AIFull also ROD "
             "and RCCC; HPC RUD, ROD, RUDI, UUD and RCCC, no deferrable sends. A scenario asking "
             "for a feature its profile lacks is refused.");
    k.number_list("UetNic.JobTable", UETSIM_FIELD(nic.uet.job_table),
                  "JobIDs 0..16777215; [] (default): every job",
                  "The jobs this NIC serves (its job table, which a job launcher installs): a "
                  "request whose SES JobID is not in it is dropped before any PDC state and "
                  "counted (manifest unknown_job_drops). []: every job, nothing checked.");
    s.rules.push_back(
        {"UetNic.Profile: a scenario asks a UET NIC only for features its profile has (ROD, "
         "RUDI, UUD, deferrable sends, RCCC); UetNic.JobTable holds JobIDs of 24 bits.",
         {"UetNic.Profile", "UetNic.JobTable", "UetNic.RcccEnabled", "Flows",
          "RdmaApplication.Mode", "Chakra.Mode", "Nic.Type"},
         [](scenario& sc, const given_keys&) { check_profiles_and_jobs(sc); }});

    // Before InitialBaseRTT: auto, whose round trip counts the SackUpdate stage.
    std::vector<std::string> stage_latency_keys;
    for (const rtl_block_def& def : rtl_blocks())
        if (def.stage_field)
            stage_latency_keys.insert(stage_latency_keys.end(),
                                      {"UetNic." + def.stage + "Cycles", "Rtl." + def.key});
    s.rules.push_back(
        {"UetNic.EntropyLookupCycles and UetNic.SackUpdateCycles: auto is the latency of the "
         "block the stage consults (Rtl.EntropyLoadBalancer, Rtl.SackTracker), in every mode; "
         "where the block runs in rtl or both, a number below its latency is refused.",
         stage_latency_keys, [](scenario& sc, const given_keys&) {
             resolve_stage_latencies(sc.nic, sc.rtl);
             for (const rtl_block_def& def : rtl_blocks())
                 if (def.stage_field) check_stage_latency(sc, def);
         }});
    s.rules.push_back(
        {"UetNic.InitialBaseRTT: auto is the fabric's unloaded round trip over its longest path.",
         {"UetNic.InitialBaseRTT", "Topology.Hosts"},
         [](scenario& sc, const given_keys&) {
             if (!sc.nic.initial_base_rtt_auto) return;
             const fabric_round_trip r = derive_fabric_rtt(sc);
             if (r.longest_path.empty())
                 fail_rule(
                     "UetNic.InitialBaseRTT: auto needs a path between two hosts; the "
                     "topology has " +
                     std::to_string(host_count(sc.topology)) + " host");
             sc.nic.nscc.initial_base_rtt_s = r.unloaded_rtt_s();
             sc.nic.initial_base_rtt_auto = false;
         }});
    s.rules.push_back(
        {"UetNic: the NSCC and spraying attributes are consistent, at every host's link rate.",
         [] {
             std::vector<std::string> keys = nscc_and_spraying_keys();
             keys.insert(keys.end(), {"Topology.LinkRate", "Link.Rate"});
             return keys;
         }(),
         [](scenario& sc, const given_keys&) {
             // As each NIC derives it: the rate of its own link, the MSS, trimming.
             for (const double rate : host_link_rates(sc)) {
                 const nscc_config cc =
                     derive_uet_nic_params(sc.nic.uet, sc.nic.nscc, sc.nic.spraying, rate).nscc;
                 for (const auto& e : nscc_config_errors(cc))
                     fail_rule("UetNic." + e +
                               (rate == sc.topology.link_rate_bps
                                    ? ""
                                    : " (a host link of " + num(rate / 1e9) + " Gbps, Link.Rate)"));
             }
             if (auto e = entropy_config_error(sc.nic.spraying)) fail_rule("UetNic." + *e);
         }});
    s.rules.push_back(
        {"UetNic.PrefetchBufferSize: with UetNic.PrefetchBufferEnable true, at least one data "
         "packet on the wire, UetNic.RdmaDataMSS + 106 B.",
         {"UetNic.PrefetchBufferEnable", "UetNic.PrefetchBufferSize", "UetNic.RdmaDataMSS"},
         [](scenario& sc, const given_keys&) {
             const uet_nic_config& u = sc.nic.uet;
             const std::string e = prefetch_buffer_error(
                 u.prefetch_buffer_enable, u.prefetch_buffer_size, u.rdma_data_mss, "UetNic.");
             if (!e.empty()) fail_rule(e);
         }});
    s.rules.push_back(
        {"UetNic: each PoolAllocationVector gives classes 0 and 1 a pool, its non-zero entries "
         "first; the egress pool of every data class (RdmaApplication.RdmaDataPacketTC, each "
         "Flows TrafficClass) holds one data packet (RdmaDataMSS + 106 B) and the control "
         "class's one 78-byte ACK; WeightedRoundRobin weights of classes 0 and 1 are at least 1.",
         {"UetNic.EgressPoolAllocationVector", "UetNic.IngressPoolAllocationVector",
          "UetNic.EgressTotalBufferSize", "UetNic.EgressWRRQueueWeights",
          "UetNic.IngressWRRQueueWeights", "UetNic.RdmaDataMSS",
          "RdmaApplication.RdmaDataPacketTC"},
         [](scenario& sc, const given_keys&) {
             if (sc.nic.type != nic_kind::uet) return;
             const uet_nic_config& u = sc.nic.uet;
             std::vector<std::string> errors = {pool_allocation_error(u.egress, "UetNic.Egress"),
                                                pool_allocation_error(u.ingress, "UetNic.Ingress")};
             for (int data_class : nic_data_classes(sc))
                 errors.push_back(egress_pool_error(u.egress, "UetNic.Egress", u.rdma_data_mss,
                                                    data_class, u.control_traffic_class));
             errors.push_back(wrr_weights_error(u.egress, "UetNic.Egress"));
             errors.push_back(wrr_weights_error(u.ingress, "UetNic.Ingress"));
             for (const std::string& e : errors)
                 if (!e.empty()) fail_rule(e);
         }});
}

}  // namespace uetsim::config
