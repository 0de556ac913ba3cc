#include "hw/nic/roce/roce_requester.h"

#include <algorithm>
#include <stdexcept>

#include "tlm/header_sizes.h"

namespace uetsim {

void roce_requester::start_message(uint64_t bytes, roce::verb v)
{
    if (m_busy) throw std::logic_error("roce_requester: a message is in progress");
    m_busy = true;
    m_verb = v;
    m_bytes = bytes;
    m_packets = wire::packets_for(bytes, m_mss);
    m_first = m_base;
    m_base = roce::psn_add(m_base, int64_t(m_packets));
    m_generated = m_numbered = m_una = 0;
    m_sent_ps.clear();
}

roce_segment roce_requester::next_segment()
{
    roce_segment s;
    s.index = m_generated++;
    s.offset = s.index * m_mss;
    s.payload = payload_of(s.index);
    s.psn = psn_of(s.index);
    s.last = s.index + 1 == m_packets;
    s.opcode = roce::data_opcode(m_verb, roce::position_of(s.index, m_packets));
    s.epoch = m_epoch;
    return s;
}

bool roce_requester::number()
{
    const bool was_empty = window_empty();
    ++m_numbered;
    m_sent_ps.push_back(0);
    return was_empty;
}

void roce_requester::retire_to(uint64_t index)
{
    while (m_una < index) {
        ++m_una;
        m_sent_ps.pop_front();
    }
}

uint32_t roce_requester::payload_of(uint64_t index) const
{
    return uint32_t(std::min<uint64_t>(m_mss, m_bytes - index * m_mss));
}

roce_requester::discard roce_requester::rewind(uint64_t index)
{
    discard discarded;
    for (uint64_t k = m_numbered; k < m_generated; ++k) {
        ++discarded.segments;
        discarded.payload_bytes += payload_of(k);
    }
    m_sent_ps.resize(size_t(index - m_una));
    m_numbered = m_generated = index;
    ++m_epoch;
    return discarded;
}

roce_requester::ack_result roce_requester::on_ack(uint32_t psn)
{
    ack_result r;
    const int64_t k = index_of(psn);
    if (!m_busy || k >= int64_t(m_numbered)) {
        // Idle, every PSN is retired: a later PSN was never sent, an earlier one is old news.
        r.ghost = !m_busy ? roce::psn_diff(psn, m_base) >= 0 : true;
        return r;
    }
    if (k < int64_t(m_una)) return r;  // a duplicate ACK
    r.retired = uint64_t(k) + 1 - m_una;
    retire_to(uint64_t(k) + 1);
    if (m_una == m_packets) {
        r.message_done = true;
        m_busy = false;
    }
    return r;
}

roce_requester::nak_result roce_requester::on_nak(uint32_t psn)
{
    nak_result r;
    const int64_t k = index_of(psn);
    if (!m_busy || k >= int64_t(m_numbered)) {
        r.ghost = !m_busy ? roce::psn_diff(psn, m_base) >= 0 : true;
        r.stale = !r.ghost;
        return r;
    }
    if (k < int64_t(m_una)) {
        r.stale = true;
        return r;
    }
    r.retired = uint64_t(k) - m_una;
    retire_to(uint64_t(k));
    r.discarded = rewind(uint64_t(k));
    return r;
}

roce_requester::discard roce_requester::on_timeout()
{
    return rewind(m_una);
}

void roce_requester::sent(uint32_t psn, uint64_t at_ps)
{
    if (!m_busy) return;
    const int64_t k = index_of(psn);
    if (k < int64_t(m_una) || k >= int64_t(m_numbered)) return;
    m_sent_ps[size_t(k - int64_t(m_una))] = at_ps;
}

uint64_t roce_requester::sent_at(uint32_t psn) const
{
    if (!m_busy) return 0;
    const int64_t k = index_of(psn);
    if (k < int64_t(m_una) || k >= int64_t(m_numbered)) return 0;
    return m_sent_ps[size_t(k - int64_t(m_una))];
}

}  // namespace uetsim
