// The network port every NIC type has, whatever its transport: the `in` socket and the
// transmitter, egress arbitration (PFC frames first, then one queue per traffic class, chosen by
// the EgressBufferManager's QueueSchedulingType: tx_class_scheduler; classes paused by PFC are
// skipped; the control class's queue holds its control frames ahead of its data), the receive
// buffer (nic_rx_buffer: per class pools, admission and drops, PFC pauses at Xoff and XON at Xon),
// the egress pools (nic_egress_pools: a data frame is charged to its class's pool when queued and
// released when its serialization ends, a blocked transport is woken when that pool is half
// drained; a control frame waits for room in the control class's pool), the receive pipeline
// stages (RxParse behind the MAC's receive FIFO, PdcLookup, SackUpdate, HostWrite: pipeline_stage
// arithmetic, one timed FIFO towards the transport), the ACK hold line (ACKs leave in order
// after the receiver's service time; NACKs and probe answers pass it by), host_port_stats, and
// connection-management frames (built here; received ones go straight to host_dma). The
// transport behind it is a nic_port_client: one virtual call per frame event (and, while a
// monitor observes, one more when a frame finishes). The end of a control frame the client does
// not act on, with nothing to follow it, is held back (docs/performance.md, "Held-back NIC frame
// ends"): every public member settles it first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include <systemc>

#include "hw/cbfc/cbfc_unit.h"
#include "hw/kernel/activity.h"
#include "hw/kernel/deferred_frame_ends.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/timed_fifo.h"
#include "hw/link/ahead_receiver.h"
#include "hw/pfc/pfc_unit.h"
#include "hw/common/port_scheduler.h"
#include "hw/common/ring.h"
#include "hw/common/shared_settings.h"
#include "hw/link/transmitter.h"
#include "hw/nic/common/host_dma.h"
#include "hw/nic/common/host_port_stats.h"
#include "hw/nic/common/nic_buffer_config.h"
#include "hw/nic/common/nic_egress_pools.h"
#include "hw/nic/common/nic_pool_stats.h"
#include "hw/nic/common/nic_rx_buffer.h"
#include "hw/nic/common/pipeline_stage.h"
#include "hw/nic/common/tx_class_scheduler.h"
#include "tlm/dscp.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

struct nic_port_config
{
    uint32_t host = 0;  // source host index of the frames it builds
    uint32_t ip = 0;
    uint8_t control_traffic_class = 1;
    // The egress pools and the transmit scheduling across classes (EgressBufferManager
    // TotalBufferSize, PoolAllocationVector, QueueSchedulingType, weights) and the receive buffer
    // (IngressBufferManager: pools, PFC).
    nic_buffer_settings egress = default_egress_buffer();
    nic_ingress_settings ingress = default_ingress_buffer();
    // The receive stages in order (rx_stage); RxParse's FIFO is the MAC's receive FIFO.
    pipeline_stage_timing rx_stages[4] = {};
    uint64_t cycle_ps = 1000;  // the NIC clock
    // PFC frames this port sends: their size on its link type and the quanta per class
    // (QuantaValue); the link's rate and delay come with set_link().
    pfc_settings pfc;
    // PdcLookup asks the client when the frame's context is on chip (a context cache); off, the
    // lookup is the stage's latency alone and the client is not asked.
    bool pdc_context_lookup = false;
};

// The receive pipeline's stages, in the order a frame passes them.
enum class rx_stage : int { rx_parse, pdc_lookup, sack_update, host_write };
inline constexpr int k_rx_stages = 4;

// What a frame was, for its transport when its serialization ends (the frame itself belongs to
// the link by then).
struct sent_frame
{
    packet_kind kind = packet_kind::raw_data;
    bool data = false;          // from a data queue: its egress pool charge is released
    uint8_t traffic_class = 0;  // the queue (and egress pool) it left
    bool retransmit = false;
    bool ack_request = false;
    uint16_t spdcid = 0;
    uint32_t psn = 0;
    uint32_t wire_bytes = 0;
};

