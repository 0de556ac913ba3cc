#include "hw/common/transmitter.h"

#include "hw/common/activity.h"

namespace uetsim {

transmitter::transmitter(const sc_core::sc_module_name& name, source next)
    : sc_core::sc_module(name), out("out"), m_next(std::move(next))
{
}

void transmitter::start_next()
{
    packet* p = m_next();
    if (!p) {
        m_sending = false;
        return;
    }
    m_sending = true;
    ++m_packets;
    m_bytes += p->wire_bytes;
    // The link owns the frame from here; its END_REQ delay is the serialization time.
    m_free.notify(out.send(*p));
}

void transmitter::on_free()
{
    activity::tick();
    if (m_done) m_done();
    start_next();
}

}  // namespace uetsim
