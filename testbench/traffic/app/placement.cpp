#include "testbench/traffic/app/placement.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "hw/common/random.h"

namespace uetsim {

namespace {

// Absorbs products like 0.7 x 10 = 7.000000000000001 or 0.3 x 10 = 2.9999999999999996.
constexpr double k_eps = 1e-9;

std::string fmt(double v)
{
    std::ostringstream os;
    os.precision(15);
    os << v;
    return os.str();
}

void check_ratio(const char* key, double r, std::vector<std::string>& errors)
{
    if (!std::isfinite(r)) {
        errors.push_back(std::string(key) + " = " + fmt(r) + ": must be a finite number");
    } else if (r == 0) {
        errors.push_back(std::string(key) + " = 0: a ratio of 0 is invalid");
    } else if (r < 0 || r > 1) {
        errors.push_back(std::string(key) + " = " + fmt(r) + ": must be in (0, 1]");
    }
}

uint32_t floor_share(double ratio, uint32_t hosts)
{
    auto n = static_cast<uint32_t>(std::floor(ratio * hosts + k_eps));
    if (n == 0 && ratio > 0) n = 1;
    return n;
}

}  // namespace

std::vector<std::string> validate_placement(const placement_config& c)
{
    std::vector<std::string> errors;
    check_ratio("RdmaApplication.InitiatorRatio", c.initiator_ratio, errors);
    check_ratio("RdmaApplication.ResponderRatio", c.responder_ratio, errors);
    double sum = c.initiator_ratio + c.responder_ratio;
    if (std::isfinite(sum) && std::fabs(sum - 1.0) > 1e-9) {
        errors.push_back("RdmaApplication.InitiatorRatio + RdmaApplication.ResponderRatio = " +
                         fmt(c.initiator_ratio) + " + " + fmt(c.responder_ratio) + " = " +
                         fmt(sum) + ": the ratios must add up to 1");
    }
    // An Initiator and a Responder never share a host, so a pair needs two hosts.
    if (c.hosts < 2) {
        errors.push_back("Topology.Hosts = " + std::to_string(c.hosts) +
                         ": the RDMA application needs at least 2 hosts");
    }
    return errors;
}

host_counts count_hosts(uint32_t hosts, double initiator_ratio, double responder_ratio)
{
    host_counts n{floor_share(initiator_ratio, hosts), floor_share(responder_ratio, hosts)};
    uint32_t* counts[2] = {&n.initiators, &n.responders};
    const double ratios[2] = {initiator_ratio, responder_ratio};
    // Round robin, Initiator first; stop if a full round adds nothing (only with bad ratios).
    bool grew = true;
    while (n.initiators + n.responders < hosts && grew) {
        grew = false;
        for (int i = 0; i < 2 && n.initiators + n.responders < hosts; ++i) {
            if (*counts[i] + k_eps < ratios[i] * hosts) {
                ++*counts[i];
                grew = true;
            }
        }
    }
    return n;
}

std::pair<std::vector<uint32_t>, std::vector<uint32_t>> assign_hosts(uint32_t hosts,
                                                                     uint32_t initiators)
{
    std::pair<std::vector<uint32_t>, std::vector<uint32_t>> out;
    // Host h runs an Initiator when ceil((h+1) N / H) steps past ceil(h N / H): N Initiators
    // spread evenly (Bresenham), host 0 always one, so every leaf gets its share of both roles.
    auto ceil_div = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
    for (uint32_t h = 0; h < hosts; ++h) {
        bool init = ceil_div(uint64_t(h + 1) * initiators, hosts) >
                    ceil_div(uint64_t(h) * initiators, hosts);
        (init ? out.first : out.second).push_back(h);
    }
    return out;
}

std::vector<std::pair<uint32_t, uint32_t>> pair_hosts(const std::vector<uint32_t>& initiators,
                                                      const std::vector<uint32_t>& responders,
                                                      uint64_t seed)
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    if (initiators.empty() || responders.empty()) return pairs;
    random_stream rng(seed, "rdma-app.pairing");
    std::vector<uint32_t> free_responders = responders;  // not yet taken; erase keeps host order
    for (uint32_t ini : initiators) {
        if (!free_responders.empty()) {
            // Rule 1: a Responder no other Initiator has yet.
            size_t k = rng.below(free_responders.size());
            pairs.emplace_back(ini, free_responders[k]);
            free_responders.erase(free_responders.begin() + static_cast<ptrdiff_t>(k));
        } else {
            // Rule 2: every Responder is taken; any Responder.
            pairs.emplace_back(ini, responders[rng.below(responders.size())]);
        }
    }
    // Rule 3: left-over Responders (in host order) each get a random Initiator.
    for (uint32_t res : free_responders) {
        pairs.emplace_back(initiators[rng.below(initiators.size())], res);
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

placement place(const placement_config& c)
{
    auto errors = validate_placement(c);
    if (!errors.empty()) {
        std::string msg;
        for (const auto& e : errors) msg += (msg.empty() ? "" : "; ") + e;
        throw std::invalid_argument(msg);
    }
    host_counts n = count_hosts(c.hosts, c.initiator_ratio, c.responder_ratio);
    placement p;
    std::tie(p.initiators, p.responders) = assign_hosts(c.hosts, n.initiators);
    p.pairs = pair_hosts(p.initiators, p.responders, c.seed);
    return p;
}

}  // namespace uetsim
