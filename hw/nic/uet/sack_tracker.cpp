#include "hw/nic/uet/sack_tracker.h"

#include <algorithm>
#include <stdexcept>

namespace uetsim {

sack_tracker::sack_tracker(uint32_t contexts) : m_contexts(contexts)
{
    if (contexts == 0) throw std::invalid_argument("sack_tracker: no context slots");
}

sack_tracker::~sack_tracker() = default;

std::optional<uint32_t> sack_tracker::open(uint32_t first_psn)
{
    uint32_t slot;
    if (!m_free.empty()) {
        slot = m_free.top();
        m_free.pop();
    } else if (m_receivers.size() < m_contexts) {
        slot = uint32_t(m_receivers.size());
        m_receivers.emplace_back();
    } else {
        return std::nullopt;
    }
    m_receivers[slot] = std::make_unique<pdc_receiver>(first_psn);
    ++m_in_use;
    m_max_in_use = std::max(m_max_in_use, m_in_use);
    on_open(slot, first_psn);
    return slot;
}

void sack_tracker::close(uint32_t slot)
{
    if (slot >= m_receivers.size() || !m_receivers[slot])
        throw std::logic_error("sack_tracker: closing a free slot");
    on_close(slot);
    m_receivers[slot].reset();
    m_free.push(slot);
    --m_in_use;
}

sack_arrival sack_tracker::on_data(uint32_t slot, uint32_t psn)
{
    pdc_receiver& r = *m_receivers[slot];
    const pdc_receiver::arrival a = r.on_data(psn);
    return {a, r.cack()};
}

sack_ack_fields sack_tracker::next_ack(uint32_t slot)
{
    pdc_receiver& r = *m_receivers[slot];
    const uint32_t cack = r.cack();
    const pdc_receiver::sack s = r.next_sack();
    return {cack, s.base, s.bitmap};
}

}  // namespace uetsim
