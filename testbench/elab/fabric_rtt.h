// The fabric's own round trip (inspect --json `fabric`, UetNic.InitialBaseRTT: auto): the RTT
// sample a UET NIC takes on an idle fabric over its longest path, from the topology and the
// sections' timing. It is summed in integer picoseconds with the model's own rounding, so it is
// the sample the run measures, to the picosecond: from the end of the data packet's
// serialization at the sender (the sender's own queueing and serialization are not part of a
// sample) through each switch (forwarding latency, then serialization at the egress link's
// rate) and each link (propagation), the receiver's receive stages and AckBuild, the ACK's PCIe
// hold less the service time the ACK reports (128 ns steps), and the ACK back the same way, its
// serialization at the receiver included, to the end of the sender's receive stages.
// docs/nscc.md#the-fabrics-round-trip works it out by hand. Kernel-free.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "testbench/scenario.h"
#include "testbench/elab/topology.h"

namespace uetsim {

struct fabric_round_trip
{
    // The parts of the round trip, ps; unloaded_rtt_ps is their sum.
    uint64_t propagation_ps = 0;    // link delays, both ways
    uint64_t serialization_ps = 0;  // data at each switch, ACK at the receiver and each switch
    uint64_t forwarding_ps = 0;     // switch forwarding latency, both ways
    uint64_t nic_stages_ps = 0;     // receive stages at both ends, AckBuild at the receiver
    uint64_t ack_hold_ps = 0;       // the PCIe hold at idle less the service time reported
    uint64_t unloaded_rtt_ps = 0;
    // The data packet's path, device names from the sender to the receiver (the ACK returns
    // over as many hops): from host0 to the host farthest from it, or with links of a tier that
    // differ (Link[glob]) the slowest pair of hosts as many hops apart. Empty with fewer than 2
    // hosts.
    std::vector<std::string> longest_path;

    double unloaded_rtt_s() const { return double(unloaded_rtt_ps) * 1e-12; }
    size_t hops() const { return longest_path.empty() ? 0 : longest_path.size() - 1; }
};

// From the sections' values (Switch, UetNic, Pcie; per-device overrides are not read).
fabric_round_trip derive_fabric_rtt(const topology& t, const switch_config& sw,
                                    const nic_config& nic, const pcie_config& pcie);
fabric_round_trip derive_fabric_rtt(const topology& t, const scenario& sc);
fabric_round_trip derive_fabric_rtt(const scenario& sc);

// The one-line warning of a run whose InitialBaseRTT is below the fabric's round trip (every
// sample would read as queueing delay), or nothing.
std::optional<std::string> initial_base_rtt_warning(double initial_base_rtt_s,
                                                    const fabric_round_trip& rtt);

}  // namespace uetsim
