#include "hw/nic/uet/uet_nic.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/nic/uet/entropy/entropy_random.h"
#include "hw/nic/uet/retransmit_timeout.h"
#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

nic_port_config port_config(const nic_context& ctx, const uet_nic_config& cfg)
{
    nic_port_config c;
    c.host = ctx.host;
    c.ip = ctx.ip;
    c.control_traffic_class = cfg.control_traffic_class;
    c.egress = cfg.egress;
    c.ingress = cfg.ingress;
    for (int t = 0; t < 8; ++t)
        c.ingress.pfc_enable[size_t(t)] = cfg.pfc_enable_vector[size_t(t)] == 1;
    // QuantaValue for the classes with a receive pool (the others keep PFC's 65,535).
    for (int t = 0; t < cfg.ingress.classes(); ++t)
        c.pfc.quanta[size_t(t)] = cfg.ingress.quanta[size_t(t)];
    c.rx_stages[int(rx_stage::rx_parse)] = cfg.rx_parse;
    c.rx_stages[int(rx_stage::pdc_lookup)] = cfg.pdc_lookup;
    c.rx_stages[int(rx_stage::sack_update)] = cfg.sack_update;
    c.rx_stages[int(rx_stage::host_write)] = cfg.host_write;
    c.cycle_ps = seconds(cfg.cycle_s()).value();
    c.pdc_context_lookup = cfg.pdc_context_cache_entries > 0;
    c.pfc.ip = ctx.ip;
    c.pfc.frame_bytes = wire::pfc_uet_bytes;  // UET NIC transport page
    return c;
}

// The NIC's engines: the testbench's, else the C++ models.
nic_engine_context engine_context(const std::string& nic, uint32_t contexts,
                                  const uet_nic_config& cfg)
{
    return {nic, contexts, uint64_t(seconds(cfg.cycle_s()).value())};
}
std::unique_ptr<entropy_engine> make_lb(const uet_nic_params& p, const std::string& nic)
{
    if (!p.make_entropy_engine) return std::make_unique<entropy_engine>(p.uet.entropy_contexts);
    auto e = p.make_entropy_engine(engine_context(nic, p.uet.entropy_contexts, p.uet));
    if (!e) throw std::logic_error(nic + ": the entropy engine factory gave none");
    return e;
}
std::unique_ptr<prefetch_buffer> make_prefetch(const uet_nic_config& cfg, const std::string& nic)
{
    if (!cfg.prefetch_buffer_enable) return nullptr;
    const std::string e =
        prefetch_buffer_error(true, cfg.prefetch_buffer_size, cfg.rdma_data_mss, "UetNic.");
    if (!e.empty()) throw std::invalid_argument(nic + ": " + e);
    return std::make_unique<prefetch_buffer>(cfg.prefetch_buffer_size);
}
std::unique_ptr<sack_tracker> make_sacks(const uet_nic_params& p, const std::string& nic)
{
    if (!p.make_sack_tracker) return std::make_unique<sack_tracker>(p.uet.sack_contexts);
    auto t = p.make_sack_tracker(engine_context(nic, p.uet.sack_contexts, p.uet));
    if (!t) throw std::logic_error(nic + ": the SACK tracker factory gave none");
    return t;
}

}  // namespace

