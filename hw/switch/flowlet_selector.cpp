#include "hw/switch/flowlet_selector.h"

#include <algorithm>

namespace uetsim {

namespace {

bool hashable(uint8_t protocol)
{
    return protocol == 17 || protocol == 6;  // UDP, TCP (flow_hash.h)
}

}  // namespace

flowlet_selector::flowlet_selector(ecmp_hash_method method, uint32_t salt,
                                   const flowlet_config& cfg, const routing_table& routes,
                                   const member_view& view, random_stream rng)
    : m_method(method)
    , m_salt(salt)
    , m_cfg(cfg)
    , m_routes(routes)
    , m_view(view)
    , m_rng(rng)
    , m_table_of_set(routes.set_count(), not_seen)
    , m_stats(routes.member_slots())
{
}

int32_t flowlet_selector::table_of(int32_t set)
{
    int32_t& t = m_table_of_set[size_t(set)];
    if (t == not_seen) {
        const size_t tables = m_slots.size() / slots_per_set;
        if (tables < sets_with_slots) {
            t = int32_t(tables);
            m_slots.resize(m_slots.size() + slots_per_set);
        } else {
            t = no_table;
        }
    }
    return t;
}

size_t flowlet_selector::flow_table_slots(int32_t set) const
{
    return m_table_of_set[size_t(set)] >= 0 ? slots_per_set : 0;
}

size_t flowlet_selector::select(const packet& p, uint8_t tc, int32_t set, size_t members,
                                uint64_t now_ps)
{
    m_pending.valid = false;
    const flow_key k = flow_key_of(p);
    // Other protocols share one flow identity (hash 0), as under none.
    const uint16_t h = !hashable(k.protocol) ? 0
                       : m_hasher        ? m_hasher->hash16(m_method, k, m_salt)
                                         : flow_hash16(m_method, k, m_salt);
    const int32_t table = table_of(set);
    if (table == no_table) return select_member(m_method, k, m_salt, members);
    const size_t index = size_t(table) * slots_per_set + h % slots_per_set;
    const slot& s = m_slots[index];
    m_pending.slot_index = index;
    m_pending.set = set;
    m_pending.chose_paused = false;
    m_skipped.clear();
    if (s.used && now_ps - s.last_admitted_ps < m_cfg.gap_ps) {
        m_pending.kind = decision::keep;
        m_pending.member = s.member;
    } else {
        m_pending.kind = s.used ? decision::reselect : decision::assign;
        m_pending.member = uint16_t(choose(set, members, tc, s));
    }
    m_pending.valid = true;
    return m_pending.member;
}

size_t flowlet_selector::choose(int32_t set, size_t members, uint8_t tc, const slot& s)
{
    // Candidates: with PFCAware, the members PFC has not paused for the class, unless that is
    // none of them.
    size_t paused = 0;
    if (m_cfg.pfc_aware)
        for (size_t m = 0; m < members; ++m)
            if (m_view.paused(m_routes.member_port(set, m), tc)) {
                m_skipped.push_back(uint16_t(m));
                ++paused;
            }
    if (paused == members) m_skipped.clear();  // all paused: every member is a candidate
    uint64_t least = UINT64_MAX;
    m_least.clear();
    size_t next_skip = 0;
    for (size_t m = 0; m < members; ++m) {
        if (next_skip < m_skipped.size() && m_skipped[next_skip] == m) {
            ++next_skip;
            continue;
        }
        const uint64_t bytes = m_view.egress_bytes(m_routes.member_port(set, m));
        if (bytes < least) {
            least = bytes;
            m_least.clear();
        }
        if (bytes == least) m_least.push_back(uint16_t(m));
    }
    size_t chosen;
    if (s.used && std::find(m_least.begin(), m_least.end(), s.member) != m_least.end())
        chosen = s.member;  // the current member is at the least occupancy: stay
    else
        chosen = m_least.size() == 1 ? m_least[0] : m_least[m_rng.below(m_least.size())];
    m_pending.chose_paused = m_view.paused(m_routes.member_port(set, chosen), tc);
    return chosen;
}

void flowlet_selector::admitted(uint64_t now_ps)
{
    if (!m_pending.valid) return;  // a set without a table: nothing to commit
    m_pending.valid = false;
    slot& s = m_slots[m_pending.slot_index];
    const int32_t set = m_pending.set;
    if (m_pending.kind != decision::keep) {
        auto& to = m_stats[m_routes.member_slot(set, m_pending.member)];
        if (m_pending.kind == decision::assign) {
            ++to.assignments;
        } else if (s.member != m_pending.member) {
            ++to.movements_in;
            ++m_stats[m_routes.member_slot(set, s.member)].movements_out;
        }
        if (m_pending.chose_paused) ++to.paused_selections;
        for (uint16_t m : m_skipped) ++m_stats[m_routes.member_slot(set, m)].paused_skips;
        s.member = m_pending.member;
        s.used = true;
    }
    s.last_admitted_ps = now_ps;
}

}  // namespace uetsim
