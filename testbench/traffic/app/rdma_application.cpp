#include "testbench/traffic/app/rdma_application.h"

#include <algorithm>

#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/nic/common/host_commands.h"
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/traffic/app/wqe_math.h"
#include "tlm/header_sizes.h"

namespace uetsim {

namespace {

// Setup may take this long (retries included) before a connection counts as never set up.
constexpr double k_setup_allowance_s = 1e-3;

}  // namespace

rdma_application::rdma_application(const sc_core::sc_module_name& name, const scenario& sc,
                                   fabric& fab)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_placement(place({sc.rdma.initiator_ratio, sc.rdma.responder_ratio,
                         uint32_t(fab.host_count()), sc.simulation.random_seed}))
    , m_timeline(make_timeline(sc.simulation.timeline))
    , m_board(sc.rdma.wqe_bytes, nic_data_mss(fabric_nic(sc, uint32_t(fab.host_count()))))
{
    // Connections pair by pair (pairs sorted by Initiator, then Responder), N per pair.
    const uint32_t n = sc.rdma.num_connections;
    for (const auto& [ini, res] : m_placement.pairs)
        for (uint32_t k = 0; k < n; ++k) {
            connection c;
            c.id = uint32_t(m_conns.size());
            c.initiator = ini;
            c.responder = res;
            c.name = "RdmaInitiator-" + std::to_string(ini) + "-" + std::to_string(res) + "-" +
                     std::to_string(k);
            m_conns.push_back(std::move(c));
        }
    const std::vector<double> starts = connection_start_times(
        sc.rdma.start, m_timeline, uint32_t(m_conns.size()), sc.simulation.random_seed);
    for (auto& c : m_conns) {
        c.request_s = starts[c.id];
        action a{};
        a.at_ps = ps_from_seconds(c.request_s);
        a.kind = action_kind::request;
        a.conn = c.id;
        schedule(a);
    }
    fab.run_on_hosts(this);

    m_agenda_wake.notify_at_ps(0);  // run_agenda arms the first action at time 0
    m_beacon_wake.notify_at_ps(0);
}

// ---------------------------------------------------------------------------------------------
// Agenda

void rdma_application::schedule(action a)
{
    a.seq = m_seq++;
    if (!sc_core::sc_is_running())
        m_agenda.add(a);  // run_agenda arms the first at time 0
    else if (m_agenda.push(a))
        m_agenda_wake.notify_at_ps(a.at_ps);
}

void rdma_application::run_agenda()
{
    activity::tick();
    const uint64_t now = sim_now_ps();
    // Every action is live: one that no longer applies (a retry after setup) does nothing.
    if (m_agenda.expire(
            now, [](const action&) { return true; }, [this](const action& a) { perform(a); }))
        m_agenda_wake.notify_at_ps(m_agenda.armed());
}

void rdma_application::perform(const action& a)
{
    switch (a.kind) {
        case action_kind::request:
        case action_kind::retry: {
            connection& c = m_conns[a.conn];
            if (c.setup_done_s >= 0) return;
            send_cm(c.initiator, cm_type::request, c);
            action r{};
            r.at_ps = sim_now_ps() + ps_from_seconds(k_connect_retry_s);
            r.kind = action_kind::retry;
            r.conn = c.id;
            schedule(r);
            return;
        }
        case action_kind::connection_message:
            on_connection_message(a.host, a.cm);
            return;
        case action_kind::data_start: {
            connection& c = m_conns[a.conn];
            c.data_start_s = now_s();
            for (uint32_t i = 0; i < m_sc.rdma.max_pending_wqes; ++i) post_wqe(c);
            return;
        }
        case action_kind::completion:
            on_completion(m_conns[a.conn], a.wqe_id);
            return;
        case action_kind::target_completion:
            on_target_completion(m_conns[a.conn], a.wqe_id);
            return;
    }
}

// ---------------------------------------------------------------------------------------------
// Connection setup: request, response, acknowledgment, each across the network.

void rdma_application::send_cm(uint32_t from_host, cm_type type, const connection& c)
{
    cm_fields m;
    m.type = type;
    m.connection = c.id;
    m.initiator_host = c.initiator;
    m.responder_host = c.responder;
    m_scratch.assign(sizeof(m), 0);
    store(m_scratch.data(), m);
    m_fab.mmio_at(from_host).write(pcie_map::cm_send_register, m_scratch, wire::cm_payload,
                                   pcie_purpose::connection_send);
}

void rdma_application::on_connection_message(uint32_t host, const cm_fields& m)
{
    if (m.connection >= m_conns.size()) return;
    connection& c = m_conns[m.connection];
    switch (m.type) {
        case cm_type::request:
            // The Responder listens from StartTime; an earlier request goes unanswered and
            // the Initiator retries. A repeated request gets the response again.
            if (host != c.responder || now_s() < m_timeline.responders_start_s) return;
            send_cm(c.responder, cm_type::response, c);
            return;
        case cm_type::response: {
            if (host != c.initiator || c.setup_done_s >= 0) return;
            c.setup_done_s = now_s();
            send_cm(c.initiator, cm_type::ack, c);
            action d{};
            d.at_ps = std::max<uint64_t>(sim_now_ps(),
                                         ps_from_seconds(m_timeline.data_start_s(c.setup_done_s)));
            d.kind = action_kind::data_start;
            d.conn = c.id;
            schedule(d);
            return;
        }
        case cm_type::ack:
            if (host == c.responder) c.responder_acked = true;
            return;
    }
}

// ---------------------------------------------------------------------------------------------
// Closed-loop WQEs

void rdma_application::post_wqe(connection& c)
{
    wqe_descriptor d;
    d.qp = c.id;
    d.wqe_id = c.posted + 1;
    d.bytes = m_sc.rdma.wqe_bytes;
    d.traffic_class = m_sc.rdma.data_tc;
    m_scratch.assign(sizeof(d), 0);
    store(m_scratch.data(), d);
    c.doorbell_ps.push_back(sim_now_ps());
    if (at_target()) c.target_doorbell_ps.push_back(sim_now_ps());
    ++c.posted;
    ++m_posted;
    m_fab.mmio_at(c.initiator)
        .write(pcie_map::doorbell(c.id), m_scratch,
               uint32_t(doorbell_pcie_bytes(m_sc.rdma.doorbell_payload_bytes)),
               pcie_purpose::doorbell);
}

void rdma_application::on_completion(connection& c, uint32_t wqe_id)
{
    // One WQE of a queue pair is in service at a time: completions come in posting order.
    const uint64_t posted_ps = c.doorbell_ps.front();
    c.doorbell_ps.pop_front();
    const uint64_t now_ps = sim_now_ps();
    ++c.completed;
    ++m_completed;
    if (wqe_id != c.completed)
        m_board.report_problem(c.name + ": completion of WQE " + std::to_string(wqe_id) +
                               " where WQE " + std::to_string(c.completed) + " was next");
    m_board.completed(wqe_message_id(c.id, wqe_id));
    const double now = double(now_ps) / 1e12;
    const double latency_s = double(now_ps - posted_ps) / 1e12;
    c.last_completion_s = now;
    m_longest_wqe_s = std::max(m_longest_wqe_s, latency_s);
    if (!at_target()) record_wqe(c, wqe_id, posted_ps, c.completed);
    post_wqe(c);
}

void rdma_application::on_target_completion(connection& c, uint32_t wqe_id)
{
    // The queue pair's messages are placed one after another: in posting order too.
    if (c.target_doorbell_ps.empty()) {
        m_board.report_problem(c.name + ": a receive completion of WQE " + std::to_string(wqe_id) +
                               " that was never posted");
        return;
    }
    const uint64_t posted_ps = c.target_doorbell_ps.front();
    c.target_doorbell_ps.pop_front();
    ++c.target_completed;
    if (wqe_id != c.target_completed)
        m_board.report_problem(c.name + ": receive completion of WQE " + std::to_string(wqe_id) +
                               " where WQE " + std::to_string(c.target_completed) + " was next");
    record_wqe(c, wqe_id, posted_ps, c.target_completed);
}

void rdma_application::record_wqe(const connection& c, uint32_t wqe_id, uint64_t posted_ps,
                                  uint32_t completed)
{
    const uint64_t now_ps = sim_now_ps();
    const double now = double(now_ps) / 1e12;
    const double posted_s = double(posted_ps) / 1e12;
    if (m_perf)
        m_perf->write({m_sc.simulation.name, utc_after(m_sc.simulation.epoch_utc, now), now,
                       double(now_ps - posted_ps) / 1e6, m_sc.rdma.wqe_bytes, posted_s, c.name,
                       m_fab.topo().devices[c.initiator].node_id, wqe_id, c.posted, completed,
                       m_fab.topo().devices[c.responder].node_id});
    if (m_transactions)
        m_transactions->write({m_sc.simulation.name, utc_after(m_sc.simulation.epoch_utc, now), now,
                               "RDMA-WRITE", double(now_ps - posted_ps) / 1e6,
                               m_fab.topo().devices[c.initiator].node_id, wqe_id, posted_s,
                               m_sc.rdma.wqe_bytes, c.name});
}

// ---------------------------------------------------------------------------------------------
// What the NICs write into host memory.

void rdma_application::host_memory_written(uint32_t host, const pcie_tag& tag,
                                           const unsigned char* data, uint32_t bytes,
                                           const sc_core::sc_time& at)
{
    switch (tag.purpose) {
        case pcie_purpose::data_write:
            m_board.written(tag.message, tag.offset, bytes);
            return;
        case pcie_purpose::completion_write: {
            const completion_entry e = load<completion_entry>(data);
            if (e.qp >= m_conns.size() || (e.receive && !at_target())) return;
            action a{};
            a.at_ps = at.value();
            a.kind = e.receive ? action_kind::target_completion : action_kind::completion;
            a.conn = e.qp;
            a.wqe_id = e.wqe_id;
            schedule(a);
            return;
        }
        case pcie_purpose::connection_write: {
            action a{};
            a.at_ps = at.value();
            a.kind = action_kind::connection_message;
            a.host = host;
            a.cm = load<cm_fields>(data);
            schedule(a);
            return;
        }
        default:
            return;
    }
}

// ---------------------------------------------------------------------------------------------
// beacon and the end of the run

void rdma_application::beacon_tick()
{
    if (!m_beacon) return;
    activity::tick();
    if (m_beacon_started) write_beacon(now_s());
    m_beacon_started = true;
    m_beacon_wake.notify(seconds(m_sc.simulation.beacon_interval_s));
}

void rdma_application::write_beacon(double now)
{
    m_beacon->write({m_sc.simulation.name, utc_after(m_sc.simulation.epoch_utc, now), now,
                     now - m_last_beacon_s, m_posted, m_completed});
    m_last_beacon_s = now;
}

void rdma_application::finish()
{
    const double now = now_s();
    if (m_beacon && now > m_last_beacon_s) write_beacon(now);
}

uint32_t rdma_application::connections_set_up() const
{
    uint32_t n = 0;
    for (const auto& c : m_conns) n += c.setup_done_s >= 0;
    return n;
}

std::string rdma_application::scoreboard_report() const
{
    std::string r = m_board.report();
    const double stop = now_s();
    // A WQE outstanding much longer than the slowest one that completed is stuck.
    const double stall_limit_s = std::max(k_setup_allowance_s, 4 * m_longest_wqe_s);
    uint32_t not_set_up = 0, stalled = 0;
    std::string first;
    for (const auto& c : m_conns) {
        if (c.setup_done_s < 0) {
            if (c.request_s + k_setup_allowance_s < stop && ++not_set_up == 1)
                first = c.name + " was never set up";
            continue;
        }
        // Placing precedes acknowledging: at most the last acknowledged WQE may still wait for
        // its receive completion at the stop.
        if (at_target() && c.target_completed + 1 < c.completed && ++stalled == 1 && first.empty())
            first = c.name + ": " + std::to_string(c.completed) + " WQEs acknowledged, " +
                    std::to_string(c.target_completed) + " with a receive completion";
        if (c.doorbell_ps.empty()) continue;
        // The oldest outstanding WQE must be younger than the run's stall limit.
        const double age = stop - double(c.doorbell_ps.front()) / 1e12;
        if (age > stall_limit_s && ++stalled == 1 && first.empty())
            first = c.name + ": WQE " + std::to_string(c.completed + 1) + " outstanding for " +
                    std::to_string(age * 1e6) + " us";
    }
    if (not_set_up || stalled) {
        if (!r.empty()) r += "\n";
        r += std::to_string(not_set_up) + " connection(s) not set up, " + std::to_string(stalled) +
             " stalled; first: " + first;
    }
    return r;
}

}  // namespace uetsim