uet_nic::uet_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
                 const uet_nic_params& params)
    : host_nic(name, ctx, port_config(ctx, params.uet))
    , m_shared_cfg(share_settings<uet_nic_settings>(params.uet))
    , m_shared_cc_cfg(share_settings(params.nscc))
    , m_shared_lb_cfg(share_settings(params.entropy))
    , m_cfg(*m_shared_cfg)
    , m_cc_cfg(*m_shared_cc_cfg)
    , m_lb_cfg(*m_shared_lb_cfg)
    , m_rng(ctx.random_seed, std::string(basename()) + ".psn")
    , m_cycle(seconds(params.uet.cycle_s()))
    , m_read_tags(params.uet.max_outstanding_reads)
    , m_lb(make_lb(params, sc_object::name()))
    , m_sack(make_sacks(params, sc_object::name()))
    , m_prefetch(make_prefetch(params.uet, sc_object::name()))
    , m_pdcs(params.uet.pdc_groups_enabled)
    , m_scheduler(m_pdcs, m_messages, params.uet.rdma_data_mss, wire::uet_data_overhead,
                  params.uet.nominal_bytes(0), m_prefetch.get())
    , m_rx_pdcs(*m_sack)
    , m_pull_rate_bps(params.uet.rccc.pull_rate_bps > 0 ? params.uet.rccc.pull_rate_bps
                                                        : params.nscc.link_rate_bps)
{
    const uint64_t cycle = uint64_t(m_cycle.value());
    m_tx[int(tx_stage::doorbell)] = pipeline_stage(m_cfg.doorbell, cycle);
    m_tx[int(tx_stage::scheduler)] = pipeline_stage(m_cfg.scheduler, cycle);
    m_tx[int(tx_stage::payload_fetch)] = pipeline_stage(m_cfg.payload_fetch, cycle);
    m_tx[int(tx_stage::entropy_lookup)] = pipeline_stage(m_cfg.entropy_lookup, cycle);
    m_tx[int(tx_stage::header_build)] = pipeline_stage(m_cfg.header_build, cycle);
    m_ack_build = pipeline_stage(m_cfg.ack_build, cycle);
    const std::vector<double>& jobs = params.uet.job_table;
    if (!jobs.empty()) m_jobs = job_table(std::vector<uint32_t>(jobs.begin(), jobs.end()));
    if (m_cfg.pdc_context_cache_entries)
        m_contexts = std::make_unique<context_cache>(m_cfg.pdc_context_cache_entries);
    if (m_prefetch)
        m_prefetch_arrivals = std::make_unique<timed_fifo<uint16_t>>(
            "prefetch_arrivals", [this](uint16_t pdc) { prefetch_arrived(pdc); });
    if (close_handshake()) m_rx_pdcs.closes_by_handshake();
}

// ---------------------------------------------------------------------------------------------
// Host side

void uet_nic::post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                           uint8_t traffic_class, uint32_t queue_pair, delivery_mode mode)
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    uet_message m;
    m.id = message;
    m.dst = dst_host;
    m.bytes = bytes;
    m.traffic_class = traffic_class;
    m.opcode = m_next_opcode;
    m_next_opcode = 0;
    m.job = m_next_job >= 0 ? uint32_t(m_next_job) : m_workload_job;
    m_next_job = -1;
    m.mode = mode;
    pds().data_class_used(traffic_class);
    m.packets = uint32_t(wire::packets_for(bytes, m_cfg.rdma_data_mss));
    const uint64_t slot = m_messages.add(m);
    // RCCC: the message's frames wait for its destination's credit.
    if (m_cfg.rccc.enabled)
        account(dst_host, dst_ip)
            .credit.add_demand(bytes + uint64_t(m.packets) * wire::uet_data_overhead);
    if (queue_pair == k_no_queue_pair) ++m_counters.wqes_created;  // a doorbell counts the others

    if (queue_pair != k_no_queue_pair)
        if (sender_pdc* p = m_pdcs.of_queue_pair(queue_pair)) {
            // The queue pair's PDC carries on: its PSNs, its receiver and its group go on. Its
            // previous message is complete (one WQE at a time per queue pair): its slot is free.
            if (!m_messages[p->message].done)
                throw std::logic_error(std::string(name()) + ": a message on queue pair " +
                                       std::to_string(queue_pair) +
                                       " before its previous one completed");
            m_messages.release(p->message);
            p->message = slot;
            ++p->close_gen;  // not idle: its idle timer, if any, is stale
            if (m_events) event(uet_event::type::wqe_created, *p, &m_messages[slot]);
            pds().enqueue(p->group, false);
            ring_doorbell();
            return;
        }

    const uint16_t id = m_pdcs.allocate_id();
    if (id == 0) throw std::runtime_error(std::string(name()) + ": more than 32,767 open PDCs");
    // A random first PSN: PSN wrap is exercised in real runs.
    const uint32_t first_psn = uint32_t(m_rng.next());
    sender_pdc& p = m_pdcs.open(id, dst_host, dst_ip, first_psn, slot);
    p.mode = mode;
    p.group = group_for(dst_host, id);
    if (queue_pair != k_no_queue_pair) m_pdcs.bind_queue_pair(queue_pair, p);
    m_pdcs.join_group(p);
    if (m_state) {
        ++m_state->open_tx_pdcs;
        m_state->open_tx_pdcs_max = std::max(m_state->open_tx_pdcs_max, m_state->open_tx_pdcs);
    }
    if (m_events) {
        event(uet_event::type::pdc_created, p);
        event(uet_event::type::wqe_created, p, &m_messages[slot]);
    }
    pds().enqueue(p.group, false);
    ring_doorbell();
}

