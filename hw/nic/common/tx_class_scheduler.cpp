#include "hw/nic/common/tx_class_scheduler.h"

namespace uetsim {

tx_class_scheduler::tx_class_scheduler(const nic_buffer_settings& s)
    : m_type(s.scheduling)
    , m_classes(s.classes() > 0 ? s.classes() : 1)
    , m_classes_mask(uint8_t((1u << m_classes) - 1u))
    , m_weights(s.wrr_weights)
    , m_turn(m_classes - 1)  // the first turn is the highest-numbered class's
{
}

int tx_class_scheduler::pick_round_robin(uint8_t sendable)
{
    // One packet from each class in turn; the search starts after the class served last.
    for (int i = 0, c = m_turn; i < m_classes; ++i, c = next_class(c))
        if ((sendable >> c) & 1u) {
            m_turn = next_class(c);
            return c;
        }
    return none;
}

int tx_class_scheduler::pick_weighted(uint8_t sendable)
{
    // The class in its turn sends while it has a packet, up to its weight; an empty, paused or
    // zero-weight class gives its turn to the next.
    for (int i = 0; i <= m_classes; ++i) {
        const int c = m_turn;
        if (((sendable >> c) & 1u) && m_sent < m_weights[c]) {
            if (++m_sent >= m_weights[c]) {
                m_turn = next_class(c);
                m_sent = 0;
            }
            return c;
        }
        m_turn = next_class(c);
        m_sent = 0;
    }
    return none;
}

}  // namespace uetsim
