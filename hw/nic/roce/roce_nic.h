// The RoCE v2 NIC (the five RoCE NIC pages): reliable connected queue pairs, one message at a
// time per queue pair, segmentation at MSS with FIRST/MIDDLE/LAST/ONLY opcodes, cumulative and
// coalesced ACKs, go-back-N with one NAK per gap, one transport timer per queue pair, CNPs for
// CE-marked packets and a DCQCN-style rate per queue pair (dcqcn_rate), on the common port
// (egress pools and transmit scheduling, receive pools and PFC) and the common host side.
//
// This module is the glue between plain classes: roce_requester (a queue pair's sending side),
// roce_responder (its receiving side), dcqcn_rate, and one deadline_heap of timers (transport
// timers, acknowledgement timers, rate-loop halves) behind one wake-up. Packet generation
// serves the ready queue round robin, one segment each, reserving each segment's wire size in
// the egress data pool before its PCIe fetch; the segment is numbered when its payload arrives
// (a timed FIFO of fetches, one wake-up for its head). docs/roce-nic.md ("Modelling choices") lists
// the choices the pages leave open.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "hw/common/deadline_heap.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup.h"
#include "hw/kernel/timed_fifo.h"
#include "hw/common/ring.h"
#include "hw/common/shared_settings.h"
#include "hw/nic/common/host_nic.h"
#include "hw/nic/roce/dcqcn_rate.h"
#include "hw/nic/roce/roce_nic_config.h"
#include "hw/nic/roce/roce_requester.h"
#include "hw/nic/roce/roce_responder.h"
#include "hw/nic/roce/roce_transport_counters.h"

namespace uetsim {

// Queue pair numbers of Flows messages (a queue pair each): above every connection's number.
inline constexpr uint32_t k_roce_flows_qp_base = 0x800000;
// The first data queue pair's number: QP0 and QP1 are InfiniBand's special queue pairs (SMI,
// GSI), so connection n (of the host interface or a workload) is queue pair n + 2, as real
// NICs number them.
inline constexpr uint32_t k_roce_first_data_qp = 2;

class roce_nic : public host_nic
{
public:
    // `line_rate_bps`: the host link's rate (the NIC's DataRate), the base of the rate loop's
    // floor and of the PFC pause time.
    roce_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
             const roce_nic_config& cfg, double line_rate_bps);

    // A message of `bytes` to `dst_host` on connection `queue_pair`, whose queue pair number on
    // the wire is queue_pair + k_roce_first_data_qp (its data packets carry `traffic_class`);
    // k_no_queue_pair (a Flows message) gets a queue pair of its own.
    void post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                      uint8_t traffic_class, uint32_t queue_pair,
                      delivery_mode mode = delivery_mode::rud) override;

    void work_request_posted() override { ++m_counters.wqe_created; }
    const char* kind_name() const override { return "roce"; }
    // A workload's RDMA WRITEs to one host share the queue pair of that host pair.
    uint32_t workload_queue_pair(uint32_t dst_host) const override { return dst_host; }
    uint64_t data_packets_sent() const override
    {
        return m_counters.rdma_write_cnt + m_counters.rdma_send_cnt;
    }

    roce_transport_counters& counters() { return sync_counters(); }
    const roce_transport_counters& counters() const { return sync_counters(); }
    const roce_nic_config& config() const { return m_cfg; }
    bool buffer_stats_enabled() const override { return m_cfg.enable_buffer_stats; }
    uint64_t nd_rx_drops() const override
    {
        return roce_nd_rx_drops(port.stats().rx_drops, counters());
    }

    // Read-only state for tests and waveforms.
    size_t open_queue_pairs() const { return m_qps.size(); }
    size_t open_responders() const { return m_responders.size(); }
    size_t ready_queue_pairs() const { return m_ready.size(); }
    size_t timers_pending() const { return m_timers.size(); }
    // The open queue pairs' numbers, ascending (waveforms).
    std::vector<uint32_t> open_qpns() const;
    // Egress frames queued for the wire or being fetched (waveforms).
    size_t fetches_pending() const { return m_fetches.size(); }
    // The waveform probe, told after every change of the state it shows (Trace.*).
    void set_probe(state_probe* p) override { m_probe = p; }
    std::string outstanding_connections() const override;
    // A queue pair's sending side and rate by its number on the wire (connection + 2), or
    // nullptr when it is not open.
    const roce_requester* requester(uint32_t qpn) const;
    const dcqcn_rate* rate(uint32_t qpn) const;
    // The UDP source port of queue pair `qpn` from host `src` to host `dst` (fixed: ECMP keeps
    // the queue pair on one path) and the first PSN of that direction.
    static uint16_t udp_source_port(uint32_t qpn, uint32_t src, uint32_t dst);
    static uint32_t initial_psn(uint64_t seed, uint32_t qpn, uint32_t src, uint32_t dst);

