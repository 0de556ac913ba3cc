// The receiving side of one reliable connected queue pair (RoCE transport page), without the
// kernel: the expected PSN, duplicates, one NAK per gap and the discards behind it (no reorder
// buffer), and the acknowledgement coalescing rules: by count (AckThreshold held packets, the
// next one is acknowledged), at once on the solicited-event flag (the last packet of a message),
// and by the AckDelay timer (started when a packet is held and the timer is not running,
// restarted by every ACK the count or the flag sends, never extended by later packets; on expiry
// it acknowledges the held packets). A NAK cancels the held acknowledgement.
#pragma once

#include <cstdint>

#include "hw/nic/roce/roce_psn.h"

namespace uetsim {

struct roce_ack_policy
{
    bool coalescing = true;             // AckCoalescingEnabled
    uint32_t threshold = 16;            // AckThreshold
    uint64_t delay_ps = 1'000'000'000;  // AckDelay
};

class roce_responder
{
public:
    roce_responder(uint32_t expected_psn, const roce_ack_policy& policy)
        : m_expected(expected_psn & roce::psn_mask), m_policy(policy)
    {
    }

    enum class arrival {
        in_order,   // the expected PSN: accepted, written to the host
        duplicate,  // lower: acknowledged by the rules, not written again
        gap,        // higher, the first since the last in-order packet: NAK, discarded
        after_nak,  // higher while a NAK is outstanding: discarded, no NAK
    };
    struct verdict
    {
        arrival what = arrival::in_order;
        bool ack = false;          // send an ACK naming ack_psn() now
        bool nak = false;          // send a NAK naming expected_psn() now
        bool timer_armed = false;  // the timer (re)started: a new ack_deadline_ps()
    };
    // A data packet with `psn` (`solicited`: the solicited-event flag) arrived at `now_ps`.
    verdict on_data(uint32_t psn, bool solicited, uint64_t now_ps);
    // The acknowledgement timer reached ack_deadline_ps(): true when an ACK for the held
    // packets goes now. The timer stops either way.
    bool on_ack_timer();

    uint32_t expected_psn() const { return m_expected; }
    // What an ACK names: the highest PSN received in order.
    uint32_t ack_psn() const { return roce::psn_add(m_expected, -1); }
    uint32_t held() const { return m_held; }
    // Messages received in full (their last packet in order), 24 b: the AETH's MSN.
    uint32_t msn() const { return m_msn; }
    bool nak_outstanding() const { return m_nak_outstanding; }
    bool ack_timer_running() const { return m_running; }
    // When the acknowledgement timer expires (while it runs).
    uint64_t ack_deadline_ps() const { return m_deadline; }

private:
    // The acknowledgement rules for an in-order or duplicate packet.
    void coalesce(bool solicited, uint64_t now_ps, verdict& v);

    uint32_t m_expected;
    roce_ack_policy m_policy;
    uint32_t m_held = 0;
    uint32_t m_msn = 0;
    bool m_nak_outstanding = false;
    uint64_t m_deadline = 0;
    bool m_running = false;
};

}  // namespace uetsim