class nic_port_client
{
public:
    virtual ~nic_port_client() = default;
    // A received transport frame, out of the receive pipeline; the client releases it.
    virtual void on_receive(packet* p) = 0;
    // A frame's serialization ended.
    virtual void on_sent(const sent_frame& f) = 0;
    // Whether on_sent(f) does nothing at all (then the port may hold that frame's end back when
    // nothing waits to follow it: its own work is done when the port is next used).
    virtual bool sent_is_silent(const sent_frame& f) const
    {
        (void)f;
        return false;
    }
    // The egress pool of `traffic_class`, which the client was blocked on (block_on_pool), is
    // half drained.
    virtual void on_pool_free(int traffic_class) = 0;
    // A frame has finished serializing (a copy of it as it started: the link owns the frame
    // by then), just before on_sent(); called only while the port is told to
    // observe_transmit(). A frame still on the wire when the run ends is never reported.
    virtual void on_transmit(const packet& p) { (void)p; }
    // The frame's PDC context is needed from `at_ps` (PdcLookup's start): when it is on chip.
    // Called only with nic_port_config::pdc_context_lookup.
    virtual uint64_t context_ready(const packet& p, uint64_t at_ps)
    {
        (void)p;
        return at_ps;
    }
};

class nic_port : public sc_core::sc_module,
                 public ahead_receiver,
                 private frame_end_deferral,
                 private deferred_owner,
                 private pfc_owner
{
public:
    packet_target_socket in;
    transmitter tx;

    nic_port(const sc_core::sc_module_name& name, const nic_port_config& cfg, packet_pool& pool,
             host_dma& dma, nic_port_client& client);

    // The egress pools: free bytes of class `cls`'s, and every class's reservations.
    uint32_t pool_room(int cls) const
    {
        settle();
        return m_egress.room(cls);
    }
    const nic_egress_pools& egress_pools() const
    {
        settle();
        return m_egress;
    }
    // The client could not queue a data frame of class `cls` for lack of room in its pool:
    // on_pool_free() when that pool is half drained.
    void block_on_pool(int cls)
    {
        settle();
        m_egress.block(cls);
    }
    // A data frame, charged to its class's egress pool now and queued in its class's queue at
    // `ready` (payload fetched, header built), in order: `ready_ps` no earlier than the previous
    // data frame's.
    void push_data(packet* p, uint64_t ready_ps)
    {
        settle();
        const int cls = dscp::traffic_class(p->ip.dscp);
        m_egress.reserve(cls, p->wire_bytes);
        if (m_tx_pools) (*m_tx_pools)[size_t(cls)].charged(p->wire_bytes, m_egress.reserved(cls));
        m_fetch.push(p, ready_ps);
    }
    // Egress pool reservations made ahead of their frames (RoCE: a segment's wire size is
    // reserved before its payload fetch, the frame queued once numbered): reserve, give back
    // unused (a stale fetch), and queue a frame whose bytes are reserved, now, in its class's
    // queue. Its serialization end releases the reservation as for push_data().
    void reserve_data(int cls, uint32_t bytes)
    {
        settle();
        m_egress.reserve(cls, bytes);
    }
    void release_data(int cls, uint32_t bytes)
    {
        settle();
        m_egress.release(cls, bytes);
    }
    void push_reserved_data(packet* p)
    {
        settle();
        queue_data(p);
        tx.kick();
    }
    // A frame through the PFC queue (a RoCE CNP): ahead of every class, in order with the PFC
    // frames, never paused and never charged to a pool.
    void push_urgent(packet* p)
    {
        settle();
        m_pfc.push_frame(p);
        tx.kick();
    }
    // A control frame: queued now if the control class's egress pool has room for it (its
    // reservation held until its serialization ends), else it waits, in order, for that room.
    void push_control(packet* p)
    {
        settle();
        if (__builtin_expect(!m_control_wait.empty(), 0) ||
            !m_egress.fits(m_cfg.control_traffic_class, p->wire_bytes)) {
            m_control_wait.push_back(p);
            return;
        }
        queue_control(p);
    }
    // An ACK held for the receiver's service time: queued at `due_ps` or behind the ACKs held
    // before it, whichever is later (ACKs leave in the order they were made).
    void hold_control(packet* p, uint64_t due_ps)
    {
        m_ack_hold.push(p, std::max(due_ps, m_ack_hold.last_due_ps()));
    }
    // A control frame that is not held (a NACK, a probe's answer): queued once it is built at
    // `due_ps`, whatever ACKs are held (in order only with the other frames built this way).
    void send_control_at(packet* p, uint64_t due_ps)
    {
        m_control_built.push(p, std::max(due_ps, m_control_built.last_due_ps()));
    }
    // A connection-management frame (the three-message setup), queued now.
    void send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m);
    // Calls the client's on_transmit() for every frame that finishes from now on (monitors).
    void observe_transmit(bool on)
    {
        m_observe_tx = on;
        if (on && !m_wire_copy) m_wire_copy = std::make_unique<packet>();
    }

    // ahead_receiver: a frame taken as it starts on the link, its arrival applied in its place
    // (docs/performance.md, "Frames handed over ahead").
    bool take_ahead(packet& p, uint64_t arrive_ps, uint64_t place_key,
                    const on_wire& ahead) override;
    void recall_ahead(const std::function<void(packet*)>& lost) override;

    const host_port_stats& stats() const
    {
        settle();
        return m_stats;
    }
    // Connection-management frames received (handed to host_dma, not to the client).
    uint64_t connection_frames_received() const { return m_cm_received; }
    // Data reservations of every class (the control class's control frames left out).
    uint64_t data_reserved() const
    {
        settle();
        return m_egress.total_reserved() - m_control_reserved;
    }
    // Queue depths in frames, for waveforms: control frames queued or waiting for pool room;
    // data frames being fetched or waiting for the wire, of every class.
    size_t control_queue_depth() const
    {
        settle();
        return m_control_q.size() + m_control_wait.size();
    }
    size_t data_queue_depth() const
    {
        settle();
        size_t n = m_fetch.size();
        for (const ring<packet*>& q : m_data_q) n += q.size();
        return n;
    }
    // Frames waiting in class `cls`'s data queue for the wire.
    size_t data_queue_depth(int cls) const
    {
        settle();
        return m_data_q[size_t(cls)].size();
    }
    size_t ack_hold_backlog() const { return m_ack_hold.size(); }
    port_scheduler& arbiter() { return m_arbiter; }
    const port_scheduler& arbiter() const { return m_arbiter; }

    // PFC. The NIC pauses its rack switch for traffic class `tc` (its receive pool reached
    // Xoff): a pause frame now, through the PFC queue ahead of all traffic, re-sent every half
    // pause time until pfc_xon(tc) (or until the refresh check says the pool is below Xoff).
    void pfc_xoff(uint8_t tc)
    {
        settle();
        m_pfc.xoff(uint8_t(1u << tc));
    }
    void pfc_xon(uint8_t tc)
    {
        settle();
        m_pfc.xon(uint8_t(1u << tc));
    }
    // At each refresh: `still(tc)` true re-sends the pause, false sends XON (the NIC pages).
    void pfc_refresh_check(std::function<bool(int)> still) { m_pfc.on_refresh(std::move(still)); }
    // The port's link (the pause time is computed at its rate, plus its delay).
    void set_link(const pfc_link& l) { m_pfc.set_link(l); }
    pfc_unit& pfc()
    {
        settle();
        return m_pfc;
    }
    const pfc_unit& pfc() const
    {
        settle();
        return m_pfc;
    }
    // CBFC on the port's link (before the run): the classes on a VC send only with credit and
    // never pause the switch with PFC; their received bytes return credit when the receive
    // buffer lets them go. nullptr: the link has no CBFC.
    void enable_cbfc(const cbfc_settings& s);
    cbfc_unit* cbfc() { return m_cbfc.get(); }
    const cbfc_unit* cbfc() const { return m_cbfc.get(); }
    const pipeline_stage& stage(rx_stage s) const
    {
        settle();
        return m_rx[int(s)];
    }

    // The receive buffer. A frame is charged to its class's pool on arrival (a trimmed data
    // packet to the control class) at its size without Ethernet header and FCS, and released
    // when the client has processed it, or later if the client says so during on_receive():
    // received data stays charged until its write to the host is done at `at_ps`.
    void rx_hold_until(uint64_t at_ps) { m_rx_hold_ps = std::max(m_rx_hold_ps, at_ps); }
    // The bytes held in the pool of `p`'s class besides `p` itself (being processed), now.
    uint64_t rx_backlog(const packet& p);
    // The receive pool of `p`'s class (0: the class has none).
    uint64_t rx_pool_bytes(const packet& p) const { return m_rx_buf.pool_bytes(rx_class(p)); }
    const nic_rx_buffer& rx_buffer() const
    {
        settle();
        return m_rx_buf;
    }
    // Classes 0 .. rx_classes()-1 have a receive pool (IngressBufferManager PoolAllocationVector).
    int rx_classes() const { return m_cfg.ingress.classes(); }
    // A bench without a host side holds `bytes` of class `cls` in the receive pool.
    void rx_preload(int cls, uint64_t bytes) { m_rx_buf.set_preload(cls, bytes); }
    const tx_class_scheduler& tx_scheduler() const { return m_tx_sched; }

    // net-buff-stats (asked before the run): from now on the pools' traffic is counted. The
    // transmit pools as the record reads them: each class's reservations, data and control
    // frames (from queued to serialized) alike.
    void keep_buffer_stats()
    {
        if (!m_tx_pools) m_tx_pools = std::make_unique<pool_counters_by_class>();
        m_rx_buf.count(true);
    }
    int tx_classes() const { return m_cfg.egress.classes(); }
    nic_pool_sample tx_sample(int c) const;
    // A new record interval at `now_ps`: every pool's interval maximum restarts.
    void start_buffer_stats_interval(uint64_t now_ps);

