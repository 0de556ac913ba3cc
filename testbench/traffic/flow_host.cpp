#include "testbench/traffic/flow_host.h"

namespace uetsim {

flow_host::flow_host(const sc_core::sc_module_name& name, uint32_t host, packet_source source,
                     packet_sink sink)
    : sc_core::sc_module(name)
    , in("in")
    , tx("tx", [this]() { return next(); })
    , m_host(host)
    , m_source(std::move(source))
    , m_sink(std::move(sink))
{
    in.on_receive([this](packet& p) {
        ++m_rx_packets;
        m_rx_bytes += p.wire_bytes;
        m_sink(p);
        return sc_core::SC_ZERO_TIME;
    });
}

packet* flow_host::next()
{
    while (!m_active.empty()) {
        const uint32_t m = m_active.front();
        m_active.pop_front();
        bool more = false;
        packet* p = m_source(m, more);
        if (more) m_active.push_back(m);  // round robin over this host's messages
        if (p) return p;
    }
    return nullptr;
}

}  // namespace uetsim
