// The fabric switch: N ports, store-and-forward with a fixed forwarding latency.
// Split as merlin and garnet split a router: classification (traffic_class.h), routing
// (routing_table.h; member_selector.h picks the equal-cost member), the shared buffer across
// ports (buffer_manager.h over shared_buffer_accounting.h: ingress admission in ingress_unit.h,
// PFC decisions to a pause_signal), queueing and arbitration per egress port (egress_queue.h:
// trimming, RED, strict priority through port_scheduler).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/cbfc/cbfc_unit.h"
#include "hw/kernel/deferred_frame_ends.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/link/ahead_receiver.h"
#include "hw/pfc/pfc_unit.h"
#include "hw/common/random.h"
#include "hw/common/ring.h"
#include "hw/link/transmitter.h"
#include "hw/switch/buffer_manager.h"
#include "hw/switch/egress_queue.h"
#include "hw/switch/flowlet_selector.h"
#include "hw/switch/forwarding_pipeline.h"
#include "hw/switch/ingress_unit.h"
#include "hw/switch/member_selector.h"
#include "hw/switch/pause_signal.h"
#include "hw/switch/routing_table.h"
#include "hw/switch/switch_config.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

// Per-port counters read by the records.
struct port_counters
{
    uint64_t rx_packets = 0;
    uint64_t rx_bytes = 0;
    uint64_t tx_drops = 0;  // egress admission drops
    uint64_t rx_drops = 0;  // ingress admission drops (headroom or pool full)
};

// What a port asks of its switch: the work the switch holds back done first (before the port
// acts), and a frame taken or given back as it starts on the port's link (ahead_receiver.h).
class switch_port_owner
{
public:
    virtual void settle() = 0;
    virtual bool take_ahead(uint16_t port, packet& p, uint64_t arrive_ps, uint64_t place,
                            uint64_t bytes_before) = 0;
    virtual void recall_ahead(uint16_t port, const std::function<void(packet*)>& lost) = 0;
    // Port `port` started a frame: exits it is now busy past may be held back.
    virtual void frame_started(uint16_t port) = 0;

protected:
    ~switch_port_owner() = default;
};

// A plain part of its switch: its sockets are the switch's, named after the port.
class switch_port final : public ahead_receiver, private frame_end_deferral, private pfc_owner
{
public:
    packet_target_socket in;
    transmitter tx;

    // Port `index` of a switch whose buffer is `buffers`; `cfg`: the switch's queue settings;
    // `nic_facing`: the peer is a host NIC; `pfc`: its PFC frames and timing.
    // `frame_ends`: the switch's held-back frame ends, where the port holds back the end of a
    // frame that nothing waits to follow.
    switch_port(const std::string& name, uint16_t index, const egress_queue_config& cfg,
                bool nic_facing, const traffic_classifier& cls, buffer_manager& buffers,
                random_stream& rng, const pfc_settings& pfc, packet_pool& pool,
                deferred_frame_ends& frame_ends, switch_port_owner& owner);

    egress_queue& queue() { return m_queue; }
    const egress_queue& queue() const { return m_queue; }
    // The counters as the switch's own steps update them (it has settled first).
    port_counters& live_counters() { return m_counters; }
    // The counters as of now: the switch's held-back arrivals before this are applied first.
    port_counters& counters()
    {
        m_owner.settle();
        return m_counters;
    }
    const port_counters& counters() const
    {
        m_owner.settle();
        return m_counters;
    }
    // PFC of this port: pauses it receives hold its egress classes; pauses it sends hold the
    // peer. The PFC queue is served before the egress queue's classes.
    pfc_unit& pfc() { return m_pfc; }
    const pfc_unit& pfc() const { return m_pfc; }
    // CBFC on the port's link (before the run): its credit updates go through the PFC queue.
    void enable_cbfc(const cbfc_settings& s, packet_pool& pool);
    // nullptr: the link has no CBFC.
    cbfc_unit* cbfc() { return m_cbfc.get(); }
    const cbfc_unit* cbfc() const { return m_cbfc.get(); }
    switch_port(const switch_port&) = delete;
    switch_port& operator=(const switch_port&) = delete;

    // ahead_receiver: the switch takes the frame (fabric_switch::take_ahead).
    bool take_ahead(packet& p, uint64_t arrive_ps, uint64_t place_key,
                    const on_wire& ahead) override
    {
        // What is on the wire arrives first and is charged first: counted as promised too, each
        // frame at least the smallest charge.
        return m_owner.take_ahead(m_index, p, arrive_ps, place_key,
                                  ahead.bytes + uint64_t(ahead.frames) * wire::min_ip_charge);
    }
    void recall_ahead(const std::function<void(packet*)>& lost) override
    {
        m_owner.recall_ahead(m_index, lost);
    }

private:
    [[gnu::noinline, gnu::cold]] packet* next_pfc();
    bool may_defer_frame_end(uint64_t end_ps) override;
    void frame_end_deferred(transmitter& t) override { m_frame_ends.add(t); }
    void before_frame_end() override { m_owner.settle(); }
    void frame_started() override { m_owner.frame_started(m_index); }
    void pfc_kick() override { tx.kick(); }
    void pfc_settle() override { m_owner.settle(); }
    uint8_t pfc_egress_waiting() override { return m_queue.waiting_classes(); }
    uint64_t pfc_watchdog_drop(int tc) override;

