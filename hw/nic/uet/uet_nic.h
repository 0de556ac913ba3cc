// The UET NIC: PDS reliable unordered delivery (RUD) with PDCs and PDC groups, the transmit
// scheduler, payload fetch over the host's PCIe lanes, ACK/SACK/NACK handling, per-packet
// retransmission timers, NSCC per group and an entropy load balancer per group.
//
// Cycle-approximate: each stage has a latency in NIC clock cycles (uet_nic_config); a stage has
// an event pending only while it has work. The pure logic lives in plain classes this module
// wraps: pdc_sender, pdc_receiver, nscc, entropy_policy. Host memory is reached through the
// shared nic_host_interface (doorbells, WQE queues, DMA over the host's PCIe link).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "hw/common/delay_line.h"
#include "hw/common/random.h"
#include "hw/common/ring.h"
#include "hw/common/transmitter.h"
#include "hw/nic/common/host_port_stats.h"
#include "hw/nic/common/nic_host_interface.h"
#include "hw/nic/common/rdma_transport.h"
#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/entropy/entropy_factory.h"
#include "hw/nic/uet/entropy/entropy_policy.h"
#include "hw/nic/uet/entropy/entropy_random.h"
#include "hw/nic/uet/nscc.h"
#include "hw/nic/uet/pdc_receiver.h"
#include "hw/nic/uet/pdc_sender.h"
#include "hw/nic/uet/uet_monitor_sink.h"
#include "hw/nic/uet/uet_nic_config.h"
#include "hw/nic/uet/uet_transport_counters.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

class uet_nic : public sc_core::sc_module, public rdma_transport
{
public:
    packet_target_socket in;
    transmitter tx;

    uet_nic(const sc_core::sc_module_name& name, uint32_t host, uint32_t node_id, uint32_t ip,
            const uet_nic_config& cfg, const nscc_config& cc, const entropy_config& lb,
            uint64_t random_seed, packet_pool& pool, nic_host_interface& host_if);

    // A message of `bytes` to `dst_host`; its data packets carry `traffic_class` in their DSCP.
    // A queue pair's messages share one PDC, opened by its first message and kept open for the
    // next (one queue pair, one PDC). A message without a queue pair (Flows) gets a PDC of its
    // own that closes when it completes, as the Chakra workload does.
    void post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                      uint8_t traffic_class, uint32_t queue_pair) override;
    void send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m) override;

    void set_monitor(uet_monitor_sink* m) { m_monitor = m; }

    // The local UDP port of PDC `id`: the fixed entropy value of a group under None.
    static uint16_t none_port(uint16_t pdc_id) { return uint16_t(0xC000 | (pdc_id & 0x3FFF)); }
    const host_port_stats& port_stats() const { return m_port; }
    uet_transport_counters& counters() { return m_counters; }
    uint32_t node_id() const { return m_node_id; }
    uint32_t host() const { return m_host; }

