// The Flows list: directed messages between hosts, and the rule that checks them against the
// topology.
#include "sim/config/keys_common.h"

#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

key_table<flow_spec> flow_keys()
{
    key_table<flow_spec> t;
    t.integer("Src", UETSIM_FIELD(src), {0, u32_max},
              "Sending host (hosts are numbered from 0 in topology order, leaf 0's first).")
        .required();
    t.integer("Dst", UETSIM_FIELD(dst), {0, u32_max}, "Receiving host.").required();
    t.bytes("Bytes", UETSIM_FIELD(bytes), {0, 1ull << 40}, "Message size (at most 1 TiB).")
        .required();
    t.time("Start", UETSIM_FIELD(start_s), {0, 100}, "When the sender starts the message.");
    t.integer("Entropy", UETSIM_FIELD(entropy), {-1, 65535},
              "Nic.Type raw only: entropy value (UDP source port) of the first packet; -1 draws "
              "one from the run's seed. A UET NIC chooses its own (UetNic.PacketSprayingType).");
    t.integer("EntropyValues", UETSIM_FIELD(entropy_values), {1, 65536},
              "Nic.Type raw only: how many consecutive entropy values the packets cycle through "
              "(1: one fixed value for the flow).");
    t.integer("TrafficClass", UETSIM_FIELD(traffic_class), {0, 7}, "Traffic class of the packets.");
    t.choice("CompletionAt", UETSIM_FIELD(completion_at),
             {{"initiator", completion_point::initiator}, {"target", completion_point::target}},
             "Where flow-perf times the message: initiator, when the sending NIC has every byte "
             "acknowledged; target, when the receiving NIC's completion entry lands in the "
             "receiver's memory (every byte placed, then the entry's PCIe write). Any target "
             "entry makes every NIC write receive completions. A NIC-less (raw) message completes "
             "at its receiver either way.");
    t.time_or_none(
        "RecvPostedAt", UETSIM_FIELD(recv_posted_s), {0, 100},
        "UET NICs only: makes the message a deferrable send (UET 1.0 DEFERRABLE_SEND) whose "
        "receive buffer the receiver's host posts at this time. A message whose first packet "
        "arrives before then is deferred (its transfer discarded and acknowledged as "
        "deferred) and restarted from its first byte after the receiver's RTR; one arriving "
        "later goes eagerly. none: the buffer is posted in advance, an ordinary send.");
    t.choice("Mode", UETSIM_FIELD(mode),
             {{"RUD", delivery_mode::rud},
              {"ROD", delivery_mode::rod},
              {"RUDI", delivery_mode::rudi},
              {"UUD", delivery_mode::uud}},
             "Nic.Type uet only: the PDS delivery mode of the message. RUD: reliable unordered, "
             "sprayed over the paths, SACK. ROD: reliable ordered on one path (one entropy value "
             "for the PDC, no spraying), a packet past a gap dropped and NACKed (ROD_OOO), the "
             "sender going back N. RUDI: reliable unordered for idempotent operations, sprayed, "
             "no PDC at the target, each packet id answered by a RUDI_RESP. UUD: unreliable "
             "unordered, sprayed, no acknowledgement: the sender completes when the last packet "
             "has left and a lost packet leaves the message incomplete, reported "
             "(docs/delivery-modes.md).",
             {});
    t.integer("JobId", UETSIM_FIELD(job_id), {0, 16777215},
              "Nic.Type uet only: the JobID (24 bits) the message's requests carry in their SES "
              "header; the receiving NIC drops a request whose job its UetNic.JobTable does not "
              "hold (docs/jobs-and-profiles.md).");
    return t;
}

}  // namespace

