// The egress side of one switch port: a FIFO per traffic class, admission through the switch's
// shared buffer (buffer_manager: lossless classes always, lossy ones within their egress limit
// and the pool, or trimmed when trimmable), RED ECN marking per pool against the pool's static
// band, and strict-priority dequeue TC7 -> TC0 through the shared port arbiter (port_scheduler).
// Pure logic: the switch module wraps it.
#pragma once

#include <array>
#include <cstdint>

#include "hw/cbfc/credit_gate.h"
#include "hw/common/port_scheduler.h"
#include "hw/common/ring.h"
#include "hw/common/state_probe.h"
#include "hw/switch/buffer_manager.h"
#include "hw/switch/red_marker.h"
#include "hw/switch/traffic_class.h"
#include "tlm/packet.h"

namespace uetsim {

// One per switch, shared by its ports' queues.
struct egress_queue_config
{
    bool trimming = false;
    std::array<red_params, shared_buffer_pools> red{};  // per pool: its band (X3)
};

enum class admit_result { queued, trimmed, dropped };

class egress_queue
{
public:
    static constexpr int num_pools = buffer_manager::num_pools;

    // `port` is this queue's egress port in `buffers`; `cfg` outlives the queue; `nic_facing`:
    // the peer is a host NIC (a frame trimmed here is TRIMMED_LAST_HOP).
    egress_queue(const egress_queue_config& cfg, bool nic_facing, const traffic_classifier& cls,
                 buffer_manager& buffers, uint16_t port)
        : m_cfg(cfg), m_cls(cls), m_buffers(buffers), m_port(port), m_nic_facing(nic_facing)
    {
    }

    // Bytes a packet is charged: its IP datagram, at least 46.
    static uint64_t charge(const packet& p) { return buffer_charge(p); }

    // Admission of a packet admitted at ingress with `tag` (its arrival port, class, pool and
    // charge). A trimmed packet's charges shrink to its header's; on `dropped` the ingress
    // charge is released and the caller still owns the packet (and releases it).
    admit_result offer(packet* p, switch_tag tag)
    {
        const admit_result r = admit(p, tag);
        if (m_probe) m_probe->changed();
        return r;
    }

    // Called each time the port is free: releases the charges of the frame that was serialising
    // and returns the next frame by strict priority, ECN-marked per RED when ECT; nullptr when
    // empty. `draw` is a uniform [0,1) number for the marking decision.
    packet* dequeue(double draw);

    bool empty() const { return m_packets == 0; }
    uint64_t packets_queued() const { return m_packets; }
    // Bit c: class c has a frame waiting (the frame serialising is not waiting).
    uint8_t waiting_classes() const { return m_waiting; }
    // Queued + the frame serialising.
    uint64_t bytes_held() const { return m_buffers.port_egress_bytes(m_port); }
    uint64_t pool_bytes(int pool) const { return m_buffers.egress_bytes(m_port, uint8_t(pool)); }
    double mean_bytes(int pool) const { return m_red[size_t(pool)].mean_bytes(); }
    // Waveforms: called after each admission and dequeue (nullptr: not traced).
    void set_probe(state_probe* p) { m_probe = p; }
    bool traced() const { return m_probe != nullptr; }
    // CBFC on the port's link: a frame goes only with its virtual channel's credit.
    void set_credit_gate(credit_gate* g) { m_gate = g; }
    // The port's arbiter: PFC pauses and resumes its classes here.
    port_scheduler& scheduler() { return m_scheduler; }
    const port_scheduler& scheduler() const { return m_scheduler; }

    // The port sends a PFC frame instead of dequeuing: the frame that was serialising has left
    // all the same, so its charges are released (dequeue() does this itself).
    void release_transmitted()
    {
        release_sent();
        if (m_probe) m_probe->changed();
    }
    // The PFC watchdog: every packet queued in class `tc` leaves the buffer (both charges
    // released, as when sent) and is handed to `drop` (which releases it); returns how many.
    template <typename F>
    uint64_t drop_class(uint8_t tc, F&& drop)
    {
        auto& q = m_fifo[tc];
        uint64_t n = 0;
        while (!q.empty()) {
            const entry e = q.front();
            q.pop_front();
            m_buffers.on_transmit_complete(e.tag, e.charge);
            --m_packets;
            ++n;
            drop(e.p);
        }
        m_waiting &= uint8_t(~(1u << tc));
        m_stats.dropped += n;
        m_stats.watchdog_dropped += n;
        if (m_probe) m_probe->changed();
        return n;
    }

    struct counters
    {
        uint64_t admitted = 0;
        uint64_t dropped = 0;
        uint64_t trimmed = 0;
        uint64_t ecn_marked = 0;
        uint64_t watchdog_dropped = 0;  // of `dropped`: by the PFC watchdog
        std::array<uint64_t, num_traffic_classes> ecn_marked_tc{};
    };
    const counters& stats() const { return m_stats; }

private:
    admit_result admit(packet* p, switch_tag& tag);
    packet* next(double draw);
    [[gnu::noinline]] packet* next_with_credit(double draw);
    // The frame of class `tc` leaves its queue for the wire (ECN-marked per RED).
    [[gnu::always_inline]] inline packet* take(int tc, double draw);
    void release_sent()
    {
        if (m_tx_held) {
            m_tx_held = false;
            m_buffers.on_transmit_complete(m_tx_tag, m_tx_charge);
        }
    }

    struct entry
    {
        packet* p;
        switch_tag tag;        // its ingress charge
        egress_charge charge;  // its egress charge
    };

    const egress_queue_config& m_cfg;
    const traffic_classifier& m_cls;
    buffer_manager& m_buffers;
    uint16_t m_port;
    bool m_nic_facing;
    std::array<ring<entry>, num_traffic_classes> m_fifo;
    uint8_t m_waiting = 0;  // bit c: m_fifo[c] holds a frame
    port_scheduler m_scheduler;
    credit_gate* m_gate = nullptr;
    std::array<red_marker, num_pools> m_red{};
    uint64_t m_packets = 0;  // queued only
    bool m_tx_held = false;  // the frame serialising still holds its charges
    switch_tag m_tx_tag;
    egress_charge m_tx_charge;
    counters m_stats;
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
