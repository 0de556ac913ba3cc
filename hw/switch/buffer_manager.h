// Admission and occupancy of one switch's packet buffer across all its ports: the MMU role that
// merlin's PortInterface::spaceToSend and garnet's credit check play, kept apart from the
// queues. The static mode reproduces the switch pages' limit per (egress port, buffer pool); a
// shared mode (dynamic threshold over the free space, issue #13) becomes another mode of
// admit(), reading the occupancy kept here: per (port, pool), per pool across ports and in total
// (per port on demand). Pure logic, one per switch.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hw/switch/switch_config.h"

namespace uetsim {

enum class buffer_mode : uint8_t {
    static_limit,  // a fixed byte limit per (egress port, pool)
};

struct buffer_config
{
    buffer_mode mode = buffer_mode::static_limit;
    uint64_t port_pool_limit_bytes = 1'500'000;  // static: the limit of each (port, pool)
    uint64_t buffer_bytes = 0;  // the whole buffer, for free_bytes(); 0: not bounded (static)
};

// The buffer of a switch with `cfg`: the static mode at the switch pages' derived limit.
buffer_config switch_buffer_config(const switch_config& cfg);

class buffer_manager
{
public:
    static constexpr int num_pools = 8;

    buffer_manager(size_t ports, const buffer_config& cfg);

    // May `bytes` more be held for egress port `out_port` in `pool`? `rtx_allowance`: the
    // packet is a trimmable retransmission, which may use 1.5x the limit (switch pages, UET
    // policy). The ingress port and traffic class are inputs of the shared mode, which adds its
    // threshold here; the static mode compares with the fixed limit.
    bool admit(uint16_t in_port, uint16_t out_port, uint8_t pool, uint8_t tc, uint64_t bytes,
               bool rtx_allowance) const
    {
        return port_pool_bytes(out_port, pool) + bytes <= limit(rtx_allowance);
    }

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

    // Static mode: the most a (port, pool) may hold.
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
};

}  // namespace uetsim
