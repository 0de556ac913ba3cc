// RdmaApplication.* keys: the RDMA application's placement, connections and WQEs, and the
// rule that turns it on and derives the stop time from its timeline.
#include "sim/config/keys_common.h"

#include <algorithm>

#include "testbench/elab/host_nic_types.h"
#include "testbench/traffic/app/placement.h"
#include "testbench/traffic/app/timeline.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

void add_rdma_application_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.boolean("RdmaApplication.Enabled", UETSIM_FIELD(rdma.enabled),
              "Run the RDMA application. Default: on exactly when the Flows list is empty.")
        .default_shown("true without Flows, else false");
    k.real("RdmaApplication.InitiatorRatio", UETSIM_FIELD(rdma.initiator_ratio), {0, 1},
           "Share of the hosts that run an Initiator: floor(ratio x hosts), at least 1; must be "
           "above 0 and add up to 1 with ResponderRatio.");
    k.real("RdmaApplication.ResponderRatio", UETSIM_FIELD(rdma.responder_ratio), {0, 1},
           "Share of the hosts that run a Responder: floor(ratio x hosts), at least 1; must be "
           "above 0 and add up to 1 with InitiatorRatio.");
    k.integer("RdmaApplication.NumConnections", UETSIM_FIELD(rdma.num_connections), {1, 1024},
              "Connections per Initiator-Responder pair, each its own queue pair.");
    k.integer("RdmaApplication.MaxPendingWQEs", UETSIM_FIELD(rdma.max_pending_wqes), {0, 4096},
              "WQEs each connection keeps outstanding (closed loop); 0 posts nothing.");
    k.choice("RdmaApplication.StartType", UETSIM_FIELD(rdma.start),
             {{"simultaneous", start_type::simultaneous},
              {"uniform", start_type::uniform},
              {"sequential", start_type::sequential}},
             "When each connection sends its connection request in the client start window: all at "
             "its start, at independent uniform random times, or evenly spaced one after another.");
    k.bytes("RdmaApplication.WqeSize", UETSIM_FIELD(rdma.wqe_bytes), {1, 1ull << 30},
            "Bytes of every WQE (an RDMA WRITE).");
    k.bytes("RdmaApplication.DoorbellPayloadSize", UETSIM_FIELD(rdma.doorbell_payload_bytes),
            {0, 4096},
            "Payload of the doorbell message posting a WQE on the host-to-NIC PCIe direction (plus "
            "28 B of UDP and IPv4 headers).");
    k.integer("RdmaApplication.RdmaDataPacketTC", UETSIM_FIELD(rdma.data_tc), {0, 7},
              "Traffic class of the RDMA WRITE data packets (DSCP 8 x class; the UET NIC adds its "
              "codepoint role in the low 3 bits).");
    k.integer("RdmaApplication.RdmaControlPacketTC", UETSIM_FIELD(rdma.control_tc), {0, 7},
              "Traffic class of the RoCE NIC's ACKs and NAKs (DSCP 8 x class; its egress pool "
              "must hold one 126-byte ACK). The UET NIC sends its control packets on class 1 "
              "whatever this says.");
    k.choice("RdmaApplication.CompletionAt", UETSIM_FIELD(rdma.completion_at),
             {{"initiator", completion_point::initiator}, {"target", completion_point::target}},
             "What rdma-perf and perf time a WQE to: initiator, its completion entry landing in "
             "the Initiator's memory (every byte acknowledged); target, the Responder NIC's "
             "receive completion landing in the Responder's memory (every byte placed, then the "
             "entry's PCIe write), which makes every NIC write receive completions. The closed "
             "loop posts the next WQE on the Initiator's completion either way.");
    k.choice(
        "RdmaApplication.Mode", UETSIM_FIELD(rdma.mode),
        {{"RUD", delivery_mode::rud}, {"ROD", delivery_mode::rod}, {"RUDI", delivery_mode::rudi}},
        "Nic.Type uet only: the PDS delivery mode of every WQE's message (a queue pair's "
        "PDC keeps it); RUDI: no PDC at the target, a RUDI_RESP "
        "per packet. UUD (unacknowledged, lossy) is for Flows only "
        "(docs/delivery-modes.md).",
        {"UUD"});
    k.integer("RdmaApplication.JobId", UETSIM_FIELD(rdma.job_id), {0, 16777215},
              "Nic.Type uet only: the JobID (24 bits) of the application instance, carried in the "
              "SES header of every WQE's requests (docs/jobs-and-profiles.md).");
    k.fixed_choice("RdmaApplication.OpCode", "RDMA_OPCODE_WRITE_FIRST",
                   "Every WQE is an RDMA WRITE (the NIC chooses each packet's opcode).", {});
    k.fixed_choice("RdmaApplication.RdmaVerb", "RDMA_VERB_POST_WRITE",
                   "Every WQE is posted as an RDMA WRITE.", {});

    s.rules.push_back(
        {"RdmaApplication.Enabled defaults to on exactly when Flows is empty and no Chakra "
         "workload is given. With the application "
         "on: Nic.Type is uet or roce, the topology has at least 2 hosts, InitiatorRatio and "
         "ResponderRatio are above 0 and add up to 1, the timeline's times are at least 0, and "
         "Simulation.StopTime becomes the timeline's stop time (or StopTime if given and earlier).",
         {"RdmaApplication.Enabled", "Flows", "Chakra.Traces", "Collectives", "Nic.Type",
          "Topology.Hosts", "RdmaApplication.RdmaControlPacketTC", "RdmaApplication.InitiatorRatio",
          "RdmaApplication.ResponderRatio", "Simulation.RandomSeed", "Simulation.StartTime",
          "Simulation.ClientStartOffset", "Simulation.ClientStartInterval", "Simulation.WarmUp",
          "Simulation.RunTime", "Simulation.CoolDown", "Simulation.StopTime"},
         [enabled = s.keys.key("RdmaApplication.Enabled").info.path,
          stop_time = s.keys.key("Simulation.StopTime").info.path](scenario& sc,
                                                                   const given_keys& given) {
             auto& app = sc.rdma;
             if (!given.count(enabled))
                 app.enabled = sc.flows.messages.empty() && !sc.chakra.enabled();
             if (!app.enabled) return;
             if (fabric_nic(sc, host_count(sc.topology)).type == nic_kind::raw)
                 fail_rule(
                     "Nic.Type is raw but the RDMA application needs NICs: set Nic.Type: uet, or "
                     "give Flows and RdmaApplication.Enabled: false");
             const uint32_t hosts = host_count(sc.topology);
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
             sc.simulation.stop_time_s =
                 given.count(stop_time) ? std::min(sc.simulation.stop_time_s, stop) : stop;
         }});
}

}  // namespace uetsim::config
