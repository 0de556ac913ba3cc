#include "hw/nic/uet/pdc_sender.h"

#include "hw/nic/uet/psn.h"

namespace uetsim {

sent_packet& pdc_sender::assign(uint64_t message, uint64_t offset, uint32_t payload,
                                uint32_t nominal, bool last)
{
    // The window and the 64 bits an ACK reads past it never wrap onto each other.
    if (uint64_t(m_next - m_base) + 64 >= m_retired_bits.size() * 64) grow_retired_bits();
    m_retired_bits[(m_next >> 6) & (m_retired_bits.size() - 1)] &= ~(uint64_t(1) << (m_next & 63));
    sent_packet p;
    p.psn = m_next++;
    p.message = uint32_t(message);
    p.offset = offset;
    p.payload = payload;
    p.nominal = nominal;
    p.last = last;
    m_packets.push_back(p);
    return m_packets.back();
}

sent_packet* pdc_sender::find(uint32_t p)
{
    const int32_t d = psn::diff(p, m_base);
    if (d < 0 || size_t(d) >= m_packets.size()) return nullptr;
    return &m_packets[size_t(d)];
}

void pdc_sender::retire(sent_packet& p, std::vector<sent_packet*>& retired)
{
    if (p.retired) return;
    p.retired = true;
    m_retired_bits[(p.psn >> 6) & (m_retired_bits.size() - 1)] |= uint64_t(1) << (p.psn & 63);
    retired.push_back(&p);
}

uint64_t pdc_sender::retired_span(uint32_t psn) const
{
    const size_t mask = m_retired_bits.size() - 1;
    const size_t w = (psn >> 6) & mask;
    const unsigned o = psn & 63;
    const uint64_t lo = m_retired_bits[w] >> o;
    return o ? lo | (m_retired_bits[(w + 1) & mask] << (64 - o)) : lo;
}

void pdc_sender::grow_retired_bits()
{
    std::vector<uint64_t> bits(m_retired_bits.size() * 2);
    const size_t mask = bits.size() - 1;
    for (const sent_packet& p : m_packets)
        if (p.retired) bits[(p.psn >> 6) & mask] |= uint64_t(1) << (p.psn & 63);
    m_retired_bits.swap(bits);
}

void pdc_sender::release_retired()
{
    while (!m_packets.empty() && m_packets.front().retired) {
        m_packets.pop_front();
        ++m_base;
    }
}

void pdc_sender::on_ack(uint32_t cack, uint32_t sack_base, uint64_t bitmap,
                        std::vector<sent_packet*>& retired)
{
    // Cumulative part: every PSN at or below the CACK.
    const auto end = m_packets.end();
    for (auto it = m_packets.begin(); it != end && psn::at_or_before(it->psn, cack); ++it)
        retire(*it, retired);
    // Selective part: the set bits in PSN order, each straight at its place in the window (an
    // ACK sets about as many bits as packets arrive out of order: a lookup per bit was the cost).
    const int64_t base = psn::diff(sack_base, m_base);
    const size_t n = m_packets.size();
    bitmap &= ~retired_span(sack_base);  // what is retired already needs nothing
    while (bitmap != 0) {
        const int64_t d = base + __builtin_ctzll(bitmap);
        bitmap &= bitmap - 1;
        if (d < 0) continue;
        if (size_t(d) >= n) break;  // the later bits lie further past the window
        retire(m_packets[size_t(d)], retired);
    }
}

sent_packet* pdc_sender::on_loss(uint32_t p)
{
    sent_packet* s = find(p);
    if (!s || s->retired || !s->in_flight) return nullptr;
    s->in_flight = false;
    if (!s->rtx_queued) {
        s->rtx_queued = true;
        m_rtx.push_back(s->psn);
    }
    return s;
}

bool pdc_sender::go_back(uint32_t from, std::vector<sent_packet*>& left_flight)
{
    sent_packet* first = find(from);
    if (!first || first->retired || !first->in_flight) return false;
    // The queue keeps what waits before `from`; the packets from it on follow in PSN order.
    ring<uint32_t> older;
    m_rtx.for_each([&](uint32_t q) {
        if (psn::diff(q, from) < 0)
            older.push_back(q);
        else if (sent_packet* s = find(q))
            s->rtx_queued = false;
    });
    m_rtx = older;
    for (size_t i = size_t(psn::diff(from, m_base)); i < m_packets.size(); ++i) {
        sent_packet& s = m_packets[i];
        if (s.retired || s.tx_count == 0) continue;  // acknowledged, or fetched and never sent
        if (s.in_flight) {
            s.in_flight = false;
            left_flight.push_back(&s);
        }
        s.rtx_queued = true;
        m_rtx.push_back(s.psn);
    }
    return true;
}

sent_packet* pdc_sender::peek_retransmission()
{
    while (!m_rtx.empty()) {
        sent_packet* s = find(m_rtx.front());
        if (s && !s->retired && s->rtx_queued) return s;
        m_rtx.pop_front();  // acknowledged meanwhile
        if (s) s->rtx_queued = false;
    }
    return nullptr;
}

sent_packet* pdc_sender::take_retransmission()
{
    sent_packet* s = peek_retransmission();
    if (s) {
        m_rtx.pop_front();
        s->rtx_queued = false;
    }
    return s;
}

}  // namespace uetsim
