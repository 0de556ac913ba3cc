// The NIC's egress buffer as the buffers pages run it: one pool per traffic class
// (EgressBufferManager PoolAllocationVector x TotalBufferSize), each holding the reservations of
// its own class's frames from before they go to the wire until their serialization ends. A data
// frame that does not fit stops data generation until that class's pool drains to half. Pure
// arithmetic; the NIC port holds the queues and calls it per frame (one index per frame).
#pragma once

#include <array>
#include <cstdint>

#include "hw/nic/common/nic_buffer_config.h"

namespace uetsim {

class nic_egress_pools
{
public:
    nic_egress_pools() = default;
    explicit nic_egress_pools(const nic_buffer_settings& s)
    {
        for (int c = 0; c < k_tc_count; ++c) m_size[size_t(c)] = uint32_t(s.pool_bytes(c));
    }

    uint32_t pool_bytes(int c) const { return m_size[size_t(c)]; }
    uint32_t reserved(int c) const { return m_reserved[size_t(c)]; }
    // Free bytes of class c's pool (0 for a class without one or a pool over-reserved).
    uint32_t room(int c) const
    {
        const size_t i = size_t(c);
        return m_reserved[i] < m_size[i] ? m_size[i] - m_reserved[i] : 0;
    }
    bool fits(int c, uint32_t bytes) const { return bytes <= room(c); }
    void reserve(int c, uint32_t bytes) { m_reserved[size_t(c)] += bytes; }
    void release(int c, uint32_t bytes) { m_reserved[size_t(c)] -= bytes; }
    // Every class's reservations together (waveforms).
    uint64_t total_reserved() const
    {
        uint64_t t = 0;
        for (uint32_t r : m_reserved) t += r;
        return t;
    }

    // Data generation stopped on class c's pool; half_drained_after_release(c) is true once that
    // pool holds half its size or less (then the block is over).
    void block(int c) { m_blocked |= uint8_t(1u << c); }
    uint8_t blocked() const { return m_blocked; }  // bit c: blocked on class c's pool
    bool half_drained_after_release(int c)
    {
        if (!((m_blocked >> c) & 1u) || 2 * uint64_t(m_reserved[size_t(c)]) > m_size[size_t(c)])
            return false;
        m_blocked &= uint8_t(~(1u << c));
        return true;
    }

private:
    std::array<uint32_t, k_tc_count> m_size{};
    std::array<uint32_t, k_tc_count> m_reserved{};
    uint8_t m_blocked = 0;
};

}  // namespace uetsim
