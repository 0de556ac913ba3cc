// The sending side of one reliable connected queue pair (RoCE transport page), without the
// kernel: its current message cut into MSS segments, three cursors over them (the next segment
// to generate, i.e. reserve and fetch; the next to number, whose payload has arrived; the oldest
// outstanding, numbered and not acknowledged), cumulative retirement on ACKs, go-back-N on NAKs
// and transport timer expiries, ghost ACK detection, and each outstanding PSN's send time for
// the RTT sample. PSNs are 24-bit and continue from one message to the next.
#pragma once

#include <cstdint>
#include <deque>

#include "hw/nic/roce/roce_opcodes.h"
#include "hw/nic/roce/roce_psn.h"

namespace uetsim {

// One segment handed to packet generation.
struct roce_segment
{
    uint64_t index = 0;   // in its message
    uint64_t offset = 0;  // of its payload in the message
    uint32_t payload = 0;
    uint32_t psn = 0;  // the PSN it gets when numbered (unless a rewind makes it stale first)
    uint8_t opcode = 0;
    bool last = false;   // carries the solicited-event flag
    uint32_t epoch = 0;  // the requester's epoch it was generated in
};

class roce_requester
{
public:
    roce_requester(uint32_t first_psn, uint32_t mss)
        : m_base(first_psn & roce::psn_mask), m_mss(mss)
    {
    }

    // Starts a message of `bytes` (none may be in progress): ceil(bytes / MSS) packets, one
    // for an empty message.
    void start_message(uint64_t bytes, roce::verb v);
    // A message is in progress (started, not every PSN acknowledged).
    bool busy() const { return m_busy; }
    uint64_t packets() const { return m_packets; }
    uint64_t message_bytes() const { return m_bytes; }

    // Packet generation: a segment is left to reserve and fetch.
    bool has_segment() const { return m_busy && m_generated < m_packets; }
    // The payload of the segment next_segment() gives.
    uint32_t next_payload() const { return payload_of(m_generated); }
    // The next segment (the generation cursor moves on). Its payload is fetched; number() when
    // it arrives.
    roce_segment next_segment();
    // Segments generated whose payload has not arrived (not numbered).
    uint64_t fetching() const { return m_generated - m_numbered; }
    // Changes on every rewind: a segment generated in an earlier epoch is stale.
    uint32_t epoch() const { return m_epoch; }

    // The payload of the oldest segment being fetched arrived: it gets its PSN. True when the
    // PSN entered an empty window (the transport timer starts).
    bool number();

    struct ack_result
    {
        bool ghost = false;  // names a PSN not numbered yet: discarded
        uint64_t retired = 0;
        bool message_done = false;  // the last PSN is retired
    };
    // A cumulative ACK naming `psn`, the highest PSN the receiver has in order.
    ack_result on_ack(uint32_t psn);

    // What a rewind made stale: segments generated and not numbered (their payload is
    // discarded and their egress reservations given back).
    struct discard
    {
        uint64_t segments = 0;
        uint64_t payload_bytes = 0;
    };
    struct nak_result
    {
        bool ghost = false;
        bool stale = false;    // names a PSN already retired: nothing to do
        uint64_t retired = 0;  // PSNs below the named one
        discard discarded;
    };
    // A NAK naming `psn`, the PSN the receiver expects: retire below it, rewind to it.
    nak_result on_nak(uint32_t psn);
    // The transport timer expired: rewind to the oldest outstanding PSN.
    discard on_timeout();

    // Outstanding PSNs: numbered and not acknowledged (the window).
    uint64_t outstanding() const { return m_numbered - m_una; }
    // Payload bytes of those segments (every segment but the last carries MSS).
    uint64_t outstanding_bytes() const { return offset_of(m_numbered) - offset_of(m_una); }
    bool window_empty() const { return m_numbered == m_una; }
    uint32_t oldest_outstanding_psn() const { return psn_of(m_una); }
    // The PSN the next segment numbered gets.
    uint32_t next_psn() const { return psn_of(m_numbered); }
    // The first PSN of the current message (or of the next one when idle).
    uint32_t first_psn() const { return m_first; }

    // An outstanding PSN's serialization ended at `at_ps` (ignored when not outstanding).
    void sent(uint32_t psn, uint64_t at_ps);
    // When the outstanding `psn` was last serialized (0: not outstanding or not sent yet).
    uint64_t sent_at(uint32_t psn) const;

private:
    uint32_t psn_of(uint64_t index) const { return roce::psn_add(m_first, int64_t(index)); }
    // The window index of `psn` relative to the oldest outstanding one (negative: retired).
    int64_t index_of(uint32_t psn) const
    {
        return int64_t(m_una) + roce::psn_diff(psn, psn_of(m_una));
    }
    discard rewind(uint64_t index);
    uint32_t payload_of(uint64_t index) const;
    uint64_t offset_of(uint64_t index) const
    {
        return index * m_mss < m_bytes ? index * m_mss : m_bytes;
    }
    void retire_to(uint64_t index);  // every index below `index` is acknowledged

    uint32_t m_base;  // the first PSN of the next message
    uint32_t m_mss;
    uint32_t m_first = 0;
    bool m_busy = false;
    roce::verb m_verb = roce::verb::rdma_write;
    uint64_t m_bytes = 0, m_packets = 0;
    uint64_t m_generated = 0, m_numbered = 0, m_una = 0;
    uint32_t m_epoch = 0;
    std::deque<uint64_t> m_sent_ps;  // per outstanding PSN, from the oldest
};

}  // namespace uetsim
