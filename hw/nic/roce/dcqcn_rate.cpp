// SCAFFOLD (wip-roce-base only): line rate always; the loop is built on wip-dcqcn.
#include "hw/nic/roce/dcqcn_rate.h"

namespace uetsim {

dcqcn_rate::dcqcn_rate(const dcqcn_config& cfg, double line_rate_bps)
    : m_cfg(cfg), m_line(line_rate_bps), m_current(line_rate_bps), m_target(line_rate_bps)
{
}

bool dcqcn_rate::on_cnp()
{
    return false;
}
bool dcqcn_rate::run_half()
{
    return false;
}
double dcqcn_rate::rate_bps() const
{
    return m_line;
}
void dcqcn_rate::reduce() {}
void dcqcn_rate::increase() {}
void dcqcn_rate::update_estimate() {}

}  // namespace uetsim
