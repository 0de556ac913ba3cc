// The buffer and PFC keys every NIC section has (the two buffer managers of the NIC pages, the
// PFC thresholds and quanta), declared once and registered for each NIC section over its own
// config struct: both NICs' ports are one nic_port (hw/nic/common/nic_port.h), so the keys mean
// the same there. What differs per NIC (the egress minimum, what is sent ahead of every class,
// what a pool must hold, the PFC default) comes as notes.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/keys_common.h"

namespace uetsim::config {

// The traffic classes a NIC's data packets use: RdmaDataPacketTC with the application (and the
// Chakra workload), each Flows entry's TrafficClass. Each needs an egress pool that holds one
// data packet (its own class's pool reserves it).
inline std::set<int> nic_data_classes(const scenario& sc)
{
    std::set<int> out;
    if (sc.rdma.enabled) out.insert(sc.rdma.data_tc);
    for (const auto& f : sc.flows.messages) out.insert(f.traffic_class);
    if (out.empty()) out.insert(sc.rdma.data_tc);
    return out;
}

struct nic_buffer_key_notes
{
    uint32_t egress_min_bytes = 1;
    std::string egress_total;  // sentences after EgressTotalBufferSize's
    std::string sent_first;    // what always goes ahead of every class: "PFC frames"
    std::string egress_pools;  // sentences after EgressPoolAllocationVector's
    std::string pfc_default;   // PFCEnableVector's default, said in parentheses
    std::string xon;           // a clause after PfcXonResumeThreshold's
};

// Section `s` (UetNic) over the struct `section(scenario)` returns (nic.uet): egress, ingress
// and pfc_enable_vector as hw/nic/common/nic_buffer_config.h declares them.
template <class Section>
void add_nic_buffer_keys(key_table<scenario>& k, const std::string& s, Section section,
                         const nic_buffer_key_notes& n)
{
    // A field of the section's struct, given by its path there:
    // field(UETSIM_FIELD(egress.wrr_weights)).
    const auto field = [section](auto member) {
        return [ section, member ](auto& o) -> auto&
        {
            return member(section(o));
        };
    };
    const std::vector<std::pair<std::string, queue_scheduling>> scheduling = {
        {"StrictPriority", queue_scheduling::strict_priority},
        {"RoundRobin", queue_scheduling::round_robin},
        {"WeightedRoundRobin", queue_scheduling::weighted_round_robin}};
    k.bytes(s + ".EgressTotalBufferSize", field(UETSIM_FIELD(egress.total_buffer_bytes)),
            {int64_t(n.egress_min_bytes), u32_max},
            "Transmit buffer (EgressBufferManager TotalBufferSize): each class's transmit pool "
            "is its " +
                s + ".EgressPoolAllocationVector entry times this size." + n.egress_total);
    k.choice(s + ".EgressQueueSchedulingType", field(UETSIM_FIELD(egress.scheduling)), scheduling,
             "How the network port chooses the next traffic class to send: StrictPriority "
             "(highest-numbered class first), RoundRobin or WeightedRoundRobin; " +
                 n.sent_first + " always go first, paused classes are skipped.");
    k.class_list(
        s + ".EgressPoolAllocationVector", field(UETSIM_FIELD(egress.pool_allocation)), {0, 1},
        false,
        "Fraction of " + s +
            ".EgressTotalBufferSize each traffic class gets as its "
            "transmit pool; the non-zero entries come first, from class 0, classes 0 and 1 "
            "need one." +
            n.egress_pools);
    k.class_list(s + ".EgressWRRQueueWeights", field(UETSIM_FIELD(egress.wrr_weights)), {0, 65535},
                 true,
                 "With WeightedRoundRobin, the most packets each traffic class sends in one turn "
                 "(classes 0 and 1 at least 1).");
    k.bytes(s + ".IngressTotalBufferSize", field(UETSIM_FIELD(ingress.total_buffer_bytes)),
            {1, u32_max},
            "Receive buffer (IngressBufferManager TotalBufferSize): each class's receive pool is "
            "its " +
                s +
                ".IngressPoolAllocationVector entry times this size; a received packet "
                "its pool cannot hold is dropped (nd-stats rx_drops).");
    k.choice(s + ".IngressQueueSchedulingType", field(UETSIM_FIELD(ingress.scheduling)), scheduling,
             "Accepted as the page has it: received data is written to the host in arrival "
             "order with any of them.");
    k.class_list(s + ".IngressPoolAllocationVector", field(UETSIM_FIELD(ingress.pool_allocation)),
                 {0, 1}, false,
                 "Fraction of " + s +
                     ".IngressTotalBufferSize each traffic class gets as its "
                     "receive pool; the non-zero entries come first, from class 0, classes 0 and 1 "
                     "need one.");
    k.class_list(s + ".IngressWRRQueueWeights", field(UETSIM_FIELD(ingress.wrr_weights)),
                 {0, 65535}, true,
                 "Accepted as the page has it; they do not change the order of received packets.");
    k.class_list(s + ".PFCEnableVector", field(UETSIM_FIELD(pfc_enable_vector)), {-1e18, 1e18},
                 false,
                 "Classes the NIC sends PFC pauses for when their receive pool reaches Xoff: 1 "
                 "enables the class, any other value leaves it disabled" +
                     (n.pfc_default.empty() ? "" : " (" + n.pfc_default + ")") +
                     ". Received pauses are honoured for every class whatever this says.");
    k.class_list(s + ".PfcStaticXoffThreshold", field(UETSIM_FIELD(ingress.xoff_fraction)), {0, 1},
                 false,
                 "Fraction of each class's receive pool at which the NIC pauses its rack switch "
                 "(occupancy with the arriving packet); the rest of the pool is headroom.");
    k.class_list(s + ".PfcXonResumeThreshold", field(UETSIM_FIELD(ingress.xon_fraction)), {0, 1},
                 false,
                 "Fraction of each class's receive pool at or below which a release sends XON (a "
                 "refresh every half pause time also sends XON once below Xoff)" +
                     n.xon + ".");
    k.class_list(s + ".QuantaValue", field(UETSIM_FIELD(ingress.quanta)), {0, 65535}, true,
                 "Pause quanta (512 bit times each) the NIC requests in its pause frames per "
                 "class: 65535 pause a 400 Gbps port for 83.9 us plus the link's delay, "
                 "re-checked every half of that.");
}

}  // namespace uetsim::config
