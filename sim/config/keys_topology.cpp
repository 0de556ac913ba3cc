// Topology.* and Link.* keys: the fabric's shape, size, link rate and propagation delays, and
// the rules that tie the host count to the shape.
#include "sim/config/keys_common.h"

#include <algorithm>

#include <fmt/format.h>

#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/elab/scale_estimate.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

std::vector<std::pair<std::string, topology_kind>> topology_kinds()
{
    std::vector<std::pair<std::string, topology_kind>> out;
    for (const auto& s : topology_kind_spellings) out.emplace_back(s.name, s.kind);
    return out;
}

std::string gigabytes(uint64_t bytes)
{
    return fmt::format("{:.1f} GB", double(bytes) / 1e9);
}

// Refuses a fabric whose estimated memory exceeds the machine's, naming the key that sets its
// size and the largest value that fits with the other keys as given.
void check_memory(const scenario& sc, uint64_t memory)
{
    const topology_config& t = sc.topology;
    // A mixed fabric (Nic[glob].Type) at its largest type's bytes per host: a bound.
    const bool raw = fabric_nic(sc, host_count(t)).type == nic_kind::raw;
    uint64_t per_host = 0;
    for (const nic_kind k : nic_kinds_in_use(sc, host_count(t)))
        per_host = std::max(per_host, find_nic_type(k)->bytes_per_host);
    const scale_estimate need = estimate_scale(t, per_host);
    if (memory == 0 || need.bytes <= memory) return;
    const char* nic = raw ? "raw" : "with NICs";
    std::string key, value, fits;
    if (t.kind == topology_kind::fat_tree) {
        key = "Topology.K";
        value = std::to_string(t.k);
        uint32_t k = t.k;
        topology_config c = t;
        while (k > 2) {
            c.k = k -= 2;
            if (estimate_scale(c, per_host).bytes <= memory) break;
        }
        fits = estimate_scale(c, per_host).bytes <= memory
                   ? "at most K = " + std::to_string(k) + " fits"
                   : "no K fits";
    } else {
        key = "Topology.Hosts";
        value = std::to_string(t.hosts);
        const uint32_t step = t.kind == topology_kind::leaf_spine ? t.hosts_per_leaf : 1;
        // Bytes grow linearly with the host count: the largest multiple of `step` that fits.
        topology_config c = t;
        c.hosts = step;
        const scale_estimate one = estimate_scale(c, per_host);
        const uint64_t per_step = one.bytes - scale_bytes_fixed;
        const uint64_t n = memory > scale_bytes_fixed ? (memory - scale_bytes_fixed) / per_step : 0;
        fits = n ? "at most " + std::to_string(n * step) + " hosts" : "no host count";
        if (t.kind == topology_kind::leaf_spine)
            fits += " with Topology.HostsPerLeaf " + std::to_string(t.hosts_per_leaf) +
                    ", Topology.Spines " + std::to_string(t.spines) +
                    " and Topology.UplinksPerSpine " + std::to_string(t.uplinks_per_spine);
        fits += " fit";
    }
    fail_rule(fmt::format(
        "{}: {} needs about {} of memory ({} hosts {}, {} switch ports), more than this "
        "machine's {}: {}{}",
        key, value, gigabytes(need.bytes), need.hosts, nic, need.switch_ports, gigabytes(memory),
        fits, raw ? "" : " (Nic.Type raw needs less per host)"));
}

}  // namespace

