// The UET NIC: PDS reliable unordered delivery (RUD) with PDCs and PDC groups, the transmit
// scheduler, payload fetch over the host's PCIe lanes, ACK/SACK/NACK handling, per-packet
// retransmission timers, NSCC per group, and two engines with context slots it owns from
// construction: the entropy load balancer (a slot per PDC group) and the SACK tracker (a slot per
// receiving PDC), the C++ models unless the testbench injects others (uet_nic_params).
//
// Cycle-approximate: the transmit stages (tx_stage) and AckBuild are pipeline_stage arithmetic
// with a latency, an initiation interval and an input FIFO in NIC clock cycles (uet_nic_config;
// the receive stages are the port's); the scheduler has an event pending only while it has work.
// This module is the glue between plain classes: pdc_table, pds_scheduler, rx_pdc_table,
// pdc_sender, nscc, entropy_engine, sack_tracker and deadline_lanes of timers. The generic
// port (egress arbitration and pool, receive pipeline, ACK hold, connection frames) is
// host_nic's nic_port; the host side is reached through host_dma.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "hw/common/deadline_lanes.h"
#include "hw/kernel/timed_fifo.h"
#include "hw/common/occupancy_histogram.h"
#include "hw/common/random.h"
#include "hw/common/shared_settings.h"
#include "hw/kernel/sim_clock.h"
#include "hw/common/state_probe.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/wakeup.h"
#include "hw/nic/common/context_cache.h"
#include "hw/nic/common/host_nic.h"
#include "hw/nic/common/read_tag_pool.h"
#include "hw/nic/uet/deferrable_receives.h"
#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/entropy/entropy_engine.h"
#include "hw/nic/uet/job_table.h"
#include "hw/nic/uet/nscc.h"
#include "hw/nic/uet/pdc_table.h"
#include "hw/nic/uet/pds_scheduler.h"
#include "hw/nic/uet/prefetch_buffer.h"
#include "hw/nic/uet/rccc_credit.h"
#include "hw/nic/uet/rccc_pull_pacer.h"
#include "hw/nic/uet/rx_pdc_table.h"
#include "hw/nic/uet/sack_tracker.h"
#include "hw/nic/uet/ses_message_tracker.h"
#include "hw/nic/uet/uet_event_sink.h"
#include "hw/nic/uet/uet_message_table.h"
#include "hw/nic/uet/uet_monitor_sink.h"
#include "hw/nic/uet/uet_nic_config.h"
#include "hw/nic/uet/uet_nic_params.h"
#include "hw/nic/uet/uet_transport_counters.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

// The transmit pipeline's stages, in the order a packet passes them.
enum class tx_stage : int { doorbell, scheduler, payload_fetch, entropy_lookup, header_build };
inline constexpr int k_tx_stages = 5;

// The transport state an architect sizes on-chip storage by (nic-pipeline-stats), kept only
// while the record asks for it (uet_nic::keep_state_stats).
struct uet_state_stats
{
    uint32_t open_tx_pdcs = 0, open_tx_pdcs_max = 0;
    uint32_t open_rx_pdcs_max = 0;
    occupancy_histogram outstanding;  // data packets sent and not yet acknowledged
    occupancy_histogram rtx_queue;    // data packets lost and waiting to be retransmitted
};

