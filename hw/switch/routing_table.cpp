#include "hw/switch/routing_table.h"

#include <algorithm>
#include <stdexcept>

namespace uetsim {

int32_t routing_table::find_set(const std::vector<uint16_t>& ports) const
{
    for (size_t s = 0; s < m_set_begin.size(); ++s) {
        if (m_set_size[s] != ports.size()) continue;
        if (std::equal(ports.begin(), ports.end(), m_members.begin() + m_set_begin[s]))
            return int32_t(s);
    }
    return no_route;
}

int32_t routing_table::add_set(const std::vector<uint16_t>& ports)
{
    if (ports.empty()) throw std::invalid_argument("routing_table: empty equal-cost set");
    const int32_t set = int32_t(m_set_begin.size());
    m_set_begin.push_back(uint32_t(m_members.size()));
    m_set_size.push_back(uint32_t(ports.size()));
    m_members.insert(m_members.end(), ports.begin(), ports.end());
    return set;
}

void routing_table::add_route(uint32_t host, std::vector<uint16_t> ports)
{
    if (ports.empty()) throw std::invalid_argument("routing_table: empty equal-cost set");
    if (m_computed) throw std::logic_error("routing_table: add_route on a computed table");
    std::sort(ports.begin(), ports.end());
    int32_t set = find_set(ports);
    if (set == no_route) set = add_set(ports);
    if (host >= m_set_of_host.size()) m_set_of_host.resize(host + 1, no_route);
    m_set_of_host[host] = set;
}

}  // namespace uetsim