void add_topology_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.choice("Topology.Kind", UETSIM_FIELD(topology.kind), topology_kinds(),
             "Shape of the fabric.");
    k.integer("Topology.Hosts", UETSIM_FIELD(topology.hosts), {1, max_hosts},
              "Number of hosts (leaf-spine; single-switch up to 4096; a fat-tree has K^3/4).");
    k.integer("Topology.HostsPerLeaf", UETSIM_FIELD(topology.hosts_per_leaf), {1, 512},
              "Hosts under each leaf (leaf-spine).");
    k.integer("Topology.Spines", UETSIM_FIELD(topology.spines), {1, 256},
              "Number of spines (leaf-spine).");
    k.integer("Topology.UplinksPerSpine", UETSIM_FIELD(topology.uplinks_per_spine), {1, 16},
              "Parallel links between a leaf and each spine (leaf-spine).");
    k.integer("Topology.K", UETSIM_FIELD(topology.k), {2, 64, 2},
              "Fat-tree arity: K pods, K^3/4 hosts (fat-tree).");
    k.rate("Topology.LinkRate", UETSIM_FIELD(topology.link_rate_bps), {1e9, 3.2e12},
           "Rate of every link whose Link.Rate is auto (the default).");

    s.rules.push_back(
        {"Topology.Hosts is a multiple of Topology.HostsPerLeaf (leaf-spine).",
         {"Topology.Kind", "Topology.Hosts", "Topology.HostsPerLeaf"},
         [](scenario& sc, const given_keys&) {
             const auto& t = sc.topology;
             if (t.kind != topology_kind::leaf_spine || t.hosts % t.hosts_per_leaf == 0) return;
             fail_rule("Topology.Hosts (" + std::to_string(t.hosts) +
                       ") must be a multiple of Topology.HostsPerLeaf (" +
                       std::to_string(t.hosts_per_leaf) + ") for a leaf-spine topology");
         }});
    s.rules.push_back(
        {"A fat-tree has K^3/4 hosts: Topology.Hosts is derived and may only be given with that "
         "value.",
         {"Topology.Kind", "Topology.Hosts", "Topology.K"},
         [hosts = s.keys.key("Topology.Hosts").info.path](scenario& sc, const given_keys& given) {
             auto& t = sc.topology;
             if (t.kind != topology_kind::fat_tree) return;
             uint32_t derived = host_count(sc.topology);
             if (given.count(hosts) && t.hosts != derived) {
                 fail_rule("Topology.Hosts: " + std::to_string(t.hosts) +
                           " cannot be set for a fat-tree: its host count is derived from "
                           "Topology.K (K^3/4 = " +
                           std::to_string(derived) + " for K = " + std::to_string(t.k) +
                           "); remove Topology.Hosts or change Topology.K");
             }
             t.hosts = derived;
         }});
    s.rules.push_back(
        {"A single-switch topology has at most 4096 hosts (its routes are a table per host).",
         {"Topology.Kind", "Topology.Hosts"},
         [](scenario& sc, const given_keys&) {
             const auto& t = sc.topology;
             if (t.kind != topology_kind::single_switch || t.hosts <= max_single_switch_hosts)
                 return;
             fail_rule("Topology.Hosts: " + std::to_string(t.hosts) +
                       " is more than a single-switch topology allows (at most " +
                       std::to_string(max_single_switch_hosts) +
                       "); use a leaf-spine or a fat-tree");
         }});
    s.rules.push_back(
        {"A spine has at most 65536 ports: Topology.Hosts / Topology.HostsPerLeaf x "
         "Topology.UplinksPerSpine (leaf-spine).",
         {"Topology.Kind", "Topology.Hosts", "Topology.HostsPerLeaf", "Topology.UplinksPerSpine"},
         [](scenario& sc, const given_keys&) {
             const auto& t = sc.topology;
             if (t.kind != topology_kind::leaf_spine || t.hosts_per_leaf == 0) return;
             const uint64_t ports = uint64_t(t.hosts / t.hosts_per_leaf) * t.uplinks_per_spine;
             if (ports <= max_switch_ports) return;
             fail_rule("Topology.Hosts: " + std::to_string(t.hosts) + " gives each spine " +
                       std::to_string(ports) + " ports (Hosts / HostsPerLeaf " +
                       std::to_string(t.hosts_per_leaf) + " x UplinksPerSpine " +
                       std::to_string(t.uplinks_per_spine) + "), more than a switch has (at most " +
                       std::to_string(max_switch_ports) +
                       "); raise Topology.HostsPerLeaf or lower Topology.UplinksPerSpine");
         }});
    s.rules.push_back(
        {"The fabric fits the machine's physical memory, estimated from Topology.Kind, "
         "Topology.Hosts, Topology.HostsPerLeaf, Topology.Spines, Topology.UplinksPerSpine, "
         "Topology.K and Nic.Type (docs/performance.md, Scale).",
         {"Topology.Kind", "Topology.Hosts", "Topology.HostsPerLeaf", "Topology.Spines",
          "Topology.UplinksPerSpine", "Topology.K", "Nic.Type"},
         [](scenario& sc, const given_keys&) { check_memory(sc, physical_memory_bytes()); }});
}