void uet_nic::ring_doorbell()
{
    // The Doorbell stage: its exit wakes the scheduler (if it is not awake earlier).
    pipeline_stage& db = m_tx[int(tx_stage::doorbell)];
    const uint64_t now = now_ps();
    const stage_pass d = db.enter(db.room_at(now));
    db.leave(d, d.done);
    kick_scheduler(picoseconds(d.done - now));
}

uint32_t uet_nic::group_for(uint32_t dst, uint16_t creator_pdc)
{
    bool created = false;
    const uint32_t g = m_pdcs.group_for(dst, created);
    if (created) {
        pdc_group& grp = m_pdcs.group(g);
        grp.cc = std::make_unique<nscc>(m_cc_cfg);
        auto acc = m_credit.find(dst);
        grp.credit = acc == m_credit.end() ? nullptr : &acc->second.credit;
        entropy_config lb = m_lb_cfg;
        // The None policy's fixed value: the local UDP port of the PDC that creates the group.
        lb.local_udp_port = none_port(creator_pdc);
        const std::optional<uint32_t> slot =
            m_lb->open(lb, entropy_seed(m_seed, name(), m_groups_created++));
        if (!slot) out_of_contexts("UetNic.EntropyContexts", m_lb->contexts(), "PDC group");
        grp.lb_slot = *slot;
    }
    return g;
}

void uet_nic::out_of_contexts(const char* key, uint32_t value, const char* what) const
{
    // A run-time error like the other capacity limits of the NIC (its 32,767 PDC ids): the run
    // stops with this message and the simulated time (exit code 1). How many slots a NIC needs
    // depends on the traffic's timing, so no check can find it before the run.
    throw std::runtime_error(std::string(name()) + ": " + key + " " + std::to_string(value) +
                             " is too small: a new " + what +
                             " needs a context slot and all are in use; raise " + key +
                             " (1 to 65536) for this NIC");
}

// ---------------------------------------------------------------------------------------------
// Transmit scheduler

void uet_nic::kick_scheduler(const sc_core::sc_time& after)
{
    settle_idle_pass();
    if (m_schedule_pending) return;
    m_schedule_pending = true;
    m_schedule_wake.notify(after);
}

void uet_nic::schedule()
{
    activity::tick();
    m_schedule_pending = false;
    if (m_contexts) {
        // A pick still waiting for its PDC context holds the Scheduler stage: a wake-up from an
        // ACK meanwhile comes back when the stage is free.
        const uint64_t free = m_tx[int(tx_stage::scheduler)].next_free_ps();
        if (free > now_ps()) {
            kick_scheduler(picoseconds(free - now_ps()));
            return;
        }
    }
    const pds_decision d = pds().decide(port.egress_pools());
    if (__builtin_expect(!pds().credit_blocked_groups().empty(), 0)) ask_for_credit();
    // Several data classes: groups whose class's pool is full wait apart until it drains.
    if (uint8_t w = pds().take_new_pool_waits(); __builtin_expect(w != 0, 0))
        for (int c = 0; c < k_tc_count; ++c)
            if ((w >> c) & 1u) port.block_on_pool(c);
    if (d.what == pds_decision::kind::idle) return;
    if (d.what == pds_decision::kind::blocked_on_pool) {
        // The group stays at the head until its class's pool drains to half.
        port.block_on_pool(d.traffic_class);
        return;
    }
    pdc_group& g = m_pdcs.group(d.group);
    if (!m_prefetch)
        send_data(g, *d.pdc, d.retransmission, d.payload);
    else if (d.what == pds_decision::kind::fetch)
        prefetch_fetch(g, *d.pdc, d.payload);
    else
        commit_data(g, *d.pdc, d.retransmission != nullptr);
    pds().sent(d.group);
    // The Scheduler stage's interval (and any stall from a full PayloadFetch FIFO) paces it.
    if (!pds().empty()) {
        const uint64_t at = m_tx[int(tx_stage::scheduler)].next_free_ps();
        if (!m_schedule_pending && may_hold_idle_pass(at))  // not woken meanwhile
            hold_idle_pass(at);
        else
            kick_scheduler(picoseconds(at - now_ps()));
    }
    if (m_probe) m_probe->changed();
}

