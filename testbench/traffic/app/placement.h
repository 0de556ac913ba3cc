// Placement and pairing of the RDMA application (Initiators and Responders) on the hosts of a
// topology, decided before the simulation starts. Pure logic: no SystemC, no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace uetsim {

struct placement_config
{
    double initiator_ratio = 0.5;  // RdmaApplication.InitiatorRatio
    double responder_ratio = 0.5;  // RdmaApplication.ResponderRatio
    uint32_t hosts = 16;           // Topology.Hosts
    uint64_t seed = 18760;         // Simulation.RandomSeed
};

struct host_counts
{
    uint32_t initiators = 0;
    uint32_t responders = 0;
};

struct placement
{
    std::vector<uint32_t> initiators;  // host ids, ascending
    std::vector<uint32_t> responders;  // host ids, ascending
    // (initiator host, responder host), sorted by initiator then responder.
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
};

// Every problem with the configuration, one message each naming the key and its value.
// Empty when the configuration can be placed.
std::vector<std::string> validate_placement(const placement_config& c);

// floor(ratio x hosts), at least 1 for a ratio above 0, then the round-robin top-up (Initiator
// first) until every host runs one component. Expects a valid configuration.
host_counts count_hosts(uint32_t hosts, double initiator_ratio, double responder_ratio);

// Which hosts run the Initiator: spread evenly over topology order, host 0 first (see
// docs/rdma-application.md). Returns {initiators, responders}, each ascending.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> assign_hosts(uint32_t hosts,
                                                                     uint32_t initiators);

// The three pairing rules, drawing from random_stream(seed, "rdma-app.pairing").
std::vector<std::pair<uint32_t, uint32_t>> pair_hosts(const std::vector<uint32_t>& initiators,
                                                      const std::vector<uint32_t>& responders,
                                                      uint64_t seed);

// Counts, assignment and pairing in one call. Throws std::invalid_argument listing every
// validation error when the configuration is invalid.
placement place(const placement_config& c);

}  // namespace uetsim