private:
    // A frame end held back (may_defer_frame_end): done before anything that reads or changes
    // what it changes (the egress pools, the queues, the transmitter), if it fell due before the
    // wake-up being run. The scheduler does the rest before the samplers.
    void settle() const
    {
        m_frame_ends.settle();
        if (!m_ahead.empty()) const_cast<nic_port*>(this)->settle_arrivals();
    }
    void settle_arrivals();
    bool settle_before(uint64_t at_ps, uint64_t key) override;
    bool may_defer_frame_end(uint64_t end_ps) override;
    void frame_end_deferred(transmitter& t) override { m_frame_ends.add(t); }
    void before_frame_end() override { settle(); }
    void pfc_kick() override { tx.kick(); }
    void pfc_settle() override { settle(); }
    // The classes with a frame waiting, as the egress arbiter sees them.
    uint8_t pfc_egress_waiting() override
    {
        uint8_t w = m_data_waiting;
        if (!m_control_q.empty()) w |= uint8_t(1u << m_cfg.control_traffic_class);
        return w;
    }

    // A control frame into the control class's queue, its room reserved.
    void queue_control(packet* p)
    {
        const int ctc = m_cfg.control_traffic_class;
        m_egress.reserve(ctc, p->wire_bytes);
        m_control_reserved += p->wire_bytes;
        if (m_tx_pools) (*m_tx_pools)[size_t(ctc)].charged(p->wire_bytes, m_control_reserved);
        m_control_q.push_back(p);
        m_pfc.egress_changed();
        tx.kick();
    }
    void admit_waiting_control();
    void queue_data(packet* p)
    {
        const int cls = dscp::traffic_class(p->ip.dscp);
        m_data_q[size_t(cls)].push_back(p);
        m_data_waiting |= uint8_t(1u << cls);
    }
    uint64_t tx_occupancy(int c) const { return m_egress.reserved(c); }
    packet* next_frame();
    int rx_class(const packet& p) const
    {
        return p.trimmed ? m_cfg.control_traffic_class : dscp::traffic_class(p.ip.dscp);
    }
    void rx_released(uint8_t xon_classes);
    void on_rx_release_due();
    void arm_rx_release();
    [[gnu::noinline, gnu::cold]] packet* next_pfc();
    [[gnu::noinline, gnu::cold]] sc_core::sc_time receive_control(packet& p);
    [[gnu::noinline]] packet* next_with_credit(uint8_t waiting, int cls);
    int choose(uint8_t sendable)
    {
        if ((sendable & (sendable - 1)) == 0) return __builtin_ctz(sendable);
        if (sendable & ~m_pooled) return 31 - __builtin_clz(sendable);  // no pool: no turns
        return m_tx_sched.pick(sendable);
    }
    [[gnu::always_inline]] inline packet* take_class(int cls);
    // Credit of a frame that came in on a VC, returned once the receive buffer lets it go.
    [[gnu::noinline]] void return_credit(uint8_t vc_stamp, uint32_t wire_bytes, bool now);
    [[gnu::always_inline]] inline packet* take(ring<packet*>& q, int cls, bool data);
    void frame_done();
    void received(packet* p);

    mutable deferred_frame_ends m_frame_ends;
    // Frames taken ahead of their arrival (take_ahead), in arrival order; each class's bytes
    // among them.
    struct ahead_arrival
    {
        packet* p;
        uint64_t arrive_ps;
        uint64_t place;  // the link wire's (wakeup::place_key)
        uint32_t charge;
        int cls;
    };
    void apply_arrival(const ahead_arrival& a);
    ring<ahead_arrival> m_ahead;
    std::array<uint64_t, k_tc_count> m_ahead_bytes{};
    bool m_ahead_owed = false;  // listed with the scheduler
    model_scheduler& m_scheduler;
    std::shared_ptr<const nic_port_config> m_shared_cfg;  // one copy for the fabric's alike ports
    const nic_port_config& m_cfg;                         // its host and IP are m_host's and m_ip's
    uint32_t m_host;
    uint32_t m_ip;
    packet_pool& m_pool;
    host_dma& m_dma;
    nic_port_client& m_client;
    port_scheduler m_arbiter;  // the PFC pause state of the classes
    tx_class_scheduler m_tx_sched;
    nic_rx_buffer m_rx_buf;
    uint64_t m_rx_hold_ps = 0;
    uint8_t m_rx_xon_pending = 0;  // XONs asked for inside a PFC refresh, sent a delta later
    wakeup m_rx_release_wake{[this] {
        activity::tick();
        on_rx_release_due();
    }};
    pfc_unit m_pfc;
    std::unique_ptr<cbfc_unit> m_cbfc;
    delay_line m_fetch;  // payload fetch + header build, in issue order
    pipeline_stage m_rx[k_rx_stages];
    bool m_rx_delays_only = true;  // every receive stage is a pure delay (the defaults)
    uint64_t m_rx_latency_ps = 0;
    delay_line m_rx_pipeline;      // frame received -> out of the receive stages
    delay_line m_ack_hold;         // ACKs held for the receiver's service time, in order
    delay_line m_control_built;    // NACKs and probe answers until built: never behind ACKs
    ring<packet*> m_control_q;     // the control class's control frames, their room reserved
    ring<packet*> m_control_wait;  // control frames waiting for room in the control pool
    std::array<ring<packet*>, k_tc_count> m_data_q;  // one data queue per traffic class
    uint8_t m_data_waiting = 0;                      // bit c: class c's data queue holds a frame
    uint8_t m_pooled = 0;  // bit c: class c has an egress pool (takes part in the turns)
    sent_frame m_wire;
    std::unique_ptr<packet> m_wire_copy;  // the frame on the wire, while observed (on_transmit)
    bool m_wire_copied = false;
    nic_egress_pools m_egress;
    uint64_t m_control_reserved = 0;  // the control frames' part of the control class's pool
    // net-buff-stats' counters, made when the record asks (keep_buffer_stats)
    std::unique_ptr<pool_counters_by_class> m_tx_pools;
    bool m_observe_tx = false;
    uint64_t m_cm_received = 0;
    host_port_stats m_stats;
};

}  // namespace uetsim