void uet_nic::send_data(pdc_group& g, sender_pdc& p, sent_packet* rtx, uint32_t payload)
{
    const bool is_rtx = rtx != nullptr;
    sent_packet* sp;
    uet_message& m = m_messages[p.message];
    if (is_rtx) {
        sp = p.st.take_retransmission();
        ++m_counters.num_rtx;
        if (m_state) m_state->rtx_queue.add(now_ps(), -1);
    } else {
        const bool last = m.packets_issued + 1 == m.packets;
        sp = &p.st.assign(p.message, m.next_offset, payload,
                          m_cfg.nominal_bytes(payload) - saving(p), last);
        m.next_offset += payload;
        ++m.packets_issued;
        m_counters.cwnd_bytes.add(g.cc->cwnd_bytes());
        if (m_state) m_state->outstanding.add(now_ps(), +1);
    }
    ++sp->tx_count;
    m_counters.max_tx_count = std::max<uint64_t>(m_counters.max_tx_count, sp->tx_count);
    m_counters.ivl_max_tx_count = std::max<uint64_t>(m_counters.ivl_max_tx_count, sp->tx_count);
    // Split phase: the value is asked for at the pick; it is written into the packet and its
    // record when the EntropyLookup stage completes (below).
    const entropy_answer entropy = entropy_for(g, p);
    sp->in_flight = true;
    g.inflight += sp->nominal;
    m_counters.bytes_in_flight.add(double(g.inflight));

    packet* pk = data_packet(p, *sp, m, is_rtx);

    ++m_counters.write_pkts_sent;
    ++m_counters.total_pkts_sent;

    // The packet's way through the transmit stages from the scheduler's pick now: each stage
    // hands it on when the next one's FIFO has room. Payload fetch: a read request on the
    // NIC-to-host lanes, then the completion on the host-to-NIC lanes. A retransmission is
    // rebuilt from its recorded size: no fetch.
    const uint64_t now = now_ps();
    pipeline_stage& sched = m_tx[int(tx_stage::scheduler)];
    pipeline_stage& fetch = m_tx[int(tx_stage::payload_fetch)];
    stage_pass s = sched.enter_now(now);
    // The pick reads the PDC's state and its group's (window, bytes in flight): one context.
    if (m_contexts) sched.wait_in_service(s, context_access(tx_context(p.id), s.start));
    const uint64_t to_fetch = fetch.room_at(s.done);
    sched.leave(s, to_fetch);
    // A fetch also waits for a free read tag, held until its completion returns.
    uint64_t tag_free = 0;
    const uint32_t tag = is_rtx ? 0 : m_read_tags.earliest(tag_free);
    stage_pass f = fetch.enter(to_fetch, tag_free);
    if (!is_rtx) {
        g.fetched += payload;
        g.fetched_unacked += sp->nominal;
        const uint64_t arrived = m_dma.fetch_payload(f.start, payload);
        m_read_tags.hold(tag, f.start, arrived);
        f.done = std::max(f.done, arrived);
        // The fetch of the message's last segment is issued at f.start.
        if (sp->last) {
            m_dma.message_sent(m.id, f.start);
            if (m_events) event(uet_event::type::send_complete, p, &m, f.start);
        }
    }
    pipeline_stage& lookup = m_tx[int(tx_stage::entropy_lookup)];
    const uint64_t to_entropy = lookup.room_at(f.done);
    fetch.leave(f, to_entropy);
    const uint64_t built = lookup_and_build(to_entropy, entropy, g, *sp, *pk);
    port.push_data(pk, std::max(built, now_ps()));
}

