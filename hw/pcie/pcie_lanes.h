// Timing of one direction of a PCIe link as a serial resource: transfers of at most
// max_payload bytes, each with a fixed protocol overhead, at the sending side's rate. Pure logic.
#pragma once

#include <algorithm>
#include <cstdint>

#include "hw/common/picoseconds.h"

namespace uetsim {

class pcie_lanes
{
public:
    pcie_lanes(double rate_bps, uint32_t max_payload, uint32_t overhead)
        : m_rate_bps(rate_bps), m_max_payload(max_payload), m_overhead(overhead)
    {
    }

    // Transfers needed to move `payload` bytes (at least one, so a zero-byte write is a TLP).
    uint64_t transfers(uint64_t payload) const
    {
        return std::max<uint64_t>(1, (payload + m_max_payload - 1) / m_max_payload);
    }
    // Bytes on the link to move `payload` bytes (writes, read completions, read requests).
    uint64_t link_bytes(uint64_t payload) const
    {
        return payload + transfers(payload) * m_overhead;
    }

    // Time in ps that `bytes` occupy the link.
    uint64_t duration_ps(uint64_t bytes) const { return serialization_ps(bytes, m_rate_bps); }

    // Queues `bytes` at time `now_ps`; returns when their last byte has crossed.
    uint64_t transfer(uint64_t now_ps, uint64_t bytes)
    {
        m_free_ps = std::max(m_free_ps, now_ps) + duration_ps(bytes);
        return m_free_ps;
    }
    double rate_bps() const { return m_rate_bps; }
    uint32_t max_payload() const { return m_max_payload; }
    uint32_t overhead() const { return m_overhead; }
    // When the lanes have sent everything queued so far.
    uint64_t free_ps() const { return m_free_ps; }
    // The lanes are busy until `at_ps` (a transfer laid out TLP by TLP by the caller).
    void occupy_until(uint64_t at_ps) { m_free_ps = std::max(m_free_ps, at_ps); }
    // Link time of the work queued at `now_ps` and not yet crossed.
    uint64_t queued_ps(uint64_t now_ps) const
    {
        return m_free_ps > now_ps ? m_free_ps - now_ps : 0;
    }

private:
    double m_rate_bps;
    uint32_t m_max_payload;
    uint32_t m_overhead;
    uint64_t m_free_ps = 0;
};

}  // namespace uetsim
