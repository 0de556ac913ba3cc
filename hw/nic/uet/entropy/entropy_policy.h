// The load balancer of one PDC group: a pure policy that picks each data packet's entropy value
// (its UDP source port) and, for REPS, learns from path feedback. The NIC owns one per group;
// nothing here touches the SystemC kernel, so times come in as seconds.
#pragma once

#include <cstdint>

#include "hw/nic/uet/entropy/entropy_config.h"

namespace uetsim {

// What the NIC learned about the path of one entropy value.
enum class path_feedback {
    ack,                    // data ACK without the ECN echo
    ack_ecn,                // data ACK with the ECN echo
    nack_trimmed,           // NACK (packet still outstanding): trimmed on the way
    nack_trimmed_last_hop,  // NACK (packet still outstanding): trimmed on the hop to the NIC
    timeout,                // retransmission timeout of the packet sent with it
    failure_detected,       // early failure detection deadline passed, packet still unacked
};

// How the last value returned by next() was chosen (for uet-monitor and tests).
enum class entropy_choice {
    none_yet,     // next() not called yet
    fixed,        // None: the group's fixed value
    round_robin,  // Default Packet Spraying
    explored,     // REPS: random draw
    reused,       // REPS: oldest cached value, removed from the cache
    frozen,       // REPS freezing, cache empty: a held entry in turn, not removed
};

const char* entropy_choice_name(entropy_choice c);

class entropy_policy
{
public:
    virtual ~entropy_policy();

    // The value for the group's next data packet or retransmission (one call each).
    virtual uint16_t next(double now_s) = 0;
    // Feedback for `entropy`: the value an ACK or NACK carries back, or the value of the packet
    // that timed out or passed its failure-detection deadline.
    virtual void feedback(uint16_t entropy, path_feedback f, double now_s) = 0;

    virtual packet_spraying_type type() const = 0;
    // REPS only; the other types never freeze.
    virtual bool freezing() const { return false; }
    entropy_choice last_choice() const { return m_last_choice; }

protected:
    entropy_choice m_last_choice = entropy_choice::none_yet;
};

}  // namespace uetsim
