// The retransmission timeout of a data packet's transmission: InitialRetransmitTimeout doubled
// with each retransmission up to MaxExponentialRTOBackoffCount doublings, or the fixed timeout.
#pragma once

#include <algorithm>
#include <cstdint>

#include "hw/nic/uet/uet_nic_config.h"

namespace uetsim {

// `tx_count`: 1 for the first transmission, 2 for the first retransmission, ...
inline double retransmit_timeout_s(const uet_nic_settings& cfg, uint32_t tx_count)
{
    if (cfg.fixed_rexmit_time_enable) return cfg.fixed_rexmit_timeout_s;
    const uint32_t doublings =
        std::min<uint32_t>(tx_count > 0 ? tx_count - 1 : 0, cfg.max_exponential_rto_backoff_count);
    return cfg.initial_retransmit_timeout_s * double(uint64_t(1) << doublings);
}

}  // namespace uetsim
