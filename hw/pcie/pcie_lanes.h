// Timing of one direction of a PCIe link as a serial resource: transfers of at most
// MaxPayload bytes, each with a fixed protocol overhead, at lanes x lane rate; no propagation
// delay and no host memory latency (the UET NIC pages' PCIe model). Pure logic.
#pragma once

#include <algorithm>
#include <cstdint>

namespace uetsim {

struct pcie_config
{
    double lane_bps = 31.52e9;
    uint32_t lanes = 16;
    uint32_t max_payload = 512;  // bytes per transfer
    uint32_t overhead = 34;      // bytes of protocol overhead per transfer
    uint32_t read_request = 64;  // bytes of a read request (plus overhead)
    double rate_bps() const { return lane_bps * lanes; }
};

class pcie_lanes
{
public:
    explicit pcie_lanes(const pcie_config& c = {}) : m_cfg(c) {}

    // Bytes on the link to move `payload` bytes of data (writes, read completions).
    uint64_t data_bytes(uint64_t payload) const
    {
        const uint64_t transfers =
            std::max<uint64_t>(1, (payload + m_cfg.max_payload - 1) / m_cfg.max_payload);
        return payload + transfers * m_cfg.overhead;
    }
    uint64_t request_bytes() const { return m_cfg.read_request + m_cfg.overhead; }

    // Time in ps that `bytes` occupy the link.
    uint64_t duration_ps(uint64_t bytes) const
    {
        return uint64_t(double(bytes) * 8.0 * 1e12 / m_cfg.rate_bps() + 0.5);
    }

    // Queues `bytes` at time `now_ps`; returns when their last byte has crossed.
    uint64_t transfer(uint64_t now_ps, uint64_t bytes)
    {
        m_free_ps = std::max(m_free_ps, now_ps) + duration_ps(bytes);
        return m_free_ps;
    }
    // Bytes still waiting or crossing at `now_ps` (the backlog), from the link's busy time.
    uint64_t backlog_bytes(uint64_t now_ps) const
    {
        if (m_free_ps <= now_ps) return 0;
        return uint64_t(double(m_free_ps - now_ps) * m_cfg.rate_bps() / 8e12);
    }
    const pcie_config& config() const { return m_cfg; }

private:
    pcie_config m_cfg;
    uint64_t m_free_ps = 0;
};

}  // namespace uetsim
