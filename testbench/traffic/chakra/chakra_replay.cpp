#include "testbench/traffic/chakra/chakra_replay.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "testbench/traffic/chakra/chakra_replay_state.h"
#include "tlm/header_sizes.h"

namespace uetsim::chakra {

namespace {

constexpr uint64_t k_ps_per_us = 1'000'000;

}  // namespace

chakra_replay::chakra_replay(const prepared_workload& w, const chakra_config& cfg,
                             rank_placement placement, const mapping* map, uint32_t data_mss,
                             double start_s, double end_delay_s, nic_poster post)
    : m_w(w)
    , m_place(std::move(placement))
    , m_mss(data_mss)
    , m_start_s(start_s)
    , m_start_ps(uint64_t(start_s * 1e12 + 0.5))
    , m_end_delay_s(end_delay_s)
    , m_post(std::move(post))
    , m_ranks(w.ranks.size())
    , m_coll_times(w.collectives.size())
{
    const bool shared = cfg.family != trace_family::collected;
    for (uint32_t r = 0; r < m_ranks.size(); ++r) {
        rank_state& rs = m_ranks[r];
        const prepared_rank& pr = w.ranks[r];
        const size_t n = pr.nodes.size();
        rs.deps_left.resize(n);
        for (size_t i = 0; i < n; ++i) rs.deps_left[i] = pr.nodes[i].deps;
        rs.start_ps.assign(n, -1);
        rs.end_ps.assign(n, -1);
        rs.running.assign(n, 0);
        rs.nodes_left = uint32_t(n);
        rs.npu = std::make_unique<npu_compute>(shared);
        rs.npu_due = std::make_unique<wakeup>([this, r] { npu_due(r); });
    }
    if (map && map->has_scale_up())
        m_scale_up = std::make_unique<scale_up_fabric>(
            *map, scale_up_config{cfg.scale_up_max_payload_size, cfg.scale_up_header_size});
    push(m_start_ps, start_all);
}

chakra_replay::~chakra_replay() = default;

uint32_t chakra_replay::ranks() const
{
    return uint32_t(m_ranks.size());
}
const rank_progress& chakra_replay::progress(uint32_t r) const
{
    return m_ranks[r].progress;
}
int64_t chakra_replay::node_start_ps(uint32_t rank, uint32_t node) const
{
    return m_ranks[rank].start_ps[node];
}
int64_t chakra_replay::node_end_ps(uint32_t rank, uint32_t node) const
{
    return m_ranks[rank].end_ps[node];
}
bool chakra_replay::node_running(uint32_t rank, uint32_t node) const
{
    return m_ranks[rank].running[node] != 0;
}
uint32_t chakra_replay::running_collective(uint32_t rank) const
{
    const auto& runs = m_ranks[rank].runs;
    return runs.empty() ? k_none : runs.front()->instance;
}
bool chakra_replay::running_barrier(uint32_t rank) const
{
    const auto& runs = m_ranks[rank].runs;
    return !runs.empty() && runs.front()->phase == 0;
}
uint32_t chakra_replay::running_step(uint32_t rank) const
{
    const auto& runs = m_ranks[rank].runs;
    return runs.empty() ? 0 : runs.front()->current_step;
}

// ---------------------------------------------------------------------------------------------
// Events

void chakra_replay::push(uint64_t at_ps, uint8_t kind, uint32_t a, uint32_t b)
{
    at_ps = std::max(at_ps, sim_now_ps());
    m_events.push({at_ps, m_seq++, kind, a, b});
    m_due.notify_at_ps(m_events.top().at_ps);
}

void chakra_replay::run_due()
{
    activity::tick();
    const uint64_t now = sim_now_ps();
    if (m_scale_up) {
        m_scale_up_events.clear();
        m_scale_up->run_due(now, m_scale_up_events);
        for (const scale_up_event& e : m_scale_up_events) {
            const uint32_t t = uint32_t(e.transfer);
            switch (e.kind) {
                case scale_up_event_kind::sent:
                    push(e.at_ps, sent, t);
                    break;
                case scale_up_event_kind::received:
                    push(e.at_ps, received, t);
                    break;
                case scale_up_event_kind::acked:
                    push(e.at_ps, acked, t);
                    break;
            }
        }
    }
    while (!m_events.empty() && m_events.top().at_ps <= now) {
        const event e = m_events.top();
        m_events.pop();
        handle(e);
        drain_ready();
    }
    if (!m_events.empty()) m_due.notify_at_ps(m_events.top().at_ps);
    if (m_scale_up)
        if (const auto next = m_scale_up->next_event_ps()) m_scale_up_due.notify_at_ps(*next);
}

void chakra_replay::handle(const event& e)
{
    switch (e.kind) {
        case start_all:
            for (uint32_t r = 0; r < m_ranks.size(); ++r) {
                for (uint32_t n : m_w.ranks[r].ready) m_ready.push_back({r, n});
                // A rank with nothing ready ends at once.
                if (m_w.ranks[r].ready.empty()) maybe_end_rank(r);
            }
            break;
        case node_done:
            finish_node(e.a, e.b);
            break;
        case sent:
            transfer_sent(e.a);
            break;
        case received:
            transfer_received(e.a);
            break;
        case acked:
            transfer_acked(e.a, seconds_of(e.at_ps));
            break;
        case end_run:
            stop_simulation();
            break;
    }
}

void chakra_replay::drain_ready()
{
    // Starting a node can finish it and make others ready: a loop, not recursion.
    for (size_t i = 0; i < m_ready.size(); ++i) start_node(m_ready[i].first, m_ready[i].second);
    m_ready.clear();
}

void chakra_replay::npu_due(uint32_t r)
{
    activity::tick();
    rank_state& rs = m_ranks[r];
    std::vector<uint64_t> finished;
    rs.npu->finish_due(sim_now_ps(), finished);
    for (uint64_t n : finished) finish_node(r, uint32_t(n));
    if (const auto next = rs.npu->next_finish_ps()) rs.npu_due->notify_at_ps(*next);
    drain_ready();
}

// ---------------------------------------------------------------------------------------------
// Nodes

void chakra_replay::start_node(uint32_t r, uint32_t i)
{
    rank_state& rs = m_ranks[r];
    const prepared_node& n = m_w.ranks[r].nodes[i];
    const uint64_t now = sim_now_ps();
    rs.start_ps[i] = int64_t(now);
    rs.running[i] = 1;
    switch (n.kind) {
        case op_kind::none:
            finish_node(r, i);
            break;
        case op_kind::timed:
            push(now + n.duration_us * k_ps_per_us, node_done, r, i);
            break;
        case op_kind::npu:
            rs.npu->start(i, n.duration_us * k_ps_per_us, now);
            if (const auto next = rs.npu->next_finish_ps()) rs.npu_due->reschedule_at_ps(*next);
            break;
        case op_kind::send: {
            const uint32_t t = new_transfer(r, n.peer, n.bytes);
            transfer& x = m_transfers[t];
            x.node = i;
            x.tag = n.tag;
            post(t);
            break;
        }
        case op_kind::recv: {
            auto& q = rs.arrived[{n.peer, n.tag}];
            if (!q.empty()) {
                const uint64_t bytes = q.front();
                q.pop_front();
                rs.progress.bytes_received += bytes;
                finish_node(r, i);
            } else {
                rs.waiting[{n.peer, n.tag}].push_back(i);
            }
            break;
        }
        case op_kind::collective:
            start_collective(r, i);
            break;
    }
}

void chakra_replay::finish_node(uint32_t r, uint32_t i)
{
    rank_state& rs = m_ranks[r];
    const prepared_rank& pr = m_w.ranks[r];
    const prepared_node& n = pr.nodes[i];
    const uint64_t now = sim_now_ps();
    // A send stays running (and its end unwritten) until its transfer is acknowledged.
    if (n.kind != op_kind::send) {
        rs.end_ps[i] = int64_t(now);
        rs.running[i] = 0;
    }
    switch (n.kind) {
        case op_kind::npu:
        case op_kind::timed:
            if (n.type == node_type::comp) {
                ++rs.progress.computations_completed;
                rs.progress.computation_time_us += n.duration_us;
                ++m_done.computations;
            }
            break;
        case op_kind::recv:
            ++rs.progress.receives_completed;
            ++m_done.receives;
            break;
        default:
            break;
    }
    --rs.nodes_left;
    for (uint32_t k = n.dependents_begin; k < n.dependents_end; ++k) {
        const uint32_t d = pr.dependents[k];
        if (--rs.deps_left[d] == 0) m_ready.push_back({r, d});
    }
    maybe_end_rank(r);
}

void chakra_replay::maybe_end_rank(uint32_t r)
{
    rank_state& rs = m_ranks[r];
    if (rs.progress.ended || rs.nodes_left || rs.sends_unacked || rs.rx_unacked) return;
    rs.progress.ended = true;
    rs.progress.end_ps = sim_now_ps();
    ++m_ended;
    for (auto& f : m_on_rank_ended) f(r);
    if (m_ended == m_ranks.size()) {
        push(sim_now_ps() + uint64_t(m_end_delay_s * 1e12 + 0.5), end_run);
    }
}

// ---------------------------------------------------------------------------------------------
// Transfers

uint32_t chakra_replay::new_transfer(uint32_t src, uint32_t dst, uint64_t bytes)
{
    uint32_t t;
    if (!m_free_transfers.empty()) {
        t = m_free_transfers.back();
        m_free_transfers.pop_back();
    } else {
        t = uint32_t(m_transfers.size());
        m_transfers.emplace_back();
    }
    transfer& x = m_transfers[t];
    const uint32_t generation = x.generation;
    x = transfer{};
    x.generation = generation;
    x.live = true;
    x.src = src;
    x.dst = dst;
    x.bytes = bytes;
    x.start_ps = sim_now_ps();
    x.scale_up = m_scale_up && m_scale_up->carries(src, dst);
    if (!x.scale_up) {
        x.packets = uint32_t(wire::packets_for(bytes, m_mss));
        x.got.assign(x.packets, false);
    }
    ++m_ranks[src].sends_unacked;
    ++m_posted;
    ++m_unacked;
    return t;
}

void chakra_replay::post(uint32_t t)
{
    const transfer& x = m_transfers[t];
    if (x.scale_up) {
        m_scale_up->send(t, x.src, x.dst, x.bytes, sim_now_ps());
        if (const auto next = m_scale_up->next_event_ps()) m_scale_up_due.notify_at_ps(*next);
        return;
    }
    const uint64_t message =
        k_transfer_message_bit | (uint64_t(x.generation & 0x3fffffff) << 32) | t;
    m_post(m_place.host[x.src], message, m_place.host[x.dst], x.bytes);
}

chakra_replay::transfer* chakra_replay::find(uint64_t message)
{
    const uint32_t t = uint32_t(message);
    const uint32_t generation = uint32_t(message >> 32) & 0x3fffffff;
    if (t >= m_transfers.size()) return nullptr;
    transfer& x = m_transfers[t];
    if (!x.live || (x.generation & 0x3fffffff) != generation) return nullptr;
    return &x;
}

void chakra_replay::nic_sent(uint64_t message, uint64_t at_ps)
{
    if (find(message)) push(at_ps, sent, uint32_t(message));
}

void chakra_replay::nic_written(uint64_t message, uint64_t offset, uint32_t bytes, uint64_t at_ps)
{
    transfer* x = find(message);
    if (!x) {
        if (++m_stale_writes <= 8)
            m_violations += fmt::format(
                "transfer message {:#x}: {} bytes at offset {} written "
                "after the transfer was retired\n",
                message, bytes, offset);
        return;
    }
    const uint64_t seq = m_mss ? offset / m_mss : 0;
    if (seq >= x->got.size() || x->got[seq]) {
        m_violations += fmt::format(
            "transfer rank {} -> rank {}: the packet at offset {} was "
            "written twice\n",
            x->src, x->dst, offset);
        return;
    }
    x->got[seq] = true;
    ++x->packets_got;
    x->received_bytes += bytes;
    if (x->packets_got == x->packets) push(at_ps, received, uint32_t(message));
}

void chakra_replay::nic_acked(uint64_t message, double time_s)
{
    if (find(message)) push(uint64_t(time_s * 1e12 + 0.5), acked, uint32_t(message));
}

void chakra_replay::transfer_sent(uint32_t t)
{
    transfer& x = m_transfers[t];
    if (x.sent) return;
    x.sent = true;
    rank_state& rs = m_ranks[x.src];
    if (!x.synchronization()) {
        rs.progress.bytes_sent += x.bytes;
        ++rs.progress.sends_completed;
        m_done.send_bytes += x.bytes;
        ++m_done.sends;
    }
    if (x.instance == k_none) {
        finish_node(x.src, x.node);
    } else if (collective_run* run = active_run(x.src, x.instance)) {
        auto& l = run->lanes[x.lane];
        --l.unsent[x.step];
        --run->unsent;
        while (l.sent_prefix < l.next_issue && l.unsent[l.sent_prefix] == 0) ++l.sent_prefix;
        pump(*run, x.lane);
        check_run_done(*run);
    }
    maybe_retire(t);
}

void chakra_replay::transfer_received(uint32_t t)
{
    transfer& x = m_transfers[t];
    if (x.received) return;
    x.received = true;
    if (x.received_bytes != x.bytes && !x.scale_up)
        m_violations += fmt::format("transfer rank {} -> rank {}: {} bytes arrived, expected {}\n",
                                    x.src, x.dst, x.received_bytes, x.bytes);
    rank_state& rs = m_ranks[x.dst];
    // The receiver ends only once the sender has the acknowledgment (NIC transfers).
    if (!x.acked && !x.scale_up) {
        x.receiver_waits_ack = true;
        ++rs.rx_unacked;
    }
    if (x.instance == k_none) {
        p2p_arrival(x.dst, x.src, x.tag, t);
    } else {
        if (!x.synchronization()) {
            collective_times& ct = m_coll_times[x.instance];
            ct.end_s = std::max(ct.end_s, seconds_of(sim_now_ps()));
        }
        collective_run* run = active_run(x.dst, x.instance);
        if (run && run->phase == x.phase)
            collective_arrival(*run, x.lane, x.recv_step);
        else
            rs.held[(uint64_t(x.instance) << 1) | x.phase].push_back({x.lane, x.recv_step});
        if (!x.synchronization()) {
            rs.progress.bytes_received += x.bytes;
            ++rs.progress.receives_completed;
            ++m_done.receives;
        }
    }
    maybe_retire(t);
}

void chakra_replay::p2p_arrival(uint32_t r, uint32_t src, int64_t tag, uint32_t t)
{
    rank_state& rs = m_ranks[r];
    auto it = rs.waiting.find({src, tag});
    if (it != rs.waiting.end() && !it->second.empty()) {
        const uint32_t node = it->second.front();
        it->second.pop_front();
        rs.progress.bytes_received += m_transfers[t].bytes;
        finish_node(r, node);
    } else {
        rs.arrived[{src, tag}].push_back(m_transfers[t].bytes);
    }
}

void chakra_replay::transfer_acked(uint32_t t, double time_s)
{
    transfer& x = m_transfers[t];
    if (x.acked) return;
    x.acked = true;
    --m_unacked;
    rank_state& sender = m_ranks[x.src];
    --sender.sends_unacked;
    if (!x.synchronization()) {
        ++sender.progress.sends_acked;
        ++m_done.acked;
    }
    if (x.receiver_waits_ack) --m_ranks[x.dst].rx_unacked;
    if (x.instance == k_none) {
        sender.end_ps[x.node] = int64_t(sim_now_ps());
        sender.running[x.node] = 0;
    } else if (!x.synchronization()) {
        collective_times& ct = m_coll_times[x.instance];
        ct.end_s = std::max(ct.end_s, time_s);
    }
    for (auto& f : m_on_acked)
        f({time_s, seconds_of(x.start_ps), x.src, x.dst, x.bytes, x.tag, x.instance,
           x.synchronization()});
    maybe_end_rank(x.src);
    maybe_end_rank(x.dst);
    maybe_retire(t);
}

void chakra_replay::maybe_retire(uint32_t t)
{
    transfer& x = m_transfers[t];
    if (!(x.sent && x.received && x.acked)) return;
    x.live = false;
    ++x.generation;
    x.got = {};
    m_free_transfers.push_back(t);
}

std::string chakra_replay::scoreboard_report() const
{
    std::string r = m_violations;
    uint32_t shown = 0;
    for (const transfer& x : m_transfers) {
        if (!x.live) continue;
        if (++shown > 8) continue;
        r +=
            fmt::format("transfer rank {} -> rank {} ({} B{}): {}{}{}\n", x.src, x.dst, x.bytes,
                        x.instance == k_none ? "" : fmt::format(", collective {}", x.instance),
                        x.sent ? "sent" : "not all sent",
                        x.received ? ", received" : fmt::format(", {} B arrived", x.received_bytes),
                        x.acked ? ", acknowledged" : ", not acknowledged");
    }
    if (shown > 8) r += fmt::format("... and {} more transfers unfinished\n", shown - 8);
    for (uint32_t k = 0; k < m_ranks.size(); ++k)
        if (!m_ranks[k].progress.ended)
            r += fmt::format("rank {} did not end: {} of {} nodes unfinished\n", k,
                             m_ranks[k].nodes_left, m_w.ranks[k].nodes.size());
    return r;
}

}  // namespace uetsim::chakra
