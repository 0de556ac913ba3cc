// Routes of one switch, precomputed at elaboration into flat arrays: destination host ->
// equal-cost set -> member egress ports. Destinations whose routes start on the same list of
// ports share one set (the switch pages' definition).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace uetsim {

class routing_table
{
public:
    static constexpr int32_t no_route = -1;

    // Adds the route to `host` over `ports` (sorted, non-empty); reuses an identical set.
    void add_route(uint32_t host, std::vector<uint16_t> ports);

    int32_t set_of(uint32_t host) const
    {
        return host < m_set_of_host.size() ? m_set_of_host[host] : no_route;
    }
    size_t set_count() const { return m_set_begin.size(); }
    size_t set_size(int32_t set) const { return m_set_size[size_t(set)]; }
    uint16_t member_port(int32_t set, size_t member) const
    {
        return m_members[m_set_begin[size_t(set)] + member];
    }
    // Flat index of (set, member) over all sets: for per-member counters.
    size_t member_slot(int32_t set, size_t member) const
    {
        return m_set_begin[size_t(set)] + member;
    }
    size_t member_slots() const { return m_members.size(); }

private:
    std::vector<int32_t> m_set_of_host;
    std::vector<uint32_t> m_set_begin;
    std::vector<uint32_t> m_set_size;
    std::vector<uint16_t> m_members;
};

}  // namespace uetsim