void add_flows_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.table("Flows", UETSIM_FIELD(flows.messages), flow_keys(),
            "{Src: 0, Dst: 8, Bytes: 4MiB, Start: 0s}",
            "Messages between hosts, each sent as RdmaDataMSS-sized packets (a Flows-only run ends "
            "when every message is done).");

    s.rules.push_back(
        {"Every flow's Src and Dst are hosts of the topology and differ; a fixed Entropy plus "
         "EntropyValues stays within 0..65535; Start is before Simulation.StopTime.",
         {"Flows", "Topology.Hosts", "Simulation.StopTime", "Nic.Type"},
         [](scenario& sc, const given_keys&) {
             uint32_t hosts = host_count(sc.topology);
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
                 if (f.recv_posted_s >= 0) {
                     for (auto [key, host] : {std::pair{"Src", f.src}, std::pair{"Dst", f.dst}})
                         if (host_nic_kind(sc, host) != nic_kind::uet)
                             fail_rule(name + ".RecvPostedAt: " +
                                       format_quantity(f.recv_posted_s, dimension::time) +
                                       " makes a deferrable send, which UET NICs have (the AI "
                                       "profiles); its " +
                                       key + " host " + std::to_string(host) + " has Nic.Type " +
                                       std::string(host_nic_kind(sc, host).name) +
                                       "; allowed: a message between two uet hosts, or no "
                                       "RecvPostedAt");
                     if (f.recv_posted_s >= sc.simulation.stop_time_s)
                         fail_rule(
                             name +
                             ".RecvPostedAt: " + format_quantity(f.recv_posted_s, dimension::time) +
                             " is not before Simulation.StopTime (" +
                             format_quantity(sc.simulation.stop_time_s, dimension::time) + ")");
                 }
                 if (f.start_s >= sc.simulation.stop_time_s)
                     fail_rule(name + ".Start: " + format_quantity(f.start_s, dimension::time) +
                               " is not before Simulation.StopTime (" +
                               format_quantity(sc.simulation.stop_time_s, dimension::time) + ")");
             }
         }});

    s.rules.push_back(
        {"A delivery mode other than RUD (Flows Mode, RdmaApplication.Mode, Chakra.Mode) needs "
         "UET NICs at the hosts it runs on; ROD keeps one path, so it refuses "
         "UetNic.PacketSprayingType given as a spraying policy other than the default.",
         {"Flows", "RdmaApplication.Mode", "Chakra.Mode", "Nic.Type", "UetNic.PacketSprayingType"},
         [](scenario& sc, const given_keys& given) {
             const uint32_t hosts = host_count(sc.topology);
             // `key` asks for `mode` on `on` (the hosts it sends between).
             auto check = [&](const std::string& key, delivery_mode mode,
                              const std::vector<uint32_t>& on) {
                 if (mode == delivery_mode::rud) return;
                 const std::string name = delivery_mode_name(mode);
                 for (const uint32_t h : on) {
                     if (h >= hosts) continue;
                     const nic_kind k = host_nic_kind(sc, h);
                     if (k != nic_kind::uet)
                         fail_rule(key + ": " + name + " on host" + std::to_string(h) +
                                   ", whose Nic.Type is " + std::string(k.name) +
                                   "; the delivery modes are UET's: allowed with Nic.Type " +
                                   std::string(k.name) + ": RUD");
                 }
                 if ((mode == delivery_mode::rudi || mode == delivery_mode::uud) &&
                     sc.nic.uet.rccc.enabled)
                     fail_rule(key + ": " + name +
                               " carries no credit target and gets no ACK_CC (its headers have "
                               "no CC state), but UetNic.RcccEnabled is true; allowed with "
                               "RcccEnabled: RUD, ROD");
                 // The default policy given explicitly (a printed scenario does) is as not given.
                 const packet_spraying_type by_default = scenario{}.nic.spraying.type;
                 if (mode == delivery_mode::rod && given.count("UetNic.PacketSprayingType") &&
                     sc.nic.spraying.type != packet_spraying_type::none &&
                     sc.nic.spraying.type != by_default)
                     fail_rule(
                         key + ": ROD sends on one path, but UetNic.PacketSprayingType is " +
                         std::string(spraying_type_name(sc.nic.spraying.type)) +
                         " (spraying forced on); allowed with ROD: PacketSprayingType None, " +
                         std::string(spraying_type_name(by_default)) +
                         " or not given (ROD fixes one entropy value per PDC)");
             };
             for (size_t i = 0; i < sc.flows.messages.size(); ++i) {
                 const flow_spec& f = sc.flows.messages[i];
                 check("Flows[" + std::to_string(i) + "].Mode", f.mode, {f.src, f.dst});
                 if (f.mode != delivery_mode::rud && f.recv_posted_s >= 0)
                     fail_rule("Flows[" + std::to_string(i) +
                               "].Mode: " + delivery_mode_name(f.mode) +
                               " with RecvPostedAt (a deferrable send) is not modelled; allowed "
                               "with RecvPostedAt: RUD");
                 if (f.mode == delivery_mode::uud && f.completion_at == completion_point::target)
                     fail_rule("Flows[" + std::to_string(i) +
                               "].Mode: UUD with CompletionAt target: a UUD message that loses "
                               "a packet never completes at its target; allowed with UUD: "
                               "CompletionAt initiator (when its last packet has left)");
             }
             std::vector<uint32_t> all(hosts);
             for (uint32_t h = 0; h < hosts; ++h) all[h] = h;
             if (sc.rdma.enabled) check("RdmaApplication.Mode", sc.rdma.mode, all);
             if (sc.chakra.enabled()) check("Chakra.Mode", sc.chakra.mode, all);
         }});
}

}  // namespace uetsim::config