private:
    struct message_state
    {
        uint64_t id;
        uint32_t dst;
        uint64_t bytes;
        uint8_t traffic_class = 0;
        uint64_t next_offset = 0;
        uint32_t packets = 0;
        uint32_t packets_issued = 0;
        uint64_t bytes_acked = 0;
        bool first_ack_seen = false;
        bool done = false;
    };
    struct sender_pdc
    {
        uint16_t id = 0;
        uint16_t remote_id = 0;  // learned from the first ACK
        uint32_t dst = 0, dst_ip = 0;
        uint32_t group = 0;
        uint32_t first_psn = 0;
        pdc_sender st;
        uint64_t message = 0;   // index into m_messages
        uint64_t ar_count = 0;  // data packets sent, for the ACK-request rule
        uint64_t probe_sent_ps = 0;
        bool probe_outstanding = false;
        bool open = false;
        bool kept_open = false;  // a queue pair's PDC: stays open between its messages
    };
    struct pdc_group
    {
        std::unique_ptr<nscc> cc;
        std::unique_ptr<entropy_policy> lb;
        uint64_t inflight = 0;
        uint64_t fetched = 0;
        std::vector<uint16_t> pdcs;  // open sender PDCs, served in turn
        size_t turn = 0;
        bool queued = false;
        uint32_t dst = 0;
        bool alive = false;
    };
    struct receiver_pdc
    {
        uint16_t id = 0;
        uint32_t first_psn = 0;  // tells a reused sender PDC id from the earlier PDC
        pdc_receiver st;
        explicit receiver_pdc(uint32_t first) : st(first) {}
    };
    struct timer
    {
        uint64_t deadline_ps;
        uint16_t pdc;
        uint32_t psn;
        uint8_t tx_count;
        bool failure_detection;
        bool operator>(const timer& o) const { return deadline_ps > o.deadline_ps; }
    };
    // What the frame on the wire is, for when its serialization ends.
    struct on_wire
    {
        bool data = false;
        bool retx = false;
        bool probe = false;
        uint16_t pdc = 0;
        uint32_t psn = 0;
        uint32_t wire_bytes = 0;
    };

    // Transmit side.
    void schedule();
    bool group_has_work(pdc_group& g);
    sent_packet* next_for_pdc(sender_pdc& p, bool& is_rtx, uint32_t& payload);
    void send_data(pdc_group& g, sender_pdc& p, sent_packet* rtx, uint32_t payload);
    void enqueue_ready(uint32_t g, bool at_head);
    void kick_scheduler(const sc_core::sc_time& after = sc_core::SC_ZERO_TIME);
    packet* next_frame();
    void frame_done();
    void send_control(packet* p);

    // Receive side.
    void on_frame(packet& p);
    void process(packet* p);
    void on_data(packet* p);
    void on_probe(packet* p);
    void on_ack(packet* p);
    void on_nack(packet* p);

    // Timers.
    void arm(const timer& t);
    void on_timer();
    bool timer_live(const timer& t);

    uint32_t group_for(uint32_t dst, uint16_t creator_pdc);
    void close_pdc(sender_pdc& p);
    packet* make_control(packet_kind kind, uint32_t dst_host, uint32_t dst_ip);
    void monitor(const packet& p, uet_monitor_row::dir d, const sender_pdc* sp = nullptr,
                 const pdc_group* g = nullptr, double rtt_ns = -1);
    double now_s() const { return sc_core::sc_time_stamp().to_seconds(); }
    uint64_t now_ps() const { return sc_core::sc_time_stamp().value(); }

    uint32_t m_host, m_node_id, m_ip;
    uet_nic_config m_cfg;
    nscc_config m_cc_cfg;
    entropy_config m_lb_cfg;
    uint64_t m_seed;
    packet_pool& m_pool;
    nic_host_interface& m_host_if;
    random_stream m_rng;
    sc_core::sc_time m_cycle;

    std::vector<message_state> m_messages;
    // Index = PDC id (1..32767); allocated when an id is first used, reused after.
    std::vector<std::unique_ptr<sender_pdc>> m_tx_pdcs;
    sender_pdc* tx_pdc(uint16_t id) { return m_tx_pdcs[id].get(); }
    std::vector<uint16_t> m_free_pdc_ids;
    std::unordered_map<uint32_t, uint16_t> m_pdc_of_queue_pair;
    uint16_t m_next_pdc_id = 1;
    std::vector<pdc_group> m_groups;
    std::vector<uint32_t> m_free_groups;
    uint64_t m_groups_created = 0;  // seeds each group's entropy generator
    std::unordered_map<uint32_t, uint32_t> m_group_of_dst;
    std::deque<uint32_t> m_ready;
    std::unordered_map<uint64_t, std::unique_ptr<receiver_pdc>> m_rx_pdcs;  // (src host, spdcid)
    uint16_t m_next_rx_pdc_id = 32769;

    uint32_t m_egress_data_reserved = 0;
    bool m_pool_blocked = false;

    sc_core::sc_event m_schedule_ev;
    bool m_schedule_pending = false;
    delay_line m_fetch;        // payload fetch + header build, in issue order
    delay_line m_rx_pipeline;  // frame received -> processed
    delay_line m_ack_hold;     // ACKs held for the receiver's service time, in order
    ring<packet*> m_control_q;
    ring<packet*> m_data_q;
    on_wire m_wire;

    std::priority_queue<timer, std::vector<timer>, std::greater<timer>> m_timers;
    sc_core::sc_event m_timer_ev;
    uint64_t m_timer_armed_ps = UINT64_MAX;

    host_port_stats m_port;
    uet_transport_counters m_counters;
    uet_monitor_sink* m_monitor = nullptr;
    std::vector<sent_packet*> m_retired;  // scratch
};

}  // namespace uetsim
