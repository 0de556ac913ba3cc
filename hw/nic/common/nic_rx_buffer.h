// The UET NIC's receive buffer (IngressBufferManager): one pool per traffic class, admission
// (a packet that its pool cannot hold is dropped), the releases (control at once, data when its
// write to the host is accepted: a release line in time order), and the PFC decisions of the
// page (pause on the arrival that brings occupancy to Xoff with no pause outstanding; XON on a
// release to Xon or below, or at a refresh that finds occupancy below Xoff). Pure logic: the NIC
// port sends the frames these calls ask for.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

#include "hw/common/ring.h"
#include "hw/nic/common/nic_buffer_config.h"
#include "hw/nic/common/nic_pool_stats.h"

namespace uetsim {

struct rx_admission
{
    bool admitted = true;    // false: dropped (the pool cannot hold it)
    bool send_xoff = false;  // a pause frame for the class now
};

// Each class's pool counters (net-buff-stats), made when the record asks for them.
using pool_counters_by_class = std::array<nic_pool_counters, k_tc_count>;

class nic_rx_buffer
{
public:
    nic_rx_buffer() : nic_rx_buffer(default_ingress_buffer()) {}
    explicit nic_rx_buffer(const nic_ingress_settings& s);

    // A packet of class `c` charged `bytes` arrives. A class without a pool is not accounted
    // (admitted, never paused).
    rx_admission arrive(int c, uint32_t bytes)
    {
        if (c >= m_classes) return {};
        rx_admission a;
        const uint64_t after = m_occupancy[c] + bytes;
        if (m_pfc_enable[c] && !m_paused[c] && after >= m_xoff[c]) {
            m_paused[c] = true;
            a.send_xoff = true;
        }
        if (after > m_pool[c]) {
            a.admitted = false;
            ++m_drops[c];
            return a;
        }
        m_occupancy[c] = after;
        m_max_occupancy[c] = std::max(m_max_occupancy[c], after);
        if (m_counters) (*m_counters)[c].charged(bytes, after);
        return a;
    }
    // Whether a packet charging `bytes` of class `c` is admitted whatever happens before it
    // arrives (releases only make room): `bytes` counts the packets taken ahead of it too.
    bool surely_admits(int c, uint64_t bytes) const
    {
        return c >= m_classes || m_occupancy[c] + bytes <= m_pool[c];
    }
    // `bytes` of class `c` released now; true: send XON for the class now.
    bool release(int c, uint32_t bytes)
    {
        if (c >= m_classes) return false;
        m_occupancy[c] -= bytes;
        if (m_counters) (*m_counters)[c].released(bytes);
        if (m_paused[c] && m_occupancy[c] <= m_xon[c]) {
            m_paused[c] = false;
            return true;
        }
        return false;
    }
    // `bytes` of class `c` released at `due_ps` (times in order: an earlier one waits behind
    // the last). drain() performs them.
    void release_at(int c, uint32_t bytes, uint64_t due_ps);
    // Every release due by `now_ps`; returns the classes that must send XON now (bit c).
    uint8_t drain(uint64_t now_ps);
    bool releases_pending() const { return !m_line.empty(); }
    uint64_t next_release_ps() const { return m_line.front().due_ps; }

    // The refresh every half pause time: true, occupancy is still at or above Xoff (pause
    // again); false, send XON (the pause ends even above Xon).
    bool refresh(int c)
    {
        if (c < m_classes && m_occupancy[c] >= m_xoff[c]) return true;
        if (c < m_classes) m_paused[c] = false;
        return false;
    }

    // Bytes of class `c` held besides the packets (what a host side that accepts no writes
    // would leave in the pool): replaces the previous amount. For benches without a host.
    void set_preload(int c, uint64_t bytes)
    {
        if (c >= m_classes) return;
        m_occupancy[c] = m_occupancy[c] - m_preload[c] + bytes;
        m_preload[c] = bytes;
    }

    int classes() const { return m_classes; }
    uint64_t pool_bytes(int c) const { return c < m_classes ? m_pool[c] : 0; }
    uint64_t occupancy(int c) const { return c < m_classes ? m_occupancy[c] : 0; }
    uint64_t max_occupancy(int c) const { return c < m_classes ? m_max_occupancy[c] : 0; }
    uint64_t xoff_bytes(int c) const { return m_xoff[c]; }
    uint64_t xon_bytes(int c) const { return m_xon[c]; }
    bool pause_outstanding(int c) const { return c < m_classes && m_paused[c]; }
    bool any_pause_outstanding() const;
    bool pfc_enabled(int c) const { return c < m_classes && m_pfc_enable[c]; }
    // CBFC on the link: class c never sends PFC (its sender holds back on credit).
    void disable_pfc(int c) { m_pfc_enable[size_t(c)] = false; }
    bool any_pfc() const;
    uint64_t drops(int c) const { return c < m_classes ? m_drops[c] : 0; }

    // net-buff-stats: from now on, count each pool's packets and bytes charged and released
    // (off: stop, and forget the counts).
    void count(bool on)
    {
        if (!on)
            m_counters.reset();
        else if (!m_counters)
            m_counters = std::make_unique<pool_counters_by_class>();
    }
    // Class `c`'s pool as it stands at `now_ps`, the releases due by then included (they are
    // applied lazily: this reads them without applying them).
    nic_pool_sample sample(int c, uint64_t now_ps) const;
    // A new interval at `now_ps`: each pool's interval maximum restarts from its occupancy.
    void start_interval(uint64_t now_ps);

private:
    struct pending
    {
        uint64_t due_ps;
        uint32_t bytes;
        uint8_t cls;
    };
    int m_classes;
    std::array<uint64_t, k_tc_count> m_pool{}, m_xoff{}, m_xon{};
    std::array<uint64_t, k_tc_count> m_occupancy{}, m_max_occupancy{}, m_drops{}, m_preload{};
    std::array<bool, k_tc_count> m_pfc_enable{}, m_paused{};
    ring<pending> m_line;
    // Made when the record asks (count()): 384 bytes a NIC that most runs never read.
    std::unique_ptr<pool_counters_by_class> m_counters;
};

}  // namespace uetsim
