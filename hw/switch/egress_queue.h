// The egress side of one switch port: a FIFO per traffic class, admission against a byte limit
// per buffer pool (drop-tail, or trimming of trimmable packets), RED ECN marking per pool, and
// strict-priority dequeue TC7 -> TC0 through the shared port arbiter (port_scheduler). Pure
// logic: the switch module wraps it.
#pragma once

#include <array>
#include <cstdint>

#include "hw/common/port_scheduler.h"
#include "hw/common/ring.h"
#include "hw/switch/red_marker.h"
#include "hw/switch/traffic_class.h"
#include "tlm/packet.h"

namespace uetsim {

struct egress_queue_config
{
    uint64_t limit_bytes = 1'500'000;  // per pool on this port
    bool trimming = false;
    bool nic_facing = false;  // trimmed here means TRIMMED_LAST_HOP
    red_params red;
};

enum class admit_result { queued, trimmed, dropped };

class egress_queue
{
public:
    static constexpr int num_pools = 8;

    egress_queue(const egress_queue_config& cfg, const traffic_classifier& cls)
        : m_cfg(cfg), m_cls(cls)
    {
    }

    // Bytes a packet is charged: its IP datagram, at least 46.
    static uint64_t charge(const packet& p)
    {
        return p.ip_bytes() < wire::min_ip_charge ? wire::min_ip_charge : p.ip_bytes();
    }

    // Admission. On `dropped` the caller still owns the packet (and releases it).
    admit_result offer(packet* p);

    // Called each time the port is free: releases the charge of the frame that was serialising
    // and returns the next frame by strict priority, ECN-marked per RED when ECT; nullptr when
    // empty. `draw` is a uniform [0,1) number for the marking decision.
    packet* dequeue(double draw);

    bool empty() const { return m_packets == 0; }
    uint64_t packets_queued() const { return m_packets; }
    uint64_t bytes_held() const { return m_total_bytes; }
    uint64_t pool_bytes(int pool) const { return m_pool_bytes[size_t(pool)]; }
    double mean_bytes(int pool) const { return m_red[size_t(pool)].mean_bytes(); }
    uint64_t limit_for(const packet& p) const;
    // The port's arbiter: PFC pauses and resumes its classes here.
    port_scheduler& scheduler() { return m_scheduler; }

    struct counters
    {
        uint64_t admitted = 0;
        uint64_t dropped = 0;
        uint64_t trimmed = 0;
        uint64_t ecn_marked = 0;
        std::array<uint64_t, num_traffic_classes> ecn_marked_tc{};
    };
    const counters& stats() const { return m_stats; }

private:
    bool fits(const packet& p, int pool) const
    {
        return m_pool_bytes[size_t(pool)] + charge(p) <= limit_for(p);
    }
    void enqueue(packet* p, uint8_t tc, uint8_t pool);

    struct entry
    {
        packet* p;
        uint8_t pool;
    };

    egress_queue_config m_cfg;
    const traffic_classifier& m_cls;
    std::array<ring<entry>, num_traffic_classes> m_fifo;
    uint8_t m_waiting = 0;  // bit c: m_fifo[c] holds a frame
    port_scheduler m_scheduler;
    std::array<uint64_t, num_pools> m_pool_bytes{};
    std::array<red_marker, num_pools> m_red{};
    uint64_t m_total_bytes = 0;  // queued + the frame serialising
    uint64_t m_packets = 0;      // queued only
    uint64_t m_tx_charge = 0;
    uint8_t m_tx_pool = 0;
    counters m_stats;
};

}  // namespace uetsim