uint64_t uet_nic::lookup_and_build(uint64_t to_entropy, const entropy_answer& entropy, pdc_group& g,
                                   sent_packet& sp, packet& pk)
{
    pipeline_stage& lookup = m_tx[int(tx_stage::entropy_lookup)];
    pipeline_stage& header = m_tx[int(tx_stage::header_build)];
    const stage_pass e = lookup.enter(to_entropy);
    const uint64_t to_header = header.room_at(e.done);
    lookup.leave(e, to_header);
    // The EntropyLookup stage completes at e.done: the engine's answer must be ready by then.
    // An invariant: the stage's cycles are at least the engine's latency (the scenario refuses
    // less for an RTL engine, and auto is its latency), and the question is asked at the pick,
    // no later than the stage starts. Only an engine injected past those checks can break it.
    if (entropy.ready_ps > e.done)
        throw std::runtime_error(
            std::string(name()) + ": the entropy engine answered at " +
            std::to_string(entropy.ready_ps) + " ps, after the EntropyLookup stage completed at " +
            std::to_string(e.done) + " ps; raise UetNic.EntropyLookupCycles (now " +
            std::to_string(m_cfg.entropy_lookup.cycles) + ") to the engine's latency at least");
    sp.entropy = entropy.value;
    g.last_entropy = entropy.value;
    pk.udp.src_port = entropy.value;
    const stage_pass h = header.enter(to_header);
    header.leave(h, h.done);
    return h.done;
}

packet* uet_nic::data_packet(sender_pdc& p, const sent_packet& sp, const uet_message& m,
                             bool is_rtx)
{
    packet* pk = m_pool.acquire();
    pk->kind = packet_kind::uet_data;
    pk->src_node = uint16_t(m_host);
    pk->dst_node = uint16_t(p.dst);
    pk->payload_bytes = sp.payload;
    pk->wire_bytes = wire_size(packet_kind::uet_data, sp.payload) - saving(p);
    pk->ip.src = m_ip;
    pk->ip.dst = p.dst_ip;
    const dscp::role role = is_rtx && m_cfg.use_distinct_dscp_for_retransmits
                                ? dscp::role::trimmable_rtx
                            : m_cfg.trimming_enabled ? dscp::role::trimmable
                                                     : dscp::role::no_trim;
    pk->ip.dscp = dscp::make(m.traffic_class, role);
    pk->ip.ecn = ecn::ect1;
    pk->udp.dst_port = wire::uet_udp_port;
    pk->pds.type = uint8_t(p.mode);
    pk->pds.psn = sp.psn;
    pk->pds.spdcid = p.id;
    pk->pds.dpdcid = p.remote_id;
    pk->pds.syn = p.remote_id == 0;
    pk->pds.first_psn = p.first_psn;
    pk->pds.retransmit = is_rtx;
    ++p.ar_count;
    const uint64_t n = m_cfg.ack_request_every_nth_packet;
    bool ar = m_cfg.ack_request_first_packet ? (p.ar_count - 1) % n == 0 : p.ar_count % n == 0;
    if (sp.last && m_cfg.ack_request_last_packet) ar = true;
    pk->pds.ack_request = ar;
    pk->ses.message_id = m.id;
    pk->ses.offset = sp.offset;
    pk->ses.message_bytes = m.bytes;
    pk->ses.last = sp.last;
    pk->ses.opcode = m.opcode;
    pk->ses.job_id = m.job;
    pk->ses.restart = m.resumed;
    pk->flow_id = uint32_t(m.id);
    if (pdc_group& g = m_pdcs.group(p.group); g.credit) spend_credit(g, *pk);
    return pk;
}

// ---------------------------------------------------------------------------------------------
// Prefetch buffer (PrefetchBufferEnable): fetch ahead, commit when the window and pool allow