class uet_nic : public host_nic, private deferred_owner
{
public:
    // `params` from derive_uet_nic_params (the host link's rate folded in).
    uet_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
            const uet_nic_params& params);
    ~uet_nic() override;

    // A message of `bytes` to `dst_host`; its data packets carry `traffic_class` in their DSCP.
    // A queue pair's messages share one PDC, opened by its first message and kept open for the
    // next (one queue pair, one PDC). A message without a queue pair (Flows) gets a PDC of its
    // own that closes when it completes, as the Chakra workload does.
    // `mode`: ROD keeps one entropy value for the PDC and goes back N on a gap; RUDI sends
    // packet ids answered one by one by RUDI_RESPs, no PDC at the target; UUD is done when its
    // last packet has left (docs/delivery-modes.md).
    void post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                      uint8_t traffic_class, uint32_t queue_pair,
                      delivery_mode mode = delivery_mode::rud) override;

    void work_request_posted() override { ++m_counters.wqes_created; }
    // Jobs (docs/jobs-and-profiles.md): the JobID of the next post_message (a Flows message's),
    // that of the messages of the NIC's workload (the RDMA application's WQEs, the Chakra
    // workload's transfers), the jobs this NIC serves, and the requests it dropped for a job it
    // does not serve.
    void set_next_job(uint32_t job) { m_next_job = job; }
    void set_workload_job(uint32_t job) { m_workload_job = job; }
    const job_table& jobs() const { return m_jobs; }
    uint64_t unknown_job_drops() const { return m_unknown_job_drops; }
    // Deferrable sends (uet_nic_deferrable.cpp).
    void post_deferrable_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip,
                                 uint64_t bytes, uint8_t traffic_class) override;
    void receive_posted(uint32_t src_host, uint64_t message) override;
    const char* kind_name() const override { return "uet"; }
    uint64_t data_packets_sent() const override { return m_counters.write_pkts_sent; }

    void set_monitor(uet_monitor_sink* m)
    {
        m_monitor = m;
        port.observe_transmit(m != nullptr);
    }
    // uet-events: reported only when this NIC's EnableEventLogging is on.
    bool event_logging() const { return m_cfg.enable_event_logging; }
    void set_event_sink(uet_event_sink* s) { m_events = m_cfg.enable_event_logging ? s : nullptr; }
    // net-buff-stats: this NIC's pools take part when its EnableBufferStats is on.
    bool buffer_stats_enabled() const override { return m_cfg.enable_buffer_stats; }
    // The prefetch buffer, or nullptr when PrefetchBufferEnable is off.
    const prefetch_buffer* prefetch() const { return m_prefetch.get(); }
    uet_transport_counters& counters() { return m_counters; }
    const pipeline_stage& stage(tx_stage s) const { return m_tx[int(s)]; }
    const pipeline_stage& ack_build_stage() const { return m_ack_build; }
    const read_tag_pool& read_tags() const { return m_read_tags; }
    // The PDC context cache, or nullptr when every context is on chip (PdcContextCacheEntries 0).
    const context_cache* pdc_contexts() const { return m_contexts.get(); }
    // From now on, keep uet_state_stats (nic-pipeline-stats asks before the run starts).
    void keep_state_stats() { m_state = std::make_unique<uet_state_stats>(); }
    const uet_state_stats* state_stats() const { return m_state.get(); }

    // Read-only state for waveforms.
    const pdc_table& pdcs() const { return m_pdcs; }
    // The transmit-side messages PDCs refer to: bounded by what is in flight (memory tests).
    const uet_message_table& messages() const { return m_messages; }
    // The engines (a group's slot: pdc_group::lb_slot; a receiving end's: sack_slot).
    const entropy_engine& entropy_lb() const { return *m_lb; }
    const sack_tracker& sacks() const { return *m_sack; }
    size_t ready_groups() const { return m_scheduler.ready(); }
    size_t open_rx_pdcs() const { return m_rx_pdcs.size(); }
    size_t timers_pending() const { return m_timers.size(); }
    // RCCC: this NIC's pull pacer (null until a sender asks it for credit) and its credit
    // account for `dst` as a sender (null when it has none).
    const rccc_pull_pacer* pull_pacer() const { return m_pacer.get(); }
    const rccc_credit* credit_to(uint32_t dst) const
    {
        auto it = m_credit.find(dst);
        return it == m_credit.end() ? nullptr : &it->second.credit;
    }
    // Connections the uet-monitor's triggers selected on this NIC's rows (Trace.Trigger).
    uint64_t monitor_triggers() const { return m_monitor_triggers; }
    // Called after each scheduler step, received packet, timer and sent frame (nullptr: not
    // traced).
    void set_probe(state_probe* p) override { m_probe = p; }
    std::string outstanding_connections() const override;