    buffer_manager& m_buffers;
    deferred_frame_ends& m_frame_ends;
    switch_port_owner& m_owner;
    uint16_t m_index;
    egress_queue m_queue;
    port_counters m_counters;
    packet_pool& m_pool;
    pfc_unit m_pfc;
    std::unique_ptr<cbfc_unit> m_cbfc;
};

// Per-member load-balancing counters (scala-switch-load-balancing-stats).
struct member_counters
{
    uint64_t bytes = 0;
    uint64_t packets = 0;
};

// What the forwarding pipeline carries: the packet and its switch tag (page, ingress step 7: the
// port it arrived on, its class, pool and ingress charge), which egress admission and the
// release of the ingress charge need (garnet's flit keeps its input port the same way).
struct switch_item
{
    packet* p;
    switch_tag tag;
};

class fabric_switch : public sc_core::sc_module,
                      private credit_return_signal,
                      private switch_port_owner,
                      private deferred_owner
{
public:
    struct port_spec
    {
        bool nic_facing = false;  // the peer is a host NIC (trimming marks TRIMMED_LAST_HOP)
        pfc_link link;            // the port's link: PFC pause and refresh times
        bool uplink = false;      // towards a higher tier (the buffer records' ul/dl)
        cbfc_settings cbfc;       // CBFC on the port's link (off by default)
    };

    fabric_switch(const sc_core::sc_module_name& name, uint32_t node_id, const switch_config& cfg,
                  routing_table routes, const std::vector<port_spec>& ports, uint64_t random_seed,
                  packet_pool& pool);

    ~fabric_switch() override;

    uint32_t node_id() const { return m_node_id; }
    uint32_t salt() const { return m_ecmp.salt(); }
    size_t port_count() const { return m_ports.size(); }
    switch_port& port(size_t i) { return *m_ports[i]; }
    const traffic_classifier& classifier() const { return m_classifier; }
    const switch_port& port(size_t i) const { return *m_ports[i]; }
    const routing_table& routes() const { return m_routes; }
    // As of now (held-back work before this done first).
    const buffer_manager& buffers() const
    {
        const_cast<fabric_switch*>(this)->settle();
        return m_buffers;
    }
    const ingress_unit& ingress() const { return m_ingress; }
    // PFC's end of the buffer's pause decisions (null: nobody listens).
    void attach_pause_signal(pause_signal* s) { m_buffers.attach(s); }
    // Occupancy sampling for the buffer records (before the run; a second call adds to the
    // first).
    void sample_buffer_occupancy(bool aggregate, bool per_port);
    buffer_occupancy& buffer_occupancy_series() { return *m_buffers.occupancy_mut(); }
    const member_counters& member(size_t slot) const { return m_members[slot]; }
    // Simulated time (ps) a set first carried a packet; UINT64_MAX: never.
    uint64_t set_formed_ps(int32_t set) const { return m_set_formed_ps[size_t(set)]; }

    uint64_t no_route_drops() const { return m_no_route_drops; }

    // Rtl.FlowHash rtl|both: the ECMP hashes come from `h` (hw/switch/flow_hasher.h; not owned).
    void use_hasher(flow_hasher* h)
    {
        m_ecmp.use_hasher(h);
        if (m_flowlet) m_flowlet->use_hasher(h);
    }

    // The switch's PFC generator: the shared buffer's Xoff/Xon of (ingress port, priority
    // group) become pause and resume frames on that port, one per class of the group.
    pause_signal& pause_generator() { return m_pause_generator; }
    // Priority group (a pool) -> its lossless classes (bit t: TCt), from the shared buffer's
    // layout at construction; with the pages' defaults group 0 is TC0 and group 1 is TC1.
    void set_priority_groups(const std::array<uint8_t, 8>& g) { m_pause_generator.groups = g; }

    // The flowlet selector (LoadBalancingMethod: flowlet), nullptr with none.
    const flowlet_selector* flowlet() const { return m_flowlet.get(); }

private:
    struct pause_generator_impl : pause_signal
    {
        fabric_switch* sw = nullptr;
        std::array<uint8_t, 8> groups{};
        void xoff(uint32_t port, uint32_t group) override
        {
            sw->port(port).pfc().xoff(groups[group & 7u]);
        }
        void xon(uint32_t port, uint32_t group) override
        {
            sw->port(port).pfc().xon(groups[group & 7u]);
        }
    };

    // What the flowlet selector reads of the egress ports: occupancy, and the classes the
    // port's scheduler has paused (received PFC frames pause and resume them there).
    class ports_view final : public member_view
    {
    public:
        explicit ports_view(const std::vector<std::unique_ptr<switch_port>>& ports) : m_ports(ports)
        {
        }
        uint64_t egress_bytes(uint16_t port) const override
        {
            return m_ports[port]->queue().bytes_held();
        }
        bool paused(uint16_t port, uint8_t tc) const override
        {
            return (m_ports[port]->queue().scheduler().paused() >> tc) & 1u;
        }

    private:
        const std::vector<std::unique_ptr<switch_port>>& m_ports;
    };

    void on_arrival(size_t port, packet& p);
    [[gnu::noinline, gnu::cold]] void receive_control(size_t port, packet& p);
    static uint64_t cbfc_reserved_bytes(const std::vector<port_spec>& ports);
    [[gnu::noinline]] void on_cbfc_arrival(size_t port, packet& p);
    void freed(uint16_t port, uint8_t vc, uint16_t credits) override
    {
        m_ports[port]->cbfc()->freed(vc, credits);
    }
    void forward(const switch_item& item, uint64_t now_ps);
    // Pipeline exits held back (docs/performance.md, "Held-back pipeline exits").
    void hold_exits();
    void frame_started(uint16_t port) override
    {
        if (m_exiting || m_pipeline.empty()) return;
        // Only the port the first exit waits for can change the answer.
        if (m_pipeline.next_exit().arrival == m_blocked_exit && port != m_blocked_route.port)
            return;
        hold_exits();
    }
    // An exit's equal-cost set, its member and that member's port (no_port: no route).
    static constexpr uint16_t no_port = UINT16_MAX;
    struct route_choice
    {
        int32_t set = 0;
        uint16_t member = 0;
        uint16_t port = no_port;
    };
    route_choice egress_of(const switch_item& item);
    void admit_to(const switch_item& item, uint64_t now_ps, int32_t set, size_t member);
    void apply_held_exit();

    // Held-back work (frame ends, arrivals of frames taken ahead, held exits) done in its
    // order, up to the wake-up being run (docs/performance.md, "Frames handed over ahead").
    void settle() override
    {
        if (!m_pipeline.arrivals_waiting() && m_held_exits.empty()) {
            m_frame_ends.settle();
            return;
        }
        settle_before(m_scheduler.current_ps(), m_scheduler.current_key());
    }
    bool settle_before(uint64_t at_ps, uint64_t key) override;
    bool take_ahead(uint16_t port, packet& p, uint64_t arrive_ps, uint64_t place,
                    uint64_t bytes_before) override;
    void recall_ahead(uint16_t port, const std::function<void(packet*)>& lost) override;
    void apply_arrival(const switch_item& a);
    void exits_due();
    void list_with_scheduler();

    uint32_t m_node_id;
    routing_table m_routes;
    ecmp_selector m_ecmp;
    packet_pool& m_pool;
    traffic_classifier m_classifier;
    random_stream m_rng;
    std::vector<port_spec> m_port_specs;
    bool m_sample_aggregate = false, m_sample_per_port = false;
    buffer_manager m_buffers;
    ingress_unit m_ingress;
    egress_queue_config m_queue_cfg;  // before m_ports, whose queues share it
    forwarding_pipeline<switch_item> m_pipeline;
    deferred_frame_ends m_frame_ends;  // before m_ports, which hold it
    model_scheduler& m_scheduler;
    bool m_listed = false;  // with the scheduler, for m_frame_ends, arrivals and held exits
    // Exits whose egress port is busy past them, in exit order (arrived, out of the pipeline).
    struct held_exit
    {
        timed_place arrival;
        switch_item item;
        route_choice route;
    };
    ring<held_exit> m_held_exits;
    bool m_exiting = false;  // exits_due() is taking the due exits
    // The first exit hold_exits() found its egress port not busy past, and that port.
    timed_place m_blocked_exit{UINT64_MAX, UINT64_MAX};
    route_choice m_blocked_route;
    std::vector<std::unique_ptr<switch_port>> m_ports;
    ports_view m_view{m_ports};
    std::unique_ptr<flowlet_selector> m_flowlet;  // only with LoadBalancingMethod: flowlet
    std::vector<member_counters> m_members;
    std::vector<uint64_t> m_set_formed_ps;
    uint64_t m_no_route_drops = 0;
    pause_generator_impl m_pause_generator;
};

}  // namespace uetsim
