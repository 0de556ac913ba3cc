#include "testbench/traffic/chakra/scale_up_fabric.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hw/common/saturating.h"

namespace uetsim::chakra {

namespace {

// The largest latency (below 1.8446744073709552e16 ns) or packet time (1 bit/s) can reach 2^64
// ps: durations saturate instead.
uint64_t saturated_ps(double ps)
{
    return ps >= 0x1p64 ? UINT64_MAX : uint64_t(ps + 0.5);
}

uint64_t pair_key(uint32_t a, uint32_t b)
{
    return uint64_t(a) << 32 | b;
}

}  // namespace

scale_up_fabric::scale_up_fabric(std::vector<scale_up_member> members,
                                 const std::vector<scale_up_group_params>& groups,
                                 scale_up_config cfg)
    : m_cfg(cfg)
{
    if (cfg.max_payload_bytes == 0)
        throw std::invalid_argument("scale-up fabric: ScaleUpMaxPayloadSize must be at least 1");
    std::unordered_map<uint32_t, int64_t> index;
    for (const scale_up_group_params& g : groups) {
        index[g.id] = int64_t(m_groups.size());
        m_groups.push_back({g.bandwidth_gbps, g.bandwidth_gbps * 1e9,
                            saturated_ps(g.per_hop_switch_latency_ns * 1e3),
                            saturated_ps(g.npu_cable_latency_ns * 1e3)});
    }
    for (size_t i = 0; i < members.size(); ++i) {
        member_info mi{-1, members[i].subgroup};
        if (members[i].group) {
            auto it = index.find(*members[i].group);
            if (it == index.end()) {
                throw std::invalid_argument(
                    "scale-up fabric: member " + std::to_string(i) + " names ScaleUpGroupId " +
                    std::to_string(*members[i].group) + ", which has no parameters");
            }
            mi.group = it->second;
        }
        m_members.push_back(mi);
    }
    m_counters.resize(m_members.size());
    m_sending_to.resize(m_members.size());
    m_receiving_from.resize(m_members.size());
}

namespace {

std::vector<scale_up_member> members_of(const mapping& m)
{
    std::vector<scale_up_member> members;
    for (const mapping_entry& e : m.by_rank) members.push_back({e.group, e.subgroup.value_or(0)});
    return members;
}

}  // namespace

scale_up_fabric::scale_up_fabric(const mapping& m, scale_up_config cfg)
    : scale_up_fabric(members_of(m), m.groups, cfg)
{
}

const scale_up_fabric::member_info& scale_up_fabric::info(uint32_t member) const
{
    if (member >= m_members.size())
        throw std::invalid_argument("scale-up fabric: no member " + std::to_string(member));
    return m_members[member];
}

bool scale_up_fabric::carries(uint32_t src, uint32_t dst) const
{
    return src < m_members.size() && dst < m_members.size() && m_members[src].group >= 0 &&
           m_members[src].group == m_members[dst].group;
}

double scale_up_fabric::bandwidth_gbps(uint32_t member) const
{
    const member_info& mi = info(member);
    return mi.group < 0 ? 0.0 : m_groups[size_t(mi.group)].bandwidth_gbps;
}

uint64_t scale_up_fabric::one_way_ps(uint32_t src, uint32_t dst) const
{
    if (!carries(src, dst)) {
        throw std::invalid_argument("scale-up fabric: members " + std::to_string(src) + " and " +
                                    std::to_string(dst) + " are not in one scale-up group");
    }
    const group_timing& g = m_groups[size_t(m_members[src].group)];
    const bool same = m_members[src].subgroup == m_members[dst].subgroup;
    const uint64_t hops = same ? 1 : 3, cables = same ? 2 : 4;
    return saturated_add(saturated_mul(hops, g.hop_ps), saturated_mul(cables, g.cable_ps));
}

uint64_t scale_up_fabric::packet_bytes(const transfer_state& t, uint64_t packet) const
{
    const uint64_t data = packet + 1 < t.packets
                              ? m_cfg.max_payload_bytes
                              : t.bytes - (t.packets - 1) * m_cfg.max_payload_bytes;
    return data + m_cfg.header_bytes;
}

uint64_t scale_up_fabric::packet_ps(uint64_t bytes, uint32_t member, uint64_t sharing) const
{
    const group_timing& g = m_groups[size_t(m_members[member].group)];
    return saturated_ps(double(bytes) * 8.0 * 1e12 * double(sharing) / g.rate_bps);
}

void scale_up_fabric::schedule(uint64_t at, step kind, void* queue, uint64_t transfer,
                               uint64_t packet)
{
    m_heap.push({at, m_seq++, kind, queue, transfer, packet});
}

void scale_up_fabric::send(uint64_t transfer, uint32_t src, uint32_t dst, uint64_t bytes,
                           uint64_t now_ps)
{
    if (!carries(src, dst)) {
        throw std::invalid_argument("scale-up fabric: transfer " + std::to_string(transfer) +
                                    ": members " + std::to_string(src) + " and " +
                                    std::to_string(dst) + " are not in one scale-up group");
    }
    advance(now_ps, false);
    if (m_transfers.count(transfer)) {
        throw std::invalid_argument("scale-up fabric: transfer " + std::to_string(transfer) +
                                    " is already in flight");
    }
    const uint64_t packets =
        bytes == 0 ? 1 : bytes / m_cfg.max_payload_bytes + (bytes % m_cfg.max_payload_bytes != 0);
    m_transfers.emplace(transfer,
                        transfer_state{src, dst, bytes, packets, 0, false, one_way_ps(src, dst)});
    tx_queue& q = m_tx.try_emplace(pair_key(src, dst), tx_queue{src, dst, {}, 0}).first->second;
    q.transfers.push_back(transfer);
    if (q.transfers.size() == 1) {
        ++m_sending_to[src];
        m_ready_tx.push_back(&q);  // started by run_due(), with the instant's other sends
    }
}

std::optional<uint64_t> scale_up_fabric::next_event_ps() const
{
    if (!m_out.empty()) return m_out.front().at_ps;
    if (!m_ready_tx.empty() || !m_ready_rx.empty()) return m_now;
    if (m_heap.empty()) return std::nullopt;
    return m_heap.top().at;
}

void scale_up_fabric::run_due(uint64_t now_ps, std::vector<scale_up_event>& out)
{
    advance(now_ps, true);
    out.insert(out.end(), m_out.begin(), m_out.end());
    m_out.clear();
}

void scale_up_fabric::advance(uint64_t now, bool start_now)
{
    if (now < m_now) throw std::invalid_argument("scale-up fabric: time went back");
    for (;;) {
        // The next instant: the one of the packets waiting to start, or of the next step.
        const bool waiting = !m_ready_tx.empty() || !m_ready_rx.empty();
        if (!waiting && m_heap.empty()) break;
        const uint64_t at = waiting ? m_now : m_heap.top().at;
        if (at > now) break;
        m_now = at;
        // Everything ending at this instant first, so that the packets starting at it count the
        // queues as they are after it.
        while (!m_heap.empty() && m_heap.top().at == at) {
            const pending p = m_heap.top();
            m_heap.pop();
            handle(p);
        }
        if (at == now && !start_now) break;  // a send may still come at this instant
        // Started in the order they became ready; what they schedule at `at` comes next.
        std::vector<tx_queue*> tx;
        std::vector<rx_queue*> rx;
        tx.swap(m_ready_tx);
        rx.swap(m_ready_rx);
        for (tx_queue* q : tx) start_sending(*q, at);
        for (rx_queue* q : rx) start_taking_in(*q, at);
    }
    m_now = now;
}

void scale_up_fabric::start_sending(tx_queue& q, uint64_t now)
{
    const transfer_state& t = m_transfers.at(q.transfers.front());
    const uint64_t packet = q.next_packet++;
    const uint64_t d = packet_ps(packet_bytes(t, packet), q.src, m_sending_to[q.src]);
    schedule(saturated_add(now, d), step::packet_sent, &q, q.transfers.front(), packet);
}

void scale_up_fabric::start_taking_in(rx_queue& q, uint64_t now)
{
    const rx_run& r = q.runs.front();
    const uint64_t d = packet_ps(packet_bytes(m_transfers.at(r.transfer), r.first), q.dst,
                                 m_receiving_from[q.dst]);
    q.busy = true;
    q.ready = false;
    schedule(saturated_add(now, d), step::packet_taken_in, &q, r.transfer, r.first);
}

void scale_up_fabric::handle(const pending& p)
{
    switch (p.kind) {
        case step::packet_sent: {
            auto& q = *static_cast<tx_queue*>(p.queue);
            transfer_state& t = m_transfers.at(p.transfer);
            const uint64_t bytes = packet_bytes(t, p.packet);
            ++m_counters[t.src].tx_packets;
            m_counters[t.src].tx_bytes += bytes;
            rx_queue& rq =
                m_rx.try_emplace(pair_key(t.dst, t.src), rx_queue{t.dst, t.src, {}, false, false})
                    .first->second;
            schedule(saturated_add(p.at, t.one_way_ps), step::packet_arrived, &rq, p.transfer,
                     p.packet);
            if (p.packet + 1 == t.packets) {
                m_out.push_back({p.transfer, scale_up_event_kind::sent, p.at});
                schedule(saturated_add(p.at, saturated_mul(2, t.one_way_ps)), step::acked, nullptr,
                         p.transfer, 0);
                q.transfers.pop_front();
                q.next_packet = 0;
            }
            if (!q.transfers.empty()) {
                m_ready_tx.push_back(&q);
            } else {
                --m_sending_to[q.src];
            }
            break;
        }
        case step::packet_arrived: {
            auto& q = *static_cast<rx_queue*>(p.queue);
            if (q.runs.empty()) ++m_receiving_from[q.dst];
            if (!q.runs.empty() && q.runs.back().transfer == p.transfer &&
                q.runs.back().first + q.runs.back().count == p.packet) {
                ++q.runs.back().count;
            } else {
                q.runs.push_back({p.transfer, p.packet, 1});
            }
            if (!q.busy && !q.ready) {
                q.ready = true;
                m_ready_rx.push_back(&q);
            }
            break;
        }
        case step::packet_taken_in: {
            auto& q = *static_cast<rx_queue*>(p.queue);
            transfer_state& t = m_transfers.at(p.transfer);
            ++m_counters[t.dst].rx_packets;
            m_counters[t.dst].rx_bytes += packet_bytes(t, p.packet);
            rx_run& r = q.runs.front();
            ++r.first;
            if (--r.count == 0) q.runs.pop_front();
            q.busy = false;
            if (!q.runs.empty()) {
                q.ready = true;
                m_ready_rx.push_back(&q);
            } else {
                --m_receiving_from[q.dst];
            }
            if (++t.received == t.packets) {
                m_out.push_back({p.transfer, scale_up_event_kind::received, p.at});
                finish_if_done(p.transfer);
            }
            break;
        }
        case step::acked:
            m_out.push_back({p.transfer, scale_up_event_kind::acked, p.at});
            m_transfers.at(p.transfer).acked = true;
            finish_if_done(p.transfer);
            break;
    }
}

void scale_up_fabric::finish_if_done(uint64_t transfer)
{
    auto it = m_transfers.find(transfer);
    if (it->second.acked && it->second.received == it->second.packets) m_transfers.erase(it);
}

}  // namespace uetsim::chakra
