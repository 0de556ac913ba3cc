#include "hw/switch/routing_table.h"

#include <algorithm>
#include <stdexcept>

namespace uetsim {

void routing_table::add_route(uint32_t host, std::vector<uint16_t> ports)
{
    if (ports.empty()) throw std::invalid_argument("routing_table: empty equal-cost set");
    std::sort(ports.begin(), ports.end());
    int32_t set = no_route;
    for (size_t s = 0; s < m_set_begin.size() && set == no_route; ++s) {
        if (m_set_size[s] != ports.size()) continue;
        if (std::equal(ports.begin(), ports.end(), m_members.begin() + m_set_begin[s]))
            set = int32_t(s);
    }
    if (set == no_route) {
        set = int32_t(m_set_begin.size());
        m_set_begin.push_back(uint32_t(m_members.size()));
        m_set_size.push_back(uint32_t(ports.size()));
        m_members.insert(m_members.end(), ports.begin(), ports.end());
    }
    if (host >= m_set_of_host.size()) m_set_of_host.resize(host + 1, no_route);
    m_set_of_host[host] = set;
}

}  // namespace uetsim