private:
    struct pending_message
    {
        uint64_t id = 0;
        uint64_t bytes = 0;
        uint8_t traffic_class = 0;
        roce::verb verb = roce::verb::rdma_write;
    };
    struct queue_pair
    {
        queue_pair(uint32_t first_psn, uint32_t mss, const dcqcn_config& ecn, double line_bps)
            : req(first_psn, mss), rate(ecn, line_bps)
        {
        }
        uint32_t qpn = 0;
        uint32_t dst_host = 0, dst_ip = 0;
        uint16_t udp_src_port = 0;
        bool flows = false;  // closed when its message completes
        uint8_t data_class = 0;
        uint64_t message = 0;        // the message in progress
        bool sent_reported = false;  // its last segment was fetched once (host_dma::message_sent)
        roce_requester req;
        dcqcn_rate rate;
        std::deque<pending_message> waiting;
        bool ready = false;  // in the ready queue
        bool timer_running = false;
        uint32_t timer_gen = 0;
        uint32_t loop_gen = 0;
    };
    struct responder
    {
        responder(uint32_t expected, const roce_ack_policy& p) : rsp(expected, p) {}
        roce_responder rsp;
        uint32_t src_host = 0, src_ip = 0, qpn = 0;
        uint16_t udp_src_port = 0;
    };
    // A segment whose payload is being fetched (its frame built, its bytes reserved).
    struct fetch
    {
        packet* p = nullptr;
        uint32_t qpn = 0;
        uint32_t epoch = 0;
    };
    // A data frame queued to the data ring, in ring order: whose it is when it leaves.
    struct queued_data
    {
        uint32_t qpn = 0;
        uint32_t psn = 0;
    };
    enum class timer_kind : uint8_t { transport, ack_delay, rate_loop };
    struct timer
    {
        uint64_t deadline_ps = 0;
        uint64_t key = 0;  // qpn, or a responder's key
        uint32_t gen = 0;
        timer_kind kind = timer_kind::transport;
        uint64_t deadline() const { return deadline_ps; }
        bool operator>(const timer& o) const { return deadline_ps > o.deadline_ps; }
    };

    // nic_port_client.
    void on_receive(packet* p) override;
    void on_sent(const sent_frame& f) override;
    bool sent_is_silent(const sent_frame& f) const override;
    void on_pool_free(int traffic_class) override;
    void send_connection_message(uint32_t dst_host, uint32_t dst_ip, const cm_fields& m) override;

    // Sending side.
    queue_pair* find_qp(uint32_t qpn);
    void start_message(queue_pair& qp, const pending_message& m);
    void make_ready(queue_pair& qp);
    void kick_generation();
    void generate();
    void on_fetched(const fetch& f);
    void release_stale(const roce_requester::discard& d, int traffic_class);
    void rewind_done(queue_pair& qp, const roce_requester::discard& d);
    void complete(queue_pair& qp);

    // Receiving side.
    static uint64_t responder_key(uint32_t src_host, uint32_t qpn)
    {
        return (uint64_t(src_host) << 32) | qpn;
    }
    void on_data(packet* p);
    void on_acknowledge(packet* p);
    void on_cnp(packet* p);
    void send_ack(const responder& r, bool nak);
    // A Flows queue pair's message is in: its receiving end is released two transport timeouts
    // later, with those whose time has come now.
    void close_responder(uint64_t key);
    packet* make_control(packet_kind kind, uint32_t dst_host, uint32_t dst_ip, uint32_t qpn,
                         uint16_t udp_src_port, uint8_t cls);

    // Timers.
    void arm(const timer& t);
    void start_transport_timer(queue_pair& qp);
    void stop_transport_timer(queue_pair& qp);
    bool timer_live(const timer& t);
    void fire(const timer& t);
    void on_timer();

    roce_transport_counters& sync_counters() const;
    uint64_t now_ps() const { return sim_now_ps(); }

    std::shared_ptr<const roce_nic_config> m_shared_cfg;  // one copy for every NIC alike
    const roce_nic_config& m_cfg;
    double m_line_rate_bps;
    roce_ack_policy m_ack_policy;
    uint64_t m_rto_ps;
    mutable roce_transport_counters m_counters;

    std::unordered_map<uint32_t, std::unique_ptr<queue_pair>> m_qps;
    std::unordered_map<uint64_t, std::unique_ptr<responder>> m_responders;
    // Flows queue pairs' receiving ends whose message is in, oldest first, each released at
    // `release_ps` (TIME_WAIT, docs/roce-nic.md "Releasing receiving ends").
    struct closed_responder
    {
        uint64_t key = 0;
        uint64_t release_ps = 0;
    };
    std::deque<closed_responder> m_closed;
    uint32_t m_flows_qps = 0;  // Flows queue pairs opened so far

    ring<uint32_t> m_ready;  // queue pairs with a segment to generate, in turn
    wakeup m_gen_wake{[this] { generate(); }};
    bool m_gen_pending = false;
    bool m_gen_blocked = false;  // one data class: waiting for its pool to drain to half
    // Several data classes: a class whose pool is full holds back only its own queue pairs.
    uint8_t m_data_classes = 0;     // bit c: a message of class c was started
    uint8_t m_waiting_classes = 0;  // bit c: class c's queue pairs wait for its pool
    std::array<ring<uint32_t>, k_tc_count> m_pool_waiting;
    bool several_data_classes() const { return (m_data_classes & (m_data_classes - 1)) != 0; }
    void resume_class(int traffic_class);
    timed_fifo<fetch> m_fetches;
    // Data frames queued in the port, per traffic class (each class's queue is a FIFO; classes
    // pass one another).
    std::array<ring<queued_data>, k_tc_count> m_queued;

    deadline_heap<timer> m_timers;
    wakeup m_timer_wake{[this] { on_timer(); }};
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