namespace {

// The replay buffer `auto` gives link `l`.
uint64_t auto_buffer(link_spec l, uint32_t frame)
{
    l.llr_replay_buffer_bytes = 0;
    return llr_values(l, frame).replay_buffer_bytes;
}

// Every CBFC link as resolved: its VC map, its advertised credit against one frame and the
// counters' range, and its ends: NICs or switches, lossless classes at a switch, a NIC receive
// pool that holds the credit (docs/link-layer.md).
void check_cbfc_links(const scenario& sc)
{
    const topology t = build_topology(sc);
    const uint32_t largest = largest_frame_bytes(sc);
    for (const link_spec& l : t.links) {
        if (!l.cbfc.enabled && l.cbfc_vc_map.empty()) continue;
        const std::string on = " on link " + l.name;
        cbfc_settings parsed;
        if (std::string e = parse_cbfc_vc_map(l.cbfc_vc_map, parsed); !e.empty())
            fail_rule("Link.CbfcVcMap \"" + l.cbfc_vc_map + "\"" + on + ": " + e +
                      "; allowed: class:VC pairs, each class 0 to 7 at most once, each VC 0 to 7 "
                      "(e.g. \"0:0, 1:1\")");
        const cbfc_settings& c = l.cbfc;
        const uint64_t frame_credit = uint64_t(c.credits_for(largest)) * c.credit_unit_bytes;
        if (c.vc_buffer_bytes() < frame_credit)
            fail_rule(fmt::format(
                "Link.CbfcVcBufferBytes {} B{}: the receiver's buffer per VC is smaller than one "
                "frame's credit ({} B frame = {} credits of Link.CbfcCreditUnitBytes {} B = {} B); "
                "allowed: at least {} B, or 0 for the line-rate need",
                l.cbfc_vc_buffer_key ? l.cbfc_vc_buffer_key : c.vc_buffer_bytes(), on, largest,
                c.credits_for(largest), c.credit_unit_bytes, frame_credit, frame_credit));
        if (c.vc_credits > cbfc_max_vc_credits)
            fail_rule(fmt::format(
                "Link.CbfcVcBufferBytes {} B{} is {} credits of Link.CbfcCreditUnitBytes {} B; "
                "allowed: at most {} credits per VC (the credit counters' half range): raise "
                "Link.CbfcCreditUnitBytes or lower Link.CbfcVcBufferBytes",
                l.cbfc_vc_buffer_key ? l.cbfc_vc_buffer_key : c.vc_buffer_bytes(), on, c.vc_credits,
                c.credit_unit_bytes, cbfc_max_vc_credits));
        for (uint32_t d : {l.a_device, l.b_device}) {
            const device& dev = t.devices[d];
            if (dev.kind == device_kind::host) {
                const nic_config n = nic_for(sc, dev.name);
                if (n.type == nic_kind::raw)
                    fail_rule("Link.Cbfc true" + on + ": " + dev.name +
                              " is a raw host (Nic.Type raw), which has no CBFC; allowed: CBFC "
                              "between NICs (uet, roce) and switches");
                const bool roce = n.type == nic_kind::roce;
                const nic_ingress_settings& in = roce ? n.roce.ingress : n.uet.ingress;
                const std::string key = roce ? "RoceNic" : "UetNic";
                for (int tc = 0; tc < 8; ++tc) {
                    if (c.vc_of_tc[size_t(tc)] == cbfc_no_vc || tc >= in.classes()) continue;
                    if (in.pool_bytes(tc) < c.vc_buffer_bytes())
                        fail_rule(fmt::format(
                            "Link.CbfcVcBufferBytes {} B{}: {}'s receive pool for class {} is "
                            "{} B ({}.IngressTotalBufferSize x "
                            "{}.IngressPoolAllocationVector[{}]); "
                            "allowed: at most the pool, which must hold what the NIC advertises",
                            c.vc_buffer_bytes(), on, dev.name, tc, in.pool_bytes(tc), key, key,
                            tc));
                }
            } else {
                const switch_config sw = switch_for(sc, dev.name);
                for (int tc = 0; tc < 8; ++tc)
                    if (c.vc_of_tc[size_t(tc)] != cbfc_no_vc &&
                        !(size_t(tc) < sw.buffer.enable_pfc.size() &&
                          sw.buffer.enable_pfc[size_t(tc)] == 1))
                        fail_rule(fmt::format(
                            "Link.CbfcVcMap \"{}\"{} puts class {} on CBFC, but {}'s "
                            "Switch.EnablePFC makes it lossy; allowed: classes that are lossless "
                            "(Switch.EnablePFC 1) at both ends' switches",
                            l.cbfc_vc_map, on, tc, dev.name));
            }
        }
    }
}

void add_cbfc_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.boolean("Link.Cbfc", UETSIM_FIELD(link.cbfc),
              "Credit-based flow control on the link, both directions (Link[leaf0-spine*].Cbfc): "
              "a class on a virtual channel is sent only with the receiver's credit and does not "
              "use PFC on this link (docs/link-layer.md).");
    k.text("Link.CbfcVcMap", UETSIM_FIELD(link.cbfc_vc_map),
           {"class:VC pairs, e.g. \"0:0, 1:1\" (classes and VCs 0 to 7, each class once)",
            [](const std::string&) -> std::optional<std::string> { return std::nullopt; }},
           "The traffic classes that use CBFC on the link and the virtual channel of each; a "
           "class not listed uses PFC (or is lossy) as without CBFC.");
    k.bytes("Link.CbfcCreditUnitBytes", UETSIM_FIELD(link.cbfc_credit_unit_bytes), {1, 65536},
            "Bytes per credit: a frame takes its wire bytes rounded up to whole credits.");
    k.time("Link.CbfcCreditUpdateInterval", UETSIM_FIELD(link.cbfc_credit_update_interval_s),
           {0, 1e-3},
           "Least spacing of a receiver's credit updates on the link: freed credit is reported "
           "at once when the last update is at least this old, else when it is; 0: one update "
           "per freeing.");
    k.time("Link.CbfcSyncInterval", UETSIM_FIELD(link.cbfc_sync_interval_s), {0, 1},
           "A sender whose VC has been stalled this long with no credit update sends a credit "
           "sync (its credits spent since link-up, in an update frame), and again every "
           "interval while the stall lasts: the receiver counts the frames lost on the link "
           "and returns their credit; 0: never (a lost frame's credit is then lost for good).");
    k.bytes("Link.CbfcUpdateFrameBytes", UETSIM_FIELD(link.cbfc_update_frame_bytes), {64, 1522},
            "Wire size of a credit update frame (FCS included, no preamble or IFG), sent ahead of "
            "all data like a PFC frame.");
    k.bytes("Link.CbfcVcBufferBytes", UETSIM_FIELD(link.cbfc_vc_buffer_bytes), {0, u32_max},
            "Receive buffer each end advertises per VC, rounded down to whole credits (inspect "
            "--json links: cbfc.vc_buffer_bytes); 0: the line-rate need, rate x (2 x delay + "
            "update interval + a switch end's forwarding latency and frame time) + 2 largest "
            "frames + an update frame.");
    s.rules.push_back(
        {"A CBFC link has a valid CbfcVcMap, advertises at least one frame's credit "
         "and at most 32767 credits per VC, has NICs or switches at its ends, its "
         "classes lossless at a switch and within a NIC's receive pool.",
         {"Link.Cbfc", "Link.CbfcVcMap", "Link.CbfcVcBufferBytes", "Link.CbfcCreditUnitBytes"},
         [](scenario& sc, const given_keys&) { check_cbfc_links(sc); }});
}

}  // namespace

