// Attributes of RCCC, UET 1.0's receiver credit congestion control (docs/nscc.md, "RCCC"): the
// receiver's pull pacer grants its senders credit at its downlink rate, in pull quanta; a sender
// spends a packet's wire size of it. Defaults after the UEC htsim reference model (uec.cpp:
// UEC_PULL_QUANTA 256 B, 4 packets of 4,096 B per pull). The *_range constants are the one
// statement of each attribute's range (the scenario keys read them).
#pragma once

#include <cstdint>

#include "hw/common/value_range.h"

namespace uetsim {

struct rccc_config
{
    // This NIC's senders wait for credit (beside the NSCC window). A receiving NIC grants credit
    // to every sender that asks, whatever its own setting.
    bool enabled = false;  // RcccEnabled
    // The unit of credit, credit targets and the pull pacer: the 24-bit fields count these.
    uint32_t pull_quantum_bytes = 256;  // RcccPullQuantum
    static constexpr value_range pull_quantum_range{64, 65536};
    // Credit one pull grants at most, in pull quanta (htsim: 4 x 4,096 B / 256 = 64).
    uint32_t credits_per_pull = 64;  // RcccCreditsPerPull
    static constexpr value_range credits_per_pull_range{1, 65536};
    // Credit a sender has before its first grant, in bytes (one pull's worth by default).
    uint64_t initial_credit_bytes = 16384;  // RcccInitialCredit
    static constexpr value_range initial_credit_range{0, 1 << 30};
    // The pull pacer's rate in bit/s of credit (wire bytes); 0: the receiving NIC's link rate.
    double pull_rate_bps = 0;  // RcccPullRate
    static constexpr value_range pull_rate_range{0, 3.2e12};
};

// 24-bit cumulative counters (credit, credit target) and their 64-bit extension.
namespace rccc24 {
inline constexpr uint32_t mask = (1u << 24) - 1;
// `full` advanced to the 24-bit value `wire` when `wire` is ahead of it by less than 2^23.
inline uint64_t extend(uint64_t full, uint32_t wire)
{
    const uint32_t delta = (wire - uint32_t(full)) & mask;
    return delta < (1u << 23) ? full + delta : full;
}
}  // namespace rccc24

}  // namespace uetsim
