// TLM-2.0 protocol traits and sockets for Ethernet links carrying uetsim::packet.
//
// Conventions (an AT-style one-way message, no response phase):
//  - A transmitter starts a frame with nb_transport_fw(pkt, BEGIN_REQ, delay=0). The link answers
//    TLM_UPDATED with END_REQ and `delay` = the frame's serialization time: the transmitter may
//    not start its next frame before then (the base protocol's request exclusion rule).
//  - The link delivers the frame to the far end with nb_transport_fw(pkt, BEGIN_REQ, 0) when its
//    last bit arrives (store-and-forward). The receiver takes ownership and returns TLM_COMPLETED.
//  - A link that cannot start the frame yet (LLR: its replay buffer is full, or the wire carries a
//    replay or a control ordered set first) answers TLM_ACCEPTED and keeps the frame; when the
//    frame starts it sends END_REQ on the backward path with `delay` = its serialization time
//    (end_req()), and the transmitter starts its next frame no earlier than that.
//  - Otherwise flow control is modelled by the transmitter's own queue.
#pragma once

#include <functional>
#include <tlm>

#include "tlm/packet.h"

namespace uetsim {

struct packet_protocol
{
    using tlm_payload_type = packet;
    using tlm_phase_type = tlm::tlm_phase;
};

using packet_fw_if = tlm::tlm_fw_transport_if<packet_protocol>;

// What a link's handler returns for a frame it keeps to start later (TLM_ACCEPTED), and what
// send() returns then: the END_REQ comes on the backward path. Compared by value
// (is_end_req_later): building an sc_time asks the kernel, which the per-frame path must not.
inline constexpr sc_dt::uint64 end_req_later_value = ~sc_dt::uint64(0);
inline sc_core::sc_time end_req_later()
{
    return sc_core::sc_time::from_value(end_req_later_value);
}
inline bool is_end_req_later(const sc_core::sc_time& t)
{
    return t.value() == end_req_later_value;
}
using packet_bw_if = tlm::tlm_bw_transport_if<packet_protocol>;

// Initiator side of a packet link. The backward path carries a held frame's END_REQ.
class packet_initiator_socket : public tlm::tlm_initiator_socket<32, packet_protocol>,
                                private packet_bw_if
{
public:
    explicit packet_initiator_socket(const char* name)
        : tlm::tlm_initiator_socket<32, packet_protocol>(name)
    {
        bind(static_cast<packet_bw_if&>(*this));
    }

    // Starts a frame; returns the time until the next frame may start (zero if the target
    // took it at once).
    sc_core::sc_time send(packet& p)
    {
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        if (__builtin_expect((*this)->nb_transport_fw(p, phase, delay) == tlm::TLM_ACCEPTED, 0))
            return end_req_later();
        return delay;
    }
    // Called with the END_REQ of a frame send() returned end_req_later() for: the transmitter
    // may start its next frame after `delay`.
    void on_end_req(std::function<void(const sc_core::sc_time&)> f) { m_end_req = std::move(f); }

private:
    tlm::tlm_sync_enum nb_transport_bw(packet&, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override
    {
        if (phase == tlm::END_REQ && m_end_req) m_end_req(delay);
        return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

    std::function<void(const sc_core::sc_time&)> m_end_req;
};

// Target side of a packet link: hands each arriving packet to a handler.
// The handler returns the time until the target can take the next frame (links use this to
// report serialization time; receivers return zero).
class packet_target_socket : public tlm::tlm_target_socket<32, packet_protocol>,
                             private packet_fw_if
{
public:
    using handler = std::function<sc_core::sc_time(packet&)>;

    explicit packet_target_socket(const char* name)
        : tlm::tlm_target_socket<32, packet_protocol>(name)
    {
        bind(static_cast<packet_fw_if&>(*this));
    }

    void on_receive(handler h) { m_handler = std::move(h); }
    // The END_REQ of a frame the handler kept (returned end_req_later() for): it starts now and
    // the transmitter is free after `delay`.
    void end_req(packet& p, const sc_core::sc_time& delay)
    {
        tlm::tlm_phase phase = tlm::END_REQ;
        sc_core::sc_time d = delay;
        (*this)->nb_transport_bw(p, phase, d);
    }

private:
    tlm::tlm_sync_enum nb_transport_fw(packet& p, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override
    {
        delay = m_handler(p);
        if (delay == sc_core::SC_ZERO_TIME) return tlm::TLM_COMPLETED;
        if (__builtin_expect(is_end_req_later(delay), 0)) {
            delay = sc_core::SC_ZERO_TIME;
            return tlm::TLM_ACCEPTED;
        }
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    void b_transport(packet& p, sc_core::sc_time& delay) override { delay += m_handler(p); }
    bool get_direct_mem_ptr(packet&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(packet&) override { return 0; }

    handler m_handler;
};

}  // namespace uetsim
