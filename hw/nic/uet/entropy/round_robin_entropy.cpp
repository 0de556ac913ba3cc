#include "hw/nic/uet/entropy/round_robin_entropy.h"

namespace uetsim {

round_robin_entropy_policy::round_robin_entropy_policy(uint32_t mask_bits,
                                                       uint32_t starting_port_offset)
    : m_mask((1u << mask_bits) - 1), m_offset(starting_port_offset)
{
}

uint16_t round_robin_entropy_policy::next(double now_s)
{
    m_last_choice = entropy_choice::round_robin;
    // The uint16_t truncation is the page's wrap: the range continues from port 0.
    return uint16_t(m_offset + (uint32_t(m_step++) & m_mask));
}

}  // namespace uetsim