void add_link_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.time("Link.NicDelay", UETSIM_FIELD(link.nic_delay_s), {0, 1e-3},
           "Propagation delay of host-to-switch links (a link whose Link.Delay is auto).")
        .fabric_wide();
    k.time("Link.SwitchDelay", UETSIM_FIELD(link.switch_delay_s), {0, 1e-3},
           "Propagation delay of switch-to-switch links (a link whose Link.Delay is auto).")
        .fabric_wide();
    k.quantity_or_auto("Link.Rate", dimension::rate, UETSIM_FIELD(link.rate_bps),
                       UETSIM_FIELD(link.rate_auto), {1e9, 3.2e12},
                       "Rate of a link, both directions (Link[leaf0-spine*].Rate); auto: "
                       "Topology.LinkRate. A host's NIC runs at its own link's rate.");
    k.quantity_or_auto("Link.Delay", dimension::time, UETSIM_FIELD(link.delay_s),
                       UETSIM_FIELD(link.delay_auto), {0, 1e-3},
                       "Propagation delay of a link (Link[host3-leaf0].Delay); auto: "
                       "Link.NicDelay for a host's link, Link.SwitchDelay between switches.");
    k.real("Link.BitErrorRate", UETSIM_FIELD(link.bit_error_rate), {0, 1e-3},
           "Probability that a bit on the wire is wrong: a frame of W wire bytes fails the "
           "receiver's FCS check, and is dropped, with probability 1 - (1 - BER)^(8 W), drawn "
           "per link direction from Simulation.RandomSeed. 0: nothing is drawn.");
    k.choice("Link.Llr", UETSIM_FIELD(link.llr),
             {{"false", link_llr::off},
              {"true", link_llr::both},
              {"a", link_llr::a_only},
              {"b", link_llr::b_only}},
             "Link Level Retry on the link (docs/link-layer.md): true on both ends, false on "
             "neither; a or b names the one end whose port has it, which is refused (LLR needs "
             "both ends).");
    k.bytes_or_auto("Link.LlrReplayBufferBytes", UETSIM_FIELD(link.llr_replay_buffer_bytes),
                    UETSIM_FIELD(link.llr_replay_buffer_auto), {1, int64_t(1) << 32},
                    "Each end's LLR replay buffer: frames sent and not yet acknowledged; a frame "
                    "that does not fit waits (the port stalls). auto: the link's LLR round trip "
                    "at its rate, rounded up to whole largest frames (inspect --json, links). At "
                    "least one largest frame.")
        .default_shown("auto");
    k.quantity_or_auto("Link.LlrReplayTimeout", dimension::time,
                       UETSIM_FIELD(link.llr_replay_timeout_s),
                       UETSIM_FIELD(link.llr_replay_timeout_auto), {1e-9, 1},
                       "LLR replay timer: with frames held and no ACK or NACK that makes "
                       "progress for this long, every held frame is sent again. auto: twice the "
                       "link's LLR round trip. At least that round trip.")
        .default_shown("auto");
    k.bytes("Link.LlrControlBytes", UETSIM_FIELD(link.llr_control_bytes), {1, 64},
            "Wire size of one LLR_ACK or LLR_NACK control ordered set (one 64b/66b block).");
    k.bytes("Link.LlrAckSpacingBytes", UETSIM_FIELD(link.llr_ack_spacing_bytes), {0, 65536},
            "LLR CtlOS target spacing: a receiver sends at most one LLR_ACK per this many byte "
            "times of its own wire (NACKs go at once); 0: an ACK after every frame.");
    s.rules.push_back(
        {"Link.Llr is on both ends of a link; its replay buffer holds at least one largest frame "
         "and its replay timeout is at least its LLR round trip.",
         {"Link.Llr", "Link.LlrReplayBufferBytes", "Link.LlrReplayTimeout"},
         [](scenario& sc, const given_keys&) {
             bool any = sc.link.llr != link_llr::off;
             for (const auto& o : sc.overrides) any = any || o.section == "Link";
             if (!any) return;
             const topology t = build_topology(sc);
             const uint32_t frame = largest_data_frame(sc, t.hosts);
             for (const link_spec& l : t.links) {
                 const std::string at = "Link[" + l.name + "].";
                 if (l.llr == link_llr::a_only || l.llr == link_llr::b_only) {
                     const bool a = l.llr == link_llr::a_only;
                     fail_rule(at + "Llr: " + (a ? "a" : "b") + " (LLR on end " +
                               (a ? "A, " + t.devices[l.a_device].name
                                  : "B, " + t.devices[l.b_device].name) +
                               ", only): LLR needs both ends of a link (each end numbers the "
                               "frames it sends and acknowledges those it receives); set true "
                               "or false");
                 }
                 if (l.llr != link_llr::both) continue;
                 const link_llr_values v = llr_values(l, frame);
                 if (l.llr_replay_buffer_bytes && l.llr_replay_buffer_bytes < frame)
                     fail_rule(
                         at + "LlrReplayBufferBytes: " + std::to_string(l.llr_replay_buffer_bytes) +
                         " B is smaller than one frame of this link (" + std::to_string(frame) +
                         " B, the largest data frame: MSS + headers); at least " +
                         std::to_string(frame) + " B, or auto (" +
                         std::to_string(auto_buffer(l, frame)) + " B here)");
                 if (l.llr_replay_timeout_s > 0 && l.llr_replay_timeout_s < v.round_trip_s)
                     fail_rule(at + "LlrReplayTimeout: " + num(l.llr_replay_timeout_s * 1e9) +
                               " ns is shorter than the link's LLR round trip (" +
                               num(v.round_trip_s * 1e9) +
                               " ns): every frame would be replayed before its ACK could "
                               "arrive; at least that, or auto");
             }
         }});
    add_cbfc_keys(s);
}

}  // namespace uetsim::config
