#include "hw/nic/common/nic_rx_buffer.h"

namespace uetsim {

nic_rx_buffer::nic_rx_buffer(const nic_ingress_settings& s) : m_classes(s.classes())
{
    for (int c = 0; c < m_classes; ++c) {
        m_pool[c] = s.pool_bytes(c);
        m_xoff[c] = s.xoff_bytes(c);
        m_xon[c] = s.xon_bytes(c);
        m_pfc_enable[c] = s.pfc_enable[c];
    }
}

void nic_rx_buffer::release_at(int c, uint32_t bytes, uint64_t due_ps)
{
    if (c >= m_classes) return;
    if (!m_line.empty() && due_ps < m_line.at(m_line.size() - 1).due_ps)
        due_ps = m_line.at(m_line.size() - 1).due_ps;
    m_line.push_back(pending{due_ps, bytes, uint8_t(c)});
}

uint8_t nic_rx_buffer::drain(uint64_t now_ps)
{
    uint8_t xon = 0;
    while (!m_line.empty() && m_line.front().due_ps <= now_ps) {
        const pending p = m_line.front();
        m_line.pop_front();
        if (release(p.cls, p.bytes)) xon |= uint8_t(1u << p.cls);
    }
    return xon;
}

nic_pool_sample nic_rx_buffer::sample(int c, uint64_t now_ps) const
{
    if (c >= m_classes) return {};
    nic_pool_counters n = m_counters ? (*m_counters)[size_t(c)] : nic_pool_counters{};
    uint64_t occupancy = m_occupancy[c];
    for (size_t i = 0; i < m_line.size() && m_line.at(i).due_ps <= now_ps; ++i)
        if (m_line.at(i).cls == c) {
            occupancy -= m_line.at(i).bytes;
            n.released(m_line.at(i).bytes);
        }
    return n.sample(m_pool[c], occupancy, m_drops[c]);
}

void nic_rx_buffer::start_interval(uint64_t now_ps)
{
    if (!m_counters) return;
    for (int c = 0; c < m_classes; ++c)
        (*m_counters)[size_t(c)].start_interval(sample(c, now_ps).occupancy);
}

bool nic_rx_buffer::any_pause_outstanding() const
{
    for (int c = 0; c < m_classes; ++c)
        if (m_paused[c]) return true;
    return false;
}

bool nic_rx_buffer::any_pfc() const
{
    for (int c = 0; c < m_classes; ++c)
        if (m_pfc_enable[c]) return true;
    return false;
}

}  // namespace uetsim
