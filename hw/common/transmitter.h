// The transmit side of a port: pulls the next frame from its owner's queue whenever the link is
// free, and sends it. One pending event per port at most, and only while it is sending.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

#include "hw/common/wakeup.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

class transmitter : public sc_core::sc_module
{
public:
    packet_initiator_socket out;

    // Returns the next frame to send, or nullptr when there is none.
    using source = std::function<packet*()>;

    transmitter(const sc_core::sc_module_name& name, source next);

    // Tells the transmitter a frame may be waiting; sends at once if the link is free.
    void kick()
    {
        if (!m_sending) start_next();
    }

    // Called when a frame's serialization ends, before the next frame is pulled.
    void on_frame_done(std::function<void()> f) { m_done = std::move(f); }

    bool sending() const { return m_sending; }
    uint64_t packets() const { return m_packets; }
    uint64_t bytes() const { return m_bytes; }

private:
    void start_next();
    void on_free();

    source m_next;
    std::function<void()> m_done;
    wakeup m_free{[this] { on_free(); }};
    bool m_sending = false;
    uint64_t m_packets = 0;
    uint64_t m_bytes = 0;
};

}  // namespace uetsim