void uet_nic::prefetch_fetch(pdc_group& g, sender_pdc& p, uint32_t payload)
{
    // The segment takes its PSN now, and its wire size in the prefetch buffer; it is neither in
    // flight nor in the egress pool until its commit.
    uet_message& m = m_messages[p.message];
    const bool last = m.packets_issued + 1 == m.packets;
    sent_packet& sp = p.st.assign(p.message, m.next_offset, payload,
                                  m_cfg.nominal_bytes(payload) - saving(p), last);
    m.next_offset += payload;
    ++m.packets_issued;
    m_prefetch->issue(p.prefetch, sp.psn, wire_size(packet_kind::uet_data, payload) - saving(p));

    // Scheduler, then PayloadFetch with a read tag, as without the buffer; the payload is in the
    // buffer when its completion has returned.
    const uint64_t now = now_ps();
    pipeline_stage& sched = m_tx[int(tx_stage::scheduler)];
    pipeline_stage& fetch = m_tx[int(tx_stage::payload_fetch)];
    stage_pass s = sched.enter_now(now);
    if (m_contexts) sched.wait_in_service(s, context_access(tx_context(p.id), s.start));
    const uint64_t to_fetch = fetch.room_at(s.done);
    sched.leave(s, to_fetch);
    uint64_t tag_free = 0;
    const uint32_t tag = m_read_tags.earliest(tag_free);
    stage_pass f = fetch.enter(to_fetch, tag_free);
    g.fetched += payload;
    g.fetched_unacked += sp.nominal;
    const uint64_t arrived = m_dma.fetch_payload(f.start, payload);
    m_read_tags.hold(tag, f.start, arrived);
    f.done = std::max(f.done, arrived);
    if (sp.last) {
        m_dma.message_sent(m.id, f.start);
        if (m_events) event(uet_event::type::send_complete, p, &m, f.start);
    }
    fetch.leave(f, f.done);
    // Completions return in the order the reads were sent.
    m_prefetch_arrivals->push(p.id, std::max(f.done, m_prefetch_arrivals->last_due_ps()));
}

void uet_nic::prefetch_arrived(uint16_t pdc)
{
    sender_pdc& p = m_pdcs.at(pdc);
    m_prefetch->arrive(p.prefetch);
    // A payload arriving in the prefetch buffer brings the group back at the tail.
    pds().enqueue(p.group, false);
    kick_scheduler();
    if (m_probe) m_probe->changed();
}

void uet_nic::commit_data(pdc_group& g, sender_pdc& p, bool rtx)
{
    sent_packet* sp;
    bool restart = false;
    if (rtx) {
        sp = p.st.take_retransmission();
        ++m_counters.num_rtx;
        if (m_state) m_state->rtx_queue.add(now_ps(), -1);
    } else {
        // The window was checked for it in flight; its prefetch space is released now.
        sp = p.st.find(m_prefetch->commit(p.prefetch, restart).psn);
        m_counters.cwnd_bytes.add(g.cc->cwnd_bytes());
        if (m_state) m_state->outstanding.add(now_ps(), +1);
    }
    const uet_message& m = m_messages[sp->message];
    ++sp->tx_count;
    m_counters.max_tx_count = std::max<uint64_t>(m_counters.max_tx_count, sp->tx_count);
    m_counters.ivl_max_tx_count = std::max<uint64_t>(m_counters.ivl_max_tx_count, sp->tx_count);
    const entropy_answer entropy = entropy_for(g, p);
    sp->in_flight = true;
    g.inflight += sp->nominal;
    m_counters.bytes_in_flight.add(double(g.inflight));
    packet* pk = data_packet(p, *sp, m, rtx);
    ++m_counters.write_pkts_sent;
    ++m_counters.total_pkts_sent;

    // Scheduler, EntropyLookup, HeaderBuild: the payload is on chip already.
    const uint64_t now = now_ps();
    pipeline_stage& sched = m_tx[int(tx_stage::scheduler)];
    pipeline_stage& lookup = m_tx[int(tx_stage::entropy_lookup)];
    stage_pass s = sched.enter_now(now);
    if (m_contexts) sched.wait_in_service(s, context_access(tx_context(p.id), s.start));
    const uint64_t to_entropy = lookup.room_at(s.done);
    sched.leave(s, to_entropy);
    const uint64_t built = lookup_and_build(to_entropy, entropy, g, *sp, *pk);
    // The egress pool is charged now, at the commit.
    m_last_commit_ps = std::max({built, m_last_commit_ps, now});
    port.push_data(pk, m_last_commit_ps);
    if (restart) pds().prefetch_room_freed();  // the buffer drained to half
}

uint64_t uet_nic::context_access(uint64_t key, uint64_t at_ps)
{
    const context_cache::result r = m_contexts->access(key);
    if (r.hit) return at_ps;
    // The read waits for a read tag like a payload fetch and holds it until the context is in;
    // the evicted context is written back behind the read request (posted: nothing waits).
    uint64_t tag_free = 0;
    const uint32_t tag = m_read_tags.earliest(tag_free);
    const uint64_t start = std::max(at_ps, tag_free);
    const uint64_t arrived = m_dma.fetch_context(start, m_cfg.pdc_context_bytes);
    m_read_tags.hold(tag, start, arrived);
    if (r.evicted) m_dma.write_context(start, m_cfg.pdc_context_bytes);
    return arrived;
}

