// The one place a NIC type is chosen: a registry keyed by Nic.Type. Each row is a NIC type's
// entry (testbench/nics/<type>_nic_entry.h): how to build the NIC from the scenario (its own
// keys), the NIC's context and its host link's rate, and what the testbench must know of it
// without building one (MSS, header bytes, memory, warnings, probes). A new NIC type is a folder
// under hw/nic/, an entry file in testbench/nics/ and one line in nic_factory.cpp; a type built
// outside uetsim (a test's, a user's) is added with add_nic_type() before the scenario schema is
// first used.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hw/nic/common/host_nic.h"
#include "testbench/elab/nic_data_framing.h"
#include "testbench/elab/topology.h"
#include "testbench/scenario.h"

namespace uetsim {

class waveform_signals;

// The IP header's marking of a data packet: DSCP (6 bits) and ECN (2 bits, dscp.h's ecn::).
struct ip_marking
{
    uint8_t dscp = 0;
    uint8_t ecn = 0;
};

using nic_builder = std::unique_ptr<host_nic> (*)(const std::string& name, const nic_config& nic,
                                                  const nic_context& ctx, double link_rate_bps);

struct nic_type
{
    nic_kind kind;
    // Nic.Type's description in the key reference.
    std::string_view doc;
    // nullptr where no NIC is built (raw ports).
    nic_builder build = nullptr;
    // The largest payload of one data packet of this type (Flows and the application cut their
    // messages with it; raw ports too).
    uint32_t (*data_mss)(const nic_config&) = nullptr;
    // Headers and framing one data packet adds on the wire, and the name of that framing
    // (`inspect --json`'s rdma_application.wqe.nic).
    uint32_t data_overhead_bytes = 0;
    std::string_view framing;
    // Elaboration's peak memory per host with its NIC and link (testbench/elab/scale_estimate.h).
    uint64_t bytes_per_host = 0;
    // Warnings about the configuration for a run on this type, before it starts; may be null.
    std::vector<std::string> (*warnings)(const scenario& sc, const topology& t) = nullptr;
    // The marking of a first transmission of data in `traffic_class` (application-report); null:
    // CSn (the class × 8), not ECN-capable.
    ip_marking (*data_marking)(const nic_config&, uint8_t traffic_class) = nullptr;
    // The NIC's own waveform probe (Trace.*), set on the NIC with host_nic::set_probe; null:
    // the type's NICs are not traced.
    std::unique_ptr<state_probe> (*make_probe)(waveform_signals& w, const std::string& component,
                                               host_nic& nic, const scenario& sc) = nullptr;
};

// The entry of Nic.Type `kind`, or nullptr when no such type is registered.
const nic_type* find_nic_type(nic_kind kind);
// The entry of the scenario's Nic.Type (std::logic_error when unregistered: the schema refuses
// such a value first).
const nic_type& nic_type_of(const nic_config& nic);
// Every registered type in registration order (Nic.Type's choices).
std::vector<const nic_type*> nic_types();
// Registers a NIC type built outside uetsim (its name not taken yet: std::logic_error).
void add_nic_type(const nic_type& t);

// The scenario's data MSS: its NIC type's (raw ports: UetNic.RdmaDataMSS).
uint32_t nic_data_mss(const nic_config& nic);
// The scenario's data framing: its NIC type's name for it, MSS and per-packet overhead.
nic_data_framing nic_framing_of(const nic_config& nic);

// The largest data frame on the wire (MSS + headers) of the NIC types the first `hosts` hosts
// have (LLR's auto replay buffer and its checks).
uint32_t largest_data_frame(const scenario& sc, uint32_t hosts);

// The data MSS of each of the first `hosts` hosts: its own NIC type's (Nic[glob].Type; Flows cut
// a message with its sender's).
std::vector<uint32_t> host_data_mss(const scenario& sc, uint32_t hosts);

// Builds the NIC of the scenario's Nic.Type (not raw).
std::unique_ptr<host_nic> make_nic(const std::string& name, const nic_config& nic,
                                   const nic_context& ctx, double link_rate_bps);

}  // namespace uetsim
