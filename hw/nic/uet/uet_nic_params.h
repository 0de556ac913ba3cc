// One derivation of a UET NIC's parameters from the scenario: the UetNic section's three
// configurations plus what they take from elsewhere (the host link's rate, the data MSS,
// trimming, InitialBaseRTT), so the fabric, `inspect` and the cross-key rules agree.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/entropy/entropy_engine.h"
#include "hw/nic/uet/nscc_config.h"
#include "hw/nic/uet/sack_tracker.h"
#include "hw/nic/uet/uet_nic_config.h"

namespace uetsim {

// What an engine the testbench injects is built for: the NIC (its full name, e.g. for a
// lockstep report), the slots the key gives, and the NIC clock an engine with latency counts in.
struct nic_engine_context
{
    std::string nic;
    uint32_t contexts = 0;
    uint64_t cycle_ps = 0;
};
using entropy_engine_factory =
    std::function<std::unique_ptr<entropy_engine>(const nic_engine_context&)>;
using sack_tracker_factory =
    std::function<std::unique_ptr<sack_tracker>(const nic_engine_context&)>;

struct uet_nic_params
{
    uet_nic_config uet;
    nscc_config nscc;
    entropy_config entropy;
    // Derived engines (an RTL block) the NIC uses instead of the C++ models; empty: the models.
    // hw never names them: the testbench sets these.
    entropy_engine_factory make_entropy_engine;
    sack_tracker_factory make_sack_tracker;
};

// `link_rate_bps`: the NIC's host link. The entropy policy's local UDP port stays per PDC group
// (the NIC sets it for the None policy).
inline uet_nic_params derive_uet_nic_params(const uet_nic_config& uet, const nscc_config& nscc,
                                            const entropy_config& entropy, double link_rate_bps)
{
    uet_nic_params p{uet, nscc, entropy, {}, {}};
    p.nscc.link_rate_bps = link_rate_bps;
    p.nscc.rdma_data_mss = uet.rdma_data_mss;
    p.nscc.trimming_enabled = uet.trimming_enabled;
    p.entropy.link_rate_bps = link_rate_bps;
    p.entropy.initial_base_rtt_s = nscc.initial_base_rtt_s;
    p.entropy.rdma_data_mss = uet.rdma_data_mss;
    return p;
}

}  // namespace uetsim
