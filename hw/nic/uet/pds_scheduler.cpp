#include "hw/nic/uet/pds_scheduler.h"

#include <algorithm>

namespace uetsim {

pds_scheduler::pds_scheduler(pdc_table& pdcs, const uet_message_table& messages, uint32_t mss,
                             uint32_t wire_overhead, uint32_t nominal_overhead,
                             prefetch_buffer* prefetch)
    : m_pdcs(pdcs)
    , m_messages(messages)
    , m_mss(mss)
    , m_wire_overhead(wire_overhead)
    , m_nominal_overhead(nominal_overhead)
    , m_prefetch(prefetch)
{
}

void pds_scheduler::enqueue(uint32_t g, bool at_head)
{
    pdc_group& grp = m_pdcs.group(g);
    if (grp.queued || !grp.alive) return;
    grp.queued = true;
    if (at_head)
        m_ready.push_front(g);
    else
        m_ready.push_back(g);
}

bool pds_scheduler::has_work(const pdc_group& g) const
{
    for (uint16_t id : g.pdcs) {
        sender_pdc& p = m_pdcs.at(id);
        if (p.st.peek_retransmission()) return true;
        if (p.prefetch.ready()) return true;
        if (m_messages[p.message].has_new_data()) return true;
    }
    return false;
}

void pds_scheduler::prefetch_room_freed()
{
    for (uint32_t g : m_prefetch_waiting) {
        m_pdcs.group(g).prefetch_waiting = false;
        enqueue(g, false);
    }
    m_prefetch_waiting.clear();
}

bool pds_scheduler::wait_for_pool(uint32_t g, int tc)
{
    if (!several_data_classes()) return false;
    m_ready.pop_front();  // still queued: enqueue() leaves it where it waits
    m_pool_waiting[size_t(tc)].push_back(g);
    if (!((m_waiting_classes >> tc) & 1u)) {
        m_waiting_classes |= uint8_t(1u << tc);
        m_new_waits |= uint8_t(1u << tc);
    }
    return true;
}

void pds_scheduler::credit_blocked(uint32_t g)
{
    // Out of the ring until credit for its destination arrives (RCCC).
    m_ready.pop_front();
    m_pdcs.group(g).queued = false;
    m_credit_blocked.push_back(g);
}

void pds_scheduler::pool_freed(int tc)
{
    m_waiting_classes &= uint8_t(~(1u << tc));
    ring<uint32_t>& w = m_pool_waiting[size_t(tc)];
    for (size_t i = w.size(); i-- > 0;) m_ready.push_front(w.at(i));
    while (!w.empty()) w.pop_front();
}

pds_decision pds_scheduler::decide(const nic_egress_pools& pools)
{
    if (m_prefetch) return decide_prefetch(pools);
    pds_decision d;
    size_t attempts = m_ready.size();
    while (attempts-- > 0 && !m_ready.empty()) {
        const uint32_t gi = m_ready.front();
        pdc_group& g = m_pdcs.group(gi);
        if (g.credit && !g.credit->allows()) {
            credit_blocked(gi);
            continue;
        }
        size_t next_turn = 0;
        sender_pdc* chosen = pick(g, d, next_turn);
        if (chosen) g.turn = next_turn;
        if (!chosen) {
            // Nothing this group may send now: it leaves the ring until an ACK, NACK, timeout
            // (head) or new message (tail) brings it back.
            m_ready.pop_front();
            g.queued = false;
            continue;
        }
        // The egress pool of the packet's own class.
        if (d.payload + m_wire_overhead > pools.room(d.traffic_class) ||
            (m_waiting_classes && ((m_waiting_classes >> d.traffic_class) & 1u))) {
            if (wait_for_pool(gi, d.traffic_class)) continue;  // the next group's turn
            d.what = pds_decision::kind::blocked_on_pool;      // the group stays at the head
            d.group = gi;
            d.pdc = chosen;
            return d;
        }
        m_ready.pop_front();
        g.queued = false;
        d.what = pds_decision::kind::send;
        d.group = gi;
        d.pdc = chosen;
        return d;
    }
    return pds_decision{};
}

// One PDC of the group, in turn; within it a retransmission first, then new data. Fills `d`
// and gives the group's next turn; changes nothing else.
sender_pdc* pds_scheduler::pick(const pdc_group& g, pds_decision& d, size_t& next_turn) const
{
    for (size_t k = 0; k < g.pdcs.size(); ++k) {
        sender_pdc& p = m_pdcs.at(g.pdcs[(g.turn + k) % g.pdcs.size()]);
        sent_packet* r = p.st.peek_retransmission();
        uint32_t payload;
        if (r) {
            payload = r->payload;
            d.traffic_class = m_messages[r->message].traffic_class;
        } else {
            const uet_message& m = m_messages[p.message];
            d.traffic_class = m.traffic_class;
            if (!m.has_new_data()) continue;
            // The fetch test: a new segment is fetched only while the bytes fetched and not yet
            // acknowledged are at most the window (lost packets waiting for their
            // retransmission still count; they need no fetch).
            if (!g.cc->fetch_allows(g.fetched_unacked)) continue;
            payload = uint32_t(std::min<uint64_t>(m_mss, m.bytes - m.next_offset));
        }
        // The wire test, for new data and retransmissions alike.
        if (!g.cc->window_allows(g.inflight, payload + m_nominal_overhead)) continue;
        d.retransmission = r;
        d.payload = payload;
        next_turn = (g.turn + k + 1) % std::max<size_t>(1, g.pdcs.size());
        return &p;
    }
    return nullptr;
}

bool pds_scheduler::would_idle() const
{
    if (m_prefetch) return false;
    for (size_t i = 0; i < m_ready.size(); ++i) {
        const pdc_group& g = m_pdcs.group(m_ready.at(i));
        if (g.credit && !g.credit->allows()) return false;  // decide() notes it
        pds_decision d;
        size_t next_turn = 0;
        if (pick(g, d, next_turn)) return false;
    }
    return true;
}

void pds_scheduler::idle_pass()
{
    while (!m_ready.empty()) {
        m_pdcs.group(m_ready.front()).queued = false;
        m_ready.pop_front();
    }
}

pds_decision pds_scheduler::decide_prefetch(const nic_egress_pools& pools)
{
    pds_decision d;
    size_t attempts = m_ready.size();
    while (attempts-- > 0 && !m_ready.empty()) {
        const uint32_t gi = m_ready.front();
        pdc_group& g = m_pdcs.group(gi);
        if (g.credit && !g.credit->allows()) {
            credit_blocked(gi);
            continue;
        }
        // One PDC of the group, in turn; within it a retransmission first, then a payload in
        // the prefetch buffer, then a new segment. A PDC does not skip to a later kind while an
        // earlier one waits for room in the window.
        sender_pdc* chosen = nullptr;
        bool buffer_full = false;
        for (size_t k = 0; k < g.pdcs.size(); ++k) {
            sender_pdc& p = m_pdcs.at(g.pdcs[(g.turn + k) % g.pdcs.size()]);
            sent_packet* r = p.st.peek_retransmission();
            pds_decision::kind what = pds_decision::kind::send;
            uint32_t payload;
            uint32_t message;
            if (r) {
                payload = r->payload;
                message = r->message;
            } else if (p.prefetch.ready()) {
                // Committed when it fits the window in flight (the wire test).
                const sent_packet* c = p.st.find(p.prefetch.oldest().psn);
                payload = c->payload;
                message = c->message;
                what = pds_decision::kind::commit;
            } else {
                message = p.message;
                const uet_message& m = m_messages[p.message];
                if (!m.has_new_data()) continue;
                // Before the fetch the window is checked only for the bytes fetched.
                if (!g.cc->fetch_allows(g.fetched_unacked)) continue;
                payload = uint32_t(std::min<uint64_t>(m_mss, m.bytes - m.next_offset));
                if (!m_prefetch->fits(payload + m_wire_overhead)) {
                    buffer_full = true;
                    continue;
                }
                what = pds_decision::kind::fetch;
            }
            if (what != pds_decision::kind::fetch &&
                !g.cc->window_allows(g.inflight, payload + m_nominal_overhead))
                continue;
            chosen = &p;
            d.what = what;
            d.traffic_class = m_messages[message].traffic_class;
            d.retransmission = r;
            d.payload = payload;
            g.turn = (g.turn + k + 1) % std::max<size_t>(1, g.pdcs.size());
            break;
        }
        if (!chosen) {
            // Nothing this group may do now: out of the ring until an ACK, NACK, timeout (head),
            // a new message or an arrived payload (tail) brings it back, or, if the prefetch
            // buffer held it back, until that buffer drains to half.
            m_ready.pop_front();
            g.queued = false;
            if (buffer_full) m_prefetch->block();
            if (buffer_full && !g.prefetch_waiting) {
                g.prefetch_waiting = true;
                m_prefetch_waiting.push_back(gi);
            }
            continue;
        }
        if (d.what != pds_decision::kind::fetch &&
            (d.payload + m_wire_overhead > pools.room(d.traffic_class) ||
             (m_waiting_classes && ((m_waiting_classes >> d.traffic_class) & 1u)))) {
            if (wait_for_pool(gi, d.traffic_class)) continue;  // the next group's turn
            d.what = pds_decision::kind::blocked_on_pool;      // the group stays at the head
            d.group = gi;
            d.pdc = chosen;
            return d;
        }
        m_ready.pop_front();
        g.queued = false;
        d.group = gi;
        d.pdc = chosen;
        return d;
    }
    return pds_decision{};
}

}  // namespace uetsim