private:
    struct timer
    {
        uint64_t deadline_ps;
        uint16_t pdc;
        uint32_t psn;
        uint8_t tx_count;
        bool failure_detection;
        uint64_t deadline() const { return deadline_ps; }
    };
    // A packet's timers come a fixed time after its serialization ends: one lane per
    // retransmission timeout (by back-off step) and one for failure detection keep each in order.
    static constexpr size_t k_timer_lanes = 4;
    static size_t timer_lane(const timer& t)
    {
        if (t.failure_detection) return k_timer_lanes - 1;
        return std::min<size_t>(t.tx_count > 0 ? t.tx_count - 1 : 0, k_timer_lanes - 2);
    }

    // nic_port_client.
    void on_receive(packet* p) override;
    void on_sent(const sent_frame& f) override;
    bool sent_is_silent(const sent_frame& f) const override;
    void on_pool_free(int traffic_class) override
    {
        pds().pool_freed(traffic_class);
        kick_scheduler();
    }
    void on_transmit(const packet& p) override;
    uint64_t context_ready(const packet& p, uint64_t at_ps) override;

    // PDC contexts in the cache: a sender PDC (by its id) or a receiver PDC (by the sending
    // host and its PDC id), one key space.
    static uint64_t tx_context(uint16_t pdc) { return (uint64_t(1) << 40) | pdc; }
    static uint64_t rx_context(uint32_t src_host, uint16_t spdcid)
    {
        return (uint64_t(2) << 40) | (uint64_t(src_host) << 16) | spdcid;
    }
    // The context `key` is needed from `at_ps`: when it is on chip. A miss reads it from host
    // memory with a read tag and writes back the context it evicts.
    uint64_t context_access(uint64_t key, uint64_t at_ps);

    // Transmit side.
    void schedule();
    void send_data(pdc_group& g, sender_pdc& p, sent_packet* rtx, uint32_t payload);
    // A data packet of `p` for `sp`, its headers but the entropy value filled in.
    packet* data_packet(sender_pdc& p, const sent_packet& sp, const uet_message& m, bool is_rtx);
    // With the prefetch buffer: the fetch of `p`'s next segment into it, the arrival of `p`'s
    // oldest payload in flight over PCIe, and a packet's commit to the wire (the oldest fetched
    // payload of `p`, or its oldest retransmission with `rtx`).
    void prefetch_fetch(pdc_group& g, sender_pdc& p, uint32_t payload);
    void prefetch_arrived(uint16_t pdc);
    void commit_data(pdc_group& g, sender_pdc& p, bool rtx);
    void kick_scheduler(const sc_core::sc_time& after = sc_core::SC_ZERO_TIME);
    // kick_scheduler() as the last thing a step does (nothing the run reads changes after it
    // in this step): a run that would find nothing to send is held back.
    void kick_scheduler_or_hold();
    // The scheduler's run at `at_ps` would find no group that may send: held back, not queued
    // (docs/performance.md, "Held-back idle passes").
    bool may_hold_idle_pass(uint64_t at_ps);
    void hold_idle_pass(uint64_t at_ps);
    // Before anything the run could see changes: the held-back pass is done if its time came,
    // else it runs (queued at its time and place).
    void settle_idle_pass()
    {
        if (__builtin_expect(m_idle_pass_held, 0)) settle_idle_pass_held();
    }
    void settle_idle_pass_held();
    bool settle_before(uint64_t at_ps, uint64_t key) override;
    void end_idle_pass();
    // The transmit scheduler, a held-back pass settled first.
    pds_scheduler& pds()
    {
        settle_idle_pass();
        return m_scheduler;
    }
    // EntropyLookup then HeaderBuild from `to_entropy`: the engine's value goes into the packet
    // and its record; returns when the header is built.
    // The packet's entropy value: the engine's, or ROD's one value per PDC (one path, no
    // spraying: the None policy's value of the PDC).
    entropy_answer entropy_for(pdc_group& g, const sender_pdc& p)
    {
        if (__builtin_expect(p.mode == delivery_mode::rod, 0)) return {none_port(p.id), now_ps()};
        return m_lb->next(g.lb_slot, now_ps());
    }
    // ROD: a loss of `psn` (trim NACK, ROD_OOO NACK, or `timeout`) sends every packet from it on
    // again, in order; false when a loss already did (its packet is not in flight).
    bool rod_go_back(sender_pdc& pdc, uint32_t psn, bool timeout);
    // ROD receiving end: whether packet `p` is delivered (in order, or a duplicate to ACK); one
    // past a gap is dropped here, and the gap's first such packet draws a ROD_OOO NACK.
    bool rod_accept(receiver_pdc& rp, packet* p);
    // RUDI and UUD (uet_nic_modes.cpp). Receiving end: a request that has no PDC here, placed
    // through the SES message tracker; RUDI's answered by a RUDI_RESP (a trimmed one by a RUDI
    // NACK), UUD's by nothing. Sending end: a UUD packet has left (serialization ended): it is
    // done, as is its message with its last packet. A data packet's PDS request is smaller than
    // RUD's by `saving` bytes (RUDI 8, UUD 12).
    void on_request_without_pdc(packet* p);
    void uud_sent(sender_pdc& pdc, uint32_t psn);
    static uint32_t saving(const sender_pdc& p)
    {
        return wire::pds_request_saving(uint8_t(p.mode));
    }
    uint64_t lookup_and_build(uint64_t to_entropy, const entropy_answer& entropy, pdc_group& g,
                              sent_packet& sp, packet& pk);
    void ring_doorbell();

    // The initiator's completion of `pdc`'s message `m`: counted, the PDC closed (through
    // CLOSE_CMD with `handshake`), the host told, the group given back to the scheduler.
    void complete_message(sender_pdc& pdc, uet_message& m, bool handshake);

    // Receive side.
    void on_data(packet* p);
    void on_probe(packet* p);
    void on_ack(packet* p);
    void on_nack(packet* p);
    // An ACK, NACK or probe answer through the AckBuild stage from now: when it is built.
    uint64_t build_ack();

    // Deferrable sends (uet_nic_deferrable.cpp). Sending end: the target deferred the message
    // on `pdc`; the target's RTR for `message` arrived; the restarted transfer begins once both
    // the RTR is in and the first transfer's packets are all acknowledged.
    void deferred_by_target(sender_pdc& pdc, uet_message& m);
    void rtr_arrived(uint64_t message);
    void resume_if_ready(sender_pdc& pdc, uet_message& m);

    // RCCC (uet_nic_rccc.cpp). Sending end: the account for `dst`, a packet's credit spent and
    // its target stamped, credit arriving, CREDIT_REQ and its watchdog.
    struct credit_account
    {
        rccc_credit credit;
        uint32_t dst_ip = 0;
        uint64_t cap_bytes = 0;    // the demand the target counts at most: window + a packet
        uint64_t progress_ps = 0;  // the last credit arrival or CREDIT_REQ
    };
    credit_account& account(uint32_t dst, uint32_t dst_ip);
    void spend_credit(pdc_group& g, packet& pk);
    void credit_arrived(uint32_t src, uint32_t credit24);
    void ask_for_credit();  // the groups the scheduler found without credit
    void send_credit_request(uint32_t dst, credit_account& a);
    void credit_watchdog();
    // Receiving end: a sender's target, the pacer's pulls, a CREDIT to a sender.
    rccc_pull_pacer& pacer();
    void credit_target_seen(const packet& p);
    void on_control(packet* p);
    void pull();
    void send_credit(uint32_t dst, uint32_t credit24);

    // The close handshake (uet_nic_close.cpp; UetNic.PdcIdleCloseTimeout above 0). Sending end:
    // a message complete on `pdc` (close now, or wait the idle time), the close begun (CLOSE_CMD),
    // its ACK, a CLOSE_REQ, the idle and retransmission timers. Receiving end: CLOSE_CMD, the
    // NACKs of a data packet without an end to take it, and CLOSE_REQ for an idle end.
    struct close_timer
    {
        uint16_t pdc;
        uint32_t first_psn;  // tells a reused id from the PDC that armed it
        uint32_t gen;        // the PDC's close_gen when armed
        uint8_t close_tx;    // 0: the idle timer; else the CLOSE_CMD transmission it retries
    };
    bool close_handshake() const { return m_cfg.pdc_idle_close_timeout_s > 0; }
    void message_done_on(sender_pdc& pdc);
    void begin_close(sender_pdc& pdc);
    void send_close_command(sender_pdc& pdc);
    void close_acked(const packet& p);
    void on_close_request(const packet& p);
    void arm_close(uint64_t at_ps, const close_timer& t);
    void on_close_timer();
    void on_close_command(const packet& p);
    // A data packet `p` with no receiving end: NO_PDC_AVAIL (`no_context`) or INV_DPDCID.
    void nack_without_end(const packet& p, rx_end why);
    void lifecycle_nack_received(const packet& p, sender_pdc* live);
    void lifecycle_event(uet_event::type t, uint16_t local, uint32_t remote_ip, uint16_t remote);

    // Timers.
    void arm(const timer& t);
    void on_timer();
    bool timer_live(const timer& t);

    uint32_t group_for(uint32_t dst, uint16_t creator_pdc);
    packet* make_control(packet_kind kind, uint32_t dst_host, uint32_t dst_ip);
    // uet-events rows: of a sender PDC (at `at_ps`, else now), of a receiver PDC from packet `p`.
    void event(uet_event::type t, const sender_pdc& pdc, const uet_message* m = nullptr,
               uint64_t at_ps = 0);
    void event(uet_event::type t, const receiver_pdc& rp, const packet& p);
    void receive_events(receiver_pdc& rp, const packet& p, bool duplicate, uint32_t cack);
    // Every slot of an engine is in use: stops the run with the message naming `key`.
    [[noreturn]] void out_of_contexts(const char* key, uint32_t value, const char* what) const;
    // `rx_pdc`: the receiving end's own id, for a data packet that does not carry it yet.
    void monitor(const packet& p, uet_monitor_row::dir d, const sender_pdc* sp = nullptr,
                 const pdc_group* g = nullptr, double rtt_ns = -1, uint16_t rx_pdc = 0);
    double now_s() const { return sim_now().to_seconds(); }
    uint64_t now_ps() const { return sim_now_ps(); }

    // One copy of each for every NIC configured alike (shared_settings.h).
    std::shared_ptr<const uet_nic_settings> m_shared_cfg;
    std::shared_ptr<const nscc_config> m_shared_cc_cfg;
    std::shared_ptr<const entropy_config> m_shared_lb_cfg;
    const uet_nic_settings& m_cfg;
    const nscc_config& m_cc_cfg;
    const entropy_config& m_lb_cfg;
    random_stream m_rng;
    sc_core::sc_time m_cycle;
    read_tag_pool m_read_tags;
    std::unique_ptr<context_cache> m_contexts;  // null: every context on chip
    std::unique_ptr<uet_state_stats> m_state;   // null: not kept

    // Before the tables that hold their slots.
    std::unique_ptr<entropy_engine> m_lb;
    std::unique_ptr<sack_tracker> m_sack;
    // Before the scheduler that reads it; null (and no arrival line) when it is off.
    std::unique_ptr<prefetch_buffer> m_prefetch;
    std::unique_ptr<timed_fifo<uint16_t>> m_prefetch_arrivals;  // PDC ids, as payloads arrive
    uint64_t m_last_commit_ps = 0;  // data frames enter the port in order of their readiness

    uet_message_table m_messages;  // the messages PDCs refer to, by slot
    pdc_table m_pdcs;
    uint64_t m_groups_created = 0;  // seeds each group's entropy generator
    pds_scheduler m_scheduler;
    rx_pdc_table m_rx_pdcs;  // holds *m_sack's slots

    pipeline_stage m_tx[k_tx_stages];
    pipeline_stage m_ack_build;

    wakeup m_schedule_wake{[this] { schedule(); }};
    bool m_schedule_pending = false;
    bool m_idle_pass_held = false;  // m_schedule_wake is held back (a pass finding nothing)
    bool m_owed = false;            // listed with the model scheduler for it

    deadline_lanes<timer, k_timer_lanes> m_timers;
    wakeup m_timer_wake{[this] { on_timer(); }};

    std::map<uint32_t, credit_account> m_credit;  // by destination host (RCCC sending end)
    std::unique_ptr<rccc_pull_pacer> m_pacer;     // RCCC receiving end
    double m_pull_rate_bps = 0;                   // RcccPullRate, or the link's rate
    std::map<uint32_t, uint32_t> m_sender_ip;     // a credit-asking sender's address
    wakeup m_pull_wake{[this] { pull(); }};
    bool m_pull_pending = false;
    wakeup m_credit_watch{[this] { credit_watchdog(); }};
    bool m_credit_watch_pending = false;

    std::multimap<uint64_t, close_timer> m_close_timers;  // by deadline
    wakeup m_close_wake{[this] { on_close_timer(); }};

    // Deferrable sends: the opcode of the next post_message, the sending end's deferred
    // messages (message id -> PDC id) and RTRs that came before their deferral was known, and
    // the receiving end's table.
    uint8_t m_next_opcode = 0;
    // Jobs: the next post_message's JobID (-1: the workload's), the workload's, the table.
    int64_t m_next_job = -1;
    uint32_t m_workload_job = 0;
    job_table m_jobs;
    uint64_t m_unknown_job_drops = 0;
    std::unordered_map<uint64_t, uint16_t> m_deferred_sends;
    std::unordered_map<uint64_t, bool> m_early_rtrs;
    deferrable_receives m_deferrable;
    ses_message_tracker m_ses_rx;  // RUDI and UUD messages arriving (no PDC at the target)

    uet_transport_counters m_counters;
    uet_monitor_sink* m_monitor = nullptr;
    uint64_t m_monitor_triggers = 0;
    uet_event_sink* m_events = nullptr;
    state_probe* m_probe = nullptr;
    std::vector<sent_packet*> m_retired;  // scratch
};

}  // namespace uetsim
