// The UET NIC's transmit scheduling across traffic classes (EgressBufferManager
// QueueSchedulingType): StrictPriority (the highest-numbered class waiting), RoundRobin (one
// packet per class in turn, starting after the class served last) and WeightedRoundRobin (at most
// WRRQueueWeights[c] packets in class c's turn; turns start at the highest-numbered class and go
// on from class 0 upward; a class with nothing to send, or paused, gives up its turn). Only the
// classes with an egress pool take part. PFC frames go ahead of it (the port's PFC queue). Pure
// logic: the caller says which classes may send now and sends what pick() returns.
#pragma once

#include <array>
#include <cstdint>

#include "hw/nic/common/nic_buffer_config.h"

namespace uetsim {

class tx_class_scheduler
{
public:
    static constexpr int none = -1;

    tx_class_scheduler() : tx_class_scheduler(default_egress_buffer()) {}
    explicit tx_class_scheduler(const nic_buffer_settings& s);

    // `sendable`: bit c set when class c holds a frame and is not paused. Returns the class to
    // serve (counted as served) or none; none changes no turn.
    int pick(uint8_t sendable)
    {
        sendable &= m_classes_mask;
        if (sendable == 0) return none;
        if (m_type == queue_scheduling::strict_priority) return 31 - __builtin_clz(sendable);
        return m_type == queue_scheduling::round_robin ? pick_round_robin(sendable)
                                                       : pick_weighted(sendable);
    }

    // Whether class c takes part (it has an egress pool).
    bool has_pool(int c) const { return c < m_classes; }
    uint8_t classes_mask() const { return m_classes_mask; }  // bit c: has_pool(c)
    queue_scheduling type() const { return m_type; }
    int turn() const { return m_turn; }  // the class whose turn it is (round robins)

private:
    int pick_round_robin(uint8_t sendable);
    int pick_weighted(uint8_t sendable);
    int next_class(int c) const { return c + 1 >= m_classes ? 0 : c + 1; }

    queue_scheduling m_type;
    int m_classes;
    uint8_t m_classes_mask;
    std::array<uint32_t, k_tc_count> m_weights{};
    int m_turn;           // RoundRobin: the next class to look at; WRR: the class in its turn
    uint32_t m_sent = 0;  // WRR: packets sent in the current turn
};

}  // namespace uetsim
