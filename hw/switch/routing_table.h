// Routes of one switch, precomputed at elaboration into flat arrays: destination host ->
// equal-cost set -> member egress ports. Destinations whose routes start on the same list of
// ports share one set (the switch pages' definition).
// Two ways to map a host to its set: a table per destination host (add_route, any topology),
// or, where the topology lets it be computed (leaf-spine, fat-tree), a rule of a few words
// (host_blocks): a switch then stores its sets and members only, not a word per host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace uetsim {

// Hosts [first, first + count) reach the switch's sets first_set, first_set + 1, ... in blocks of
// `block` hosts (a port per host on a leaf, per edge on an aggregation switch, per pod on a
// core); every other host below `hosts` reaches other_set (the uplinks), or no_route.
struct host_blocks
{
    uint32_t hosts = 0;
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t block = 1;
    int32_t first_set = 0;
    int32_t other_set = -1;
};

class routing_table
{
public:
    static constexpr int32_t no_route = -1;

    // Adds the route to `host` over `ports` (sorted, non-empty); reuses an identical set.
    void add_route(uint32_t host, std::vector<uint16_t> ports);

    // A new set over `ports` (sorted, non-empty), numbered in the order added.
    int32_t add_set(const std::vector<uint16_t>& ports);
    // Hosts map to sets by `rule` instead of a table (sets added with add_set).
    void map_hosts(const host_blocks& rule)
    {
        m_rule = rule;
        m_computed = true;
        m_set_of_host.clear();
    }
    bool computed() const { return m_computed; }

    int32_t set_of(uint32_t host) const
    {
        if (m_computed) {
            if (host >= m_rule.hosts) return no_route;
            const uint32_t d = host - m_rule.first;  // wraps below `first`
            return d < m_rule.count ? m_rule.first_set + int32_t(d / m_rule.block)
                                    : m_rule.other_set;
        }
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
    // Bytes held (the scale estimate and its test).
    size_t bytes() const
    {
        return m_set_of_host.capacity() * sizeof(int32_t) +
               m_set_begin.capacity() * sizeof(uint32_t) +
               m_set_size.capacity() * sizeof(uint32_t) + m_members.capacity() * sizeof(uint16_t);
    }

private:
    int32_t find_set(const std::vector<uint16_t>& ports) const;

    bool m_computed = false;
    host_blocks m_rule;
    std::vector<int32_t> m_set_of_host;
    std::vector<uint32_t> m_set_begin;
    std::vector<uint32_t> m_set_size;
    std::vector<uint16_t> m_members;
};

}  // namespace uetsim
