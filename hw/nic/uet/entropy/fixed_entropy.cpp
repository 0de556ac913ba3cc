#include "hw/nic/uet/entropy/fixed_entropy.h"

namespace uetsim {

uint16_t fixed_entropy_policy::next(double now_s)
{
    m_last_choice = entropy_choice::fixed;
    return m_value;
}

}  // namespace uetsim
