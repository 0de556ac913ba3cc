// A NIC-less host port (Nic.Type raw): sends the packets of its Flows messages at line rate (one
// packet per message in turn) and hands every arriving packet to the Flows scoreboard, so the
// fabric can be exercised with no transport in the way.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

#include "hw/common/ring.h"
#include "hw/link/transmitter.h"
#include "hw/nic/common/host_port_stats.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

class flow_host : public sc_core::sc_module
{
public:
    packet_target_socket in;
    transmitter tx;

    // Builds the next packet of message `m` (returns nullptr when the message has none left).
    using packet_source = std::function<packet*(uint32_t m, bool& more)>;
    using packet_sink = std::function<void(packet&)>;

    flow_host(const sc_core::sc_module_name& name, uint32_t host, packet_source source,
              packet_sink sink);

    // Starts sending message `m`.
    void activate(uint32_t m)
    {
        m_active.push_back(m);
        tx.kick();
    }

    host_port_stats port_stats() const
    {
        host_port_stats s;
        s.tx_packets = tx.packets();
        s.tx_bytes = tx.bytes();
        s.rx_packets = m_rx_packets;
        s.rx_bytes = m_rx_bytes;
        return s;
    }
    uint32_t host() const { return m_host; }

private:
    packet* next();

    uint32_t m_host;
    packet_source m_source;
    packet_sink m_sink;
    ring<uint32_t> m_active;
    uint64_t m_rx_packets = 0;
    uint64_t m_rx_bytes = 0;
};

}  // namespace uetsim
