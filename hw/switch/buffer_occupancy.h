// Occupancy samples of the switch's shared buffer for its records (scala-switch-agg-buff-stats,
// scala-switch-buff-stats): one series per buffer the records name, sampled each time its bytes
// change (the reference's ivl_count counts such samples, not timer ticks), with the least,
// greatest and mean value of the interval and the bytes that have entered since the start.
// Pure logic; buffer_manager feeds it only when a buffer record is on.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "hw/switch/shared_buffer_config.h"

namespace uetsim {

struct occupancy_series
{
    uint64_t bytes = 0;        // now
    uint64_t total_bytes = 0;  // entered since the start
    uint64_t count = 0;        // samples in the interval
    // The interval's extremes, reset so that its first sample sets both (no test per sample).
    uint64_t min_bytes = UINT64_MAX, max_bytes = 0;
    double sum_bytes = 0;

    void set(uint64_t b)
    {
        if (b > bytes) total_bytes += b - bytes;
        bytes = b;
        min_bytes = std::min(min_bytes, b);
        max_bytes = std::max(max_bytes, b);
        sum_bytes += double(b);
        ++count;
    }
    // An interval without a change reports the value it held throughout.
    uint64_t ivl_min() const { return count ? min_bytes : bytes; }
    uint64_t ivl_max() const { return count ? max_bytes : bytes; }
    double ivl_mean() const { return count ? sum_bytes / double(count) : double(bytes); }
    void start_interval()
    {
        count = 0;
        min_bytes = UINT64_MAX;
        max_bytes = 0;
        sum_bytes = 0;
    }
};

// The series of one switch. Aggregates: egress queues and ingress occupancy summed over the
// uplink or the downlink ports, and the pool's ingress total (the shared buffer), per pool.
// Per port (opt-in): egress queue, ingress occupancy and headroom per (port, pool).
class buffer_occupancy
{
public:
    enum aggregate : uint8_t { egress_ul, egress_dl, ingress_ul, ingress_dl, shared, aggregates };
    enum per_port : uint8_t { port_egress, port_ingress, port_headroom, per_port_kinds };

    // `uplink[p]`: port p faces a higher tier.
    buffer_occupancy(std::vector<bool> uplink, bool aggregate_on, bool per_port_on)
        : m_aggregate_on(aggregate_on)
        , m_per_port_on(per_port_on)
        , m_ingress(uplink.size() * shared_buffer_pools, 0)
        , m_egress(uplink.size() * shared_buffer_pools, 0)
    {
        // Each port's aggregates, looked up once here rather than as bits per sample.
        m_side.reserve(uplink.size());
        for (const bool u : uplink)
            m_side.push_back(u ? side{egress_ul, ingress_ul} : side{egress_dl, ingress_dl});
        if (per_port_on) m_ports.resize(uplink.size() * shared_buffer_pools * per_port_kinds);
    }

    bool on() const { return m_aggregate_on || m_per_port_on; }
    bool uplink(uint16_t port) const { return m_side[port].egress == egress_ul; }

    // The port's ingress occupancy and headroom in `pool`, and the pool's ingress total, after a
    // change.
    // Inline in the buffer manager's every sample (a call per packet and hop costs more).
    [[gnu::always_inline]] void ingress(uint16_t port, uint8_t pool, uint64_t occupancy,
                                        uint64_t headroom, uint64_t pool_total)
    {
        const size_t s = slot(port, pool);
        if (m_aggregate_on) {
            occupancy_series& a = m_agg[m_side[port].ingress][pool];
            a.set(a.bytes + occupancy - m_ingress[s]);
            m_agg[shared][pool].set(pool_total);
        }
        m_ingress[s] = occupancy;
        if (m_per_port_on) {
            m_ports[s * per_port_kinds + port_ingress].set(occupancy);
            m_ports[s * per_port_kinds + port_headroom].set(headroom);
        }
    }
    // The port's egress queue in `pool` after a change.
    [[gnu::always_inline]] void egress(uint16_t port, uint8_t pool, uint64_t queue)
    {
        const size_t s = slot(port, pool);
        if (m_aggregate_on) {
            occupancy_series& a = m_agg[m_side[port].egress][pool];
            a.set(a.bytes + queue - m_egress[s]);
        }
        m_egress[s] = queue;
        if (m_per_port_on) m_ports[s * per_port_kinds + port_egress].set(queue);
    }

    const occupancy_series& aggregate_series(aggregate a, uint8_t pool) const
    {
        return m_agg[a][pool];
    }
    const occupancy_series& port_series(uint16_t port, uint8_t pool, per_port k) const
    {
        return m_ports[slot(port, pool) * per_port_kinds + k];
    }
    void start_aggregate_interval()
    {
        for (auto& row : m_agg)
            for (auto& s : row) s.start_interval();
    }
    void start_port_interval()
    {
        for (auto& s : m_ports) s.start_interval();
    }

private:
    static size_t slot(uint16_t port, uint8_t pool)
    {
        return size_t(port) * shared_buffer_pools + pool;
    }

    struct side
    {
        aggregate egress, ingress;  // the port's uplink or downlink series
    };
    std::vector<side> m_side;
    bool m_aggregate_on;
    bool m_per_port_on;
    std::vector<uint64_t> m_ingress;  // the last value seen per (port, pool), for the sums
    std::vector<uint64_t> m_egress;
    std::array<std::array<occupancy_series, shared_buffer_pools>, aggregates> m_agg{};
    std::vector<occupancy_series> m_ports;
};

}  // namespace uetsim