uint64_t uet_nic::context_ready(const packet& p, uint64_t at_ps)
{
    switch (p.kind) {
        case packet_kind::uet_data:
            // RUDI and UUD keep no context at the target.
            if (__builtin_expect(wire::pds_request_saving(p.pds.type) != 0, 0)) return at_ps;
            return context_access(rx_context(p.src_node, p.pds.spdcid), at_ps);
        case packet_kind::uet_probe:
            // A probe asks the receiving end; its answer comes back to the sending PDC.
            return context_access(
                p.pds.ack_request ? rx_context(p.src_node, p.pds.spdcid) : tx_context(p.pds.dpdcid),
                at_ps);
        case packet_kind::uet_ack:
        case packet_kind::uet_nack:
            return context_access(tx_context(p.pds.dpdcid), at_ps);
        default:
            return at_ps;
    }
}

void uet_nic::on_transmit(const packet& p)
{
    // A NACK was logged when the NIC made it (the records page): one row per NACK.
    if (p.kind == packet_kind::uet_nack) return;
    const bool probe = p.kind == packet_kind::uet_probe && p.pds.ack_request;
    sender_pdc* sp = p.kind == packet_kind::uet_data || probe ? m_pdcs.find(p.pds.spdcid) : nullptr;
    monitor(p, p.pds.retransmit ? uet_monitor_row::dir::retx : uet_monitor_row::dir::tx, sp,
            sp ? &m_pdcs.group(sp->group) : nullptr);
}

bool uet_nic::sent_is_silent(const sent_frame& f) const
{
    // on_sent below: a data frame starts its timers, a probe notes its time, a probe answers
    // to the waveform.
    return !f.data && !(f.kind == packet_kind::uet_probe && f.ack_request) && m_probe == nullptr;
}

void uet_nic::on_sent(const sent_frame& f)
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    if (f.data) {
        sender_pdc& p = m_pdcs.at(f.spdcid);
        if (p.open)
            if (sent_packet* sp = p.st.find(f.psn)) {
                if (__builtin_expect(p.mode == delivery_mode::uud, 0)) {
                    uud_sent(p, f.psn);  // no acknowledgement, no retransmission: done
                    if (m_probe) m_probe->changed();
                    return;
                }
                // The retransmission timer starts when serialization ends. Its deadlines truncate
                // to the picosecond, unlike ps_from_seconds: rounding moves some by 1 ps and with
                // them the records of timeout-heavy runs, so it waits for a deliberate timing fix.
                sp->sent_end_ps = now_ps();
                arm({now_ps() + uint64_t(retransmit_timeout_s(m_cfg, sp->tx_count) * 1e12), p.id,
                     sp->psn, sp->tx_count, false});
                const double fd =
                    failure_detection_deadline_s(m_lb_cfg, m_pdcs.group(p.group).cc->base_rtt_s());
                if (fd > 0)
                    arm({now_ps() + uint64_t(fd * 1e12), p.id, sp->psn, sp->tx_count, true});
            }
    } else if (f.kind == packet_kind::uet_probe && f.ack_request) {  // a probe, not its answer
        m_pdcs.at(f.spdcid).probe_sent_ps = now_ps();
    }
    if (m_probe) m_probe->changed();
}

packet* uet_nic::make_control(packet_kind kind, uint32_t dst_host, uint32_t dst_ip)
{
    packet* c = m_pool.acquire();
    c->kind = kind;
    c->src_node = uint16_t(m_host);
    c->dst_node = uint16_t(dst_host);
    c->wire_bytes = wire_size(kind, 0);
    c->ip.src = m_ip;
    c->ip.dst = dst_ip;
    c->ip.dscp = dscp::make(m_cfg.control_traffic_class, dscp::role::control);
    c->ip.ecn = ecn::ect1;
    c->udp.dst_port = wire::uet_udp_port;
    return c;
}

}  // namespace uetsim
