#include "hw/nic/uet/pdc_receiver.h"

#include <algorithm>

#include "hw/nic/uet/psn.h"

namespace uetsim {

bool pdc_receiver::received_beyond(uint32_t off) const
{
    const uint32_t w = off / 64;
    return w < m_window.size() && ((m_window[w] >> (off % 64)) & 1u);
}

void pdc_receiver::set_beyond(uint32_t off)
{
    const uint32_t w = off / 64;
    if (w >= m_window.size()) m_window.resize(w + 1, 0);
    m_window[w] |= uint64_t(1) << (off % 64);
    m_span = std::max(m_span, off + 1);
}

void pdc_receiver::advance()
{
    // Shift the window by one PSN per received packet at its head (rarely more than a few).
    do {
        ++m_expected;
        uint64_t carry = 0;
        for (size_t i = m_window.size(); i-- > 0;) {
            const uint64_t next_carry = m_window[i] & 1u;
            m_window[i] = (m_window[i] >> 1) | (carry << 63);
            carry = next_carry;
        }
        if (m_span) --m_span;
        if (received_beyond(0)) {
            --m_held;
            continue;
        }
        break;
    } while (true);
    while (!m_window.empty() && m_window.back() == 0) m_window.pop_back();
}

pdc_receiver::arrival pdc_receiver::on_data(uint32_t p)
{
    const int32_t d = psn::diff(p, m_expected);
    if (d < 0) {
        ++m_dups;
        return arrival::duplicate;
    }
    if (d == 0) {
        advance();
        return arrival::in_order;
    }
    if (received_beyond(uint32_t(d))) {
        ++m_dups;
        return arrival::duplicate;
    }
    set_beyond(uint32_t(d));
    ++m_held;
    ++m_ooo_events;
    m_max_held = std::max(m_max_held, m_held);
    return arrival::out_of_order;
}

pdc_receiver::sack pdc_receiver::next_sack()
{
    const uint32_t base = m_expected;
    if (m_held == 0) return {base, 0};
    const uint32_t blocks = (m_span + sack_bits - 1) / sack_bits;
    const uint32_t b = m_block++ % blocks;
    return {base + b * sack_bits, b < m_window.size() ? m_window[b] : 0};
}

}  // namespace uetsim
