// Admission and occupancy of one switch's packet buffer across all its ports: the MMU role that
// merlin's PortInterface::spaceToSend and garnet's credit check play, kept apart from the
// queues. Without a policy it applies the switch pages' static limit per (egress port, buffer
// pool), inline; another policy (the shared buffer's dynamic threshold, issue #13) is a class
// behind admission_policy that reads the occupancy kept here: per (port, pool), per pool across
// ports and in total (per port on demand). Pure logic, one per switch.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/switch/admission_policy.h"
#include "hw/switch/switch_config.h"

namespace uetsim {

struct buffer_config
{
    uint64_t port_pool_limit_bytes = 1'500'000;  // static: the limit of each (port, pool)
    uint64_t buffer_bytes = 0;  // the whole buffer, for free_bytes(); 0: not bounded (static)
};

// The buffer of a switch with `cfg`: the static limit the switch pages derive.
buffer_config switch_buffer_config(const switch_config& cfg);

class buffer_manager
{
public:
    static constexpr int num_pools = 8;

    buffer_manager(size_t ports, const buffer_config& cfg);

    // May `bytes` more be held for egress port `out_port` in `pool`? `rtx_allowance`: the
    // packet is a trimmable retransmission, which may use 1.5x the limit (switch pages, UET
    // policy). The static limit needs no call through the policy seam.
    bool admit(uint16_t in_port, uint16_t out_port, uint8_t pool, uint8_t tc, uint64_t bytes,
               bool rtx_allowance) const
    {
        if (m_policy)
            return m_policy->admit(*this, in_port, out_port, pool, tc, bytes, rtx_allowance);
        return port_pool_bytes(out_port, pool) + bytes <= limit(rtx_allowance);
    }

    // Admission by `policy` instead of the static limit (set at elaboration).
    void set_policy(std::unique_ptr<admission_policy> policy) { m_policy = std::move(policy); }

    // The bytes of an admitted packet are held from admission until its serialization ends.
    void charge(uint16_t out_port, uint8_t pool, uint64_t bytes)
    {
        m_port_pool[slot(out_port, pool)] += bytes;
        m_pool[pool] += bytes;
        m_held += bytes;
    }
    void release(uint16_t out_port, uint8_t pool, uint64_t bytes)
    {
        m_port_pool[slot(out_port, pool)] -= bytes;
        m_pool[pool] -= bytes;
        m_held -= bytes;
    }

    // The static limit: the most a (port, pool) may hold.
    uint64_t limit(bool rtx_allowance) const { return rtx_allowance ? m_rtx_limit : m_limit; }

    size_t ports() const { return m_port_pool.size() / num_pools; }
    uint64_t port_pool_bytes(uint16_t port, uint8_t pool) const
    {
        return m_port_pool[slot(port, pool)];
    }
    uint64_t port_bytes(uint16_t port) const;  // all pools (summed: not on the packet path)
    uint64_t pool_bytes(uint8_t pool) const { return m_pool[pool]; }  // across all ports
    uint64_t held_bytes() const { return m_held; }
    // Unheld bytes of the whole buffer (0 when it is full or not bounded).
    uint64_t free_bytes() const
    {
        return m_cfg.buffer_bytes > m_held ? m_cfg.buffer_bytes - m_held : 0;
    }
    const buffer_config& config() const { return m_cfg; }

private:
    static size_t slot(uint16_t port, uint8_t pool) { return size_t(port) * num_pools + pool; }

    buffer_config m_cfg;
    uint64_t m_limit;
    uint64_t m_rtx_limit;
    std::vector<uint64_t> m_port_pool;  // [port * num_pools + pool]
    std::array<uint64_t, num_pools> m_pool{};
    uint64_t m_held = 0;
    std::unique_ptr<admission_policy> m_policy;
};

}  // namespace uetsim
