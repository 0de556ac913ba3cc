// The sending end of a PDC: PSN assignment, the packets sent and not yet acknowledged, their
// retirement by cumulative and selective ACKs, and the retransmission queue fed by trim NACKs
// and timeouts. Pure logic: the NIC module wraps it and owns time and the wire.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "hw/common/ring.h"

namespace uetsim {

struct sent_packet
{
    uint32_t psn = 0;
    uint32_t message = 0;  // the NIC's message (WQE) slot: bounded by the messages in flight
    uint64_t offset = 0;   // payload offset in the message
    uint32_t payload = 0;
    uint32_t nominal = 0;  // payload + 88: the congestion-window unit
    uint16_t entropy = 0;
    uint8_t tx_count = 0;    // transmissions so far (1 = first)
    bool last = false;       // ends its message
    bool in_flight = false;  // counted in the group's bytes in flight
    bool retired = false;    // acknowledged
    bool rtx_queued = false;
    uint64_t sent_end_ps = 0;  // end of the latest serialization

    // An ACK or NACK of this packet gives an RTT sample: it is still outstanding, it has
    // finished serializing, and it was sent once or re-sent once (NSCC's sample rule).
    bool gives_rtt_sample() const
    {
        return !retired && tx_count > 0 && tx_count <= 2 && sent_end_ps != 0;
    }
};

class pdc_sender
{
public:
    pdc_sender() = default;
    explicit pdc_sender(uint32_t first_psn) : m_base(first_psn), m_next(first_psn) {}

    // A new segment takes the next PSN (at fetch issue).
    sent_packet& assign(uint64_t message, uint64_t offset, uint32_t payload, uint32_t nominal,
                        bool last);

    sent_packet* find(uint32_t psn);
    uint32_t next_psn() const { return m_next; }
    uint32_t oldest_unacked() const { return m_base; }
    bool idle() const { return m_packets.empty(); }

    // Applies an ACK; every packet it newly retires is appended to `retired`. The pointers stay
    // valid until release_retired(), which drops the acknowledged head of the window.
    void on_ack(uint32_t cack, uint32_t sack_base, uint64_t bitmap,
                std::vector<sent_packet*>& retired);
    void release_retired();

    // A trim NACK or a timeout for `psn`: returns the packet if it was still in flight (it then
    // leaves the bytes in flight and joins the retransmission queue), nullptr otherwise.
    sent_packet* on_loss(uint32_t psn);

    // ROD go-back-N from `psn`: every packet from it on that was sent and is not acknowledged
    // joins the retransmission queue, in PSN order behind the older ones waiting; those in
    // flight leave it and are appended to `left_flight`. False (nothing done) when the packet of
    // `psn` is not in flight: a loss already sent it back.
    bool go_back(uint32_t psn, std::vector<sent_packet*>& left_flight);

    bool has_retransmission() const { return !m_rtx.empty(); }
    size_t retransmissions_pending() const { return m_rtx.size(); }
    // The oldest waiting retransmission (removes it from the queue).
    sent_packet* take_retransmission();
    sent_packet* peek_retransmission();

private:
    void retire(sent_packet& p, std::vector<sent_packet*>& retired);
    // The retired flags of the 64 PSNs from `psn` on, as a SACK bitmap's bits: exact for those in
    // the window, arbitrary for the others (an ACK skips those anyway).
    uint64_t retired_span(uint32_t psn) const;
    void grow_retired_bits();

    uint32_t m_base = 0;  // PSN of m_packets.front()
    uint32_t m_next = 0;
    std::deque<sent_packet> m_packets;  // PSNs m_base .. m_next - 1
    // Bit (PSN mod its size): the packet of that PSN is retired. An ACK repeats the SACK bits of
    // every packet received out of order until the CACK passes them; masked with these, only the
    // bits it newly sets are walked, without touching the packets of the others.
    std::vector<uint64_t> m_retired_bits = std::vector<uint64_t>(4);  // a power of two words
    ring<uint32_t> m_rtx;
};

}  // namespace uetsim
