// One derivation of a UET NIC's parameters from the scenario: the UetNic section's three
// configurations plus what they take from elsewhere (the host link's rate, the data MSS,
// trimming, InitialBaseRTT), so the fabric, `inspect` and the cross-key rules agree.
#pragma once

#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/nscc_config.h"
#include "hw/nic/uet/uet_nic_config.h"

namespace uetsim {

struct uet_nic_params
{
    uet_nic_config uet;
    nscc_config nscc;
    entropy_config entropy;
};

// `link_rate_bps`: the NIC's host link. The entropy policy's local UDP port stays per PDC group
// (the NIC sets it for the None policy).
inline uet_nic_params derive_uet_nic_params(const uet_nic_config& uet, const nscc_config& nscc,
                                            const entropy_config& entropy, double link_rate_bps)
{
    uet_nic_params p{uet, nscc, entropy};
    p.nscc.link_rate_bps = link_rate_bps;
    p.nscc.rdma_data_mss = uet.rdma_data_mss;
    p.nscc.trimming_enabled = uet.trimming_enabled;
    p.entropy.link_rate_bps = link_rate_bps;
    p.entropy.initial_base_rtt_s = nscc.initial_base_rtt_s;
    p.entropy.rdma_data_mss = uet.rdma_data_mss;
    return p;
}

}  // namespace uetsim
