#include "hw/nic/uet/pdc_table.h"

#include <algorithm>

namespace uetsim {

pdc_table::pdc_table(bool groups_enabled) : m_groups_enabled(groups_enabled) {}

uint16_t pdc_table::allocate_id()
{
    if (!m_free_ids.empty()) {
        const uint16_t id = m_free_ids.back();
        m_free_ids.pop_back();
        return id;
    }
    if (m_next_id > last_id) return 0;
    return m_next_id++;
}

sender_pdc& pdc_table::open(uint16_t id, uint32_t dst, uint32_t dst_ip, uint32_t first_psn,
                            uint64_t message)
{
    // Grown as ids are first used: a NIC pays for the PDCs it opens, not for all 32,767.
    if (id >= m_pdcs.size()) m_pdcs.resize(size_t(id) + 1);
    if (!m_pdcs[id]) m_pdcs[id] = std::make_unique<sender_pdc>();
    sender_pdc& p = *m_pdcs[id];
    p = sender_pdc{};
    p.id = id;
    p.dst = dst;
    p.dst_ip = dst_ip;
    p.first_psn = first_psn;
    p.st = pdc_sender(first_psn);
    p.message = message;
    p.open = true;
    return p;
}

uint32_t pdc_table::group_for(uint32_t dst, bool& created)
{
    created = false;
    if (m_groups_enabled) {
        auto it = m_group_of_dst.find(dst);
        if (it != m_group_of_dst.end()) return it->second;
    }
    uint32_t g;
    if (!m_free_groups.empty()) {
        g = m_free_groups.back();
        m_free_groups.pop_back();
    } else {
        g = uint32_t(m_groups.size());
        m_groups.emplace_back();
    }
    pdc_group& grp = m_groups[g];
    grp = pdc_group{};
    grp.alive = true;
    grp.dst = dst;
    if (m_groups_enabled) m_group_of_dst[dst] = g;
    created = true;
    return g;
}

bool pdc_table::close(sender_pdc& p, bool peer_sending, bool hold_id)
{
    p.open = false;
    pdc_group& g = m_groups[p.group];
    g.pdcs.erase(std::find(g.pdcs.begin(), g.pdcs.end(), p.id));
    if (p.kept_open) m_pdc_of_queue_pair.erase(p.queue_pair);
    if (!hold_id) m_free_ids.push_back(p.id);
    if (!g.pdcs.empty() || (m_groups_enabled && peer_sending)) return false;
    retire_group(p.group);
    return true;
}

std::optional<uint32_t> pdc_table::peer_idle(uint32_t dst)
{
    if (!m_groups_enabled) return std::nullopt;  // receiving ends join no group then
    auto it = m_group_of_dst.find(dst);
    if (it == m_group_of_dst.end() || !m_groups[it->second].pdcs.empty()) return std::nullopt;
    const uint32_t g = it->second;
    retire_group(g);
    return g;
}

void pdc_table::retire_group(uint32_t gi)
{
    pdc_group& g = m_groups[gi];
    g.alive = false;
    g.cc.reset();
    if (m_groups_enabled) m_group_of_dst.erase(g.dst);
    m_free_groups.push_back(gi);
}

}  // namespace uetsim
