#include "sim/sweep/sweep_progress.h"

#include <fmt/format.h>

namespace uetsim::sweep {

std::string sweep_progress::line(double elapsed_s, const std::string& what) const
{
    const double eta = eta_s(elapsed_s);
    return fmt::format("sweep: {}/{} done, {} failed, eta {}: {}", m_done, m_total, m_failed,
                       eta < 0 ? std::string("-") : fmt::format("{:.0f} s", eta), what);
}

}  // namespace uetsim::sweep
