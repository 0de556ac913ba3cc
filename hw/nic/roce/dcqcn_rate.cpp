// One queue pair's rate control loop (RoCE congestion-control page, stages 1-9). Where the page
// is silent the loop does what DCQCN (Zhu et al., SIGCOMM 2015) does;
// docs/roce-nic.md ("Congestion control") lists each choice.
#include "hw/nic/roce/dcqcn_rate.h"

#include <algorithm>

namespace uetsim {

namespace {
constexpr double end_gap_bps = 0.1e9;  // stage 9: within 0.1 Gbps of line rate ends the episode
}

dcqcn_rate::dcqcn_rate(const dcqcn_config& cfg, double line_rate_bps)
    : m_cfg(cfg), m_line(line_rate_bps), m_current(line_rate_bps), m_target(line_rate_bps)
{
}

bool dcqcn_rate::on_cnp()
{
    if (!m_cfg.enable_ecn) return false;
    ++m_cnps;
    ++m_cnps_total;
    if (m_congested) return false;

    // Stage 1: the CNP that finds the queue pair not congested starts an episode. Packets sent
    // before it belong to no interval, so its sample is this CNP alone (1, as in DCQCN).
    m_congested = true;
    ++m_episodes;
    m_packets = 0;
    m_target = m_current;
    m_step = m_target * (1.0 - m_cfg.initial_target_rate_percentage) /
             double(std::max<uint32_t>(1, m_cfg.number_active_increase_steps));
    m_cnp_increase_halves = 0;
    m_recovery = 0;
    update_estimate();
    cut();  // the reduction that begins the episode
    clear_interval();
    m_next_is_increase = true;
    return true;
}

bool dcqcn_rate::run_half()
{
    if (!m_congested) return false;
    update_estimate();
    if (m_next_is_increase) {
        // Stage 5: a CNP since the reduction half holds the increase back, except on every
        // (NumOfControlLoopsPerIncrease + 1)-th such half.
        if (m_cnps == 0) {
            increase();
        } else if (++m_cnp_increase_halves > m_cfg.num_of_control_loops_per_increase) {
            increase();
        }
    } else {
        if (m_cnps > 0) reduce();  // stage 4: a half without CNP leaves the rate alone
        clear_interval();          // stage 2: each interval counts afresh
    }
    m_next_is_increase = !m_next_is_increase;
    return m_congested;
}

double dcqcn_rate::rate_bps() const
{
    if (!m_congested) return m_line;
    return std::max(m_current, floor_bps());
}

void dcqcn_rate::reduce()
{
    if (m_recovery < m_cfg.fast_recovery_attempt) {
        cut();
        return;
    }
    // Additive increase: one step off the target, then halfway toward it (stage 4).
    ++m_reductions;
    m_target = std::max(floor_bps(), m_target - m_step);
    m_current = std::max(floor_bps(), (m_current + m_target) / 2);
    if (m_recovery > 0) --m_recovery;
}

void dcqcn_rate::cut()
{
    // Start of the episode or fast recovery: DCQCN's cut, Rc *= 1 - alpha/2 (at most half, as
    // alpha <= 1); the target stays (the page moves it only in additive increase).
    ++m_reductions;
    m_current = std::max(floor_bps(), m_current * (1.0 - m_alpha / 2));
    m_recovery = 0;
}

void dcqcn_rate::increase()
{
    ++m_increases;
    m_cnp_increase_halves = 0;
    if (m_recovery >= m_cfg.fast_recovery_attempt) m_target = std::min(m_line, m_target + m_step);
    m_current = (m_current + m_target) / 2;
    ++m_recovery;
    if (m_line - m_current < end_gap_bps) {
        // Stage 9: back to line rate; the loop stops until the next CNP.
        m_congested = false;
        m_current = m_line;
        m_target = m_line;
        m_recovery = 0;
        clear_interval();
    }
}

void dcqcn_rate::update_estimate()
{
    // The interval's marking fraction: CNPs per data packet sent, capped at 1; CNPs with no
    // packet count as 1 (DCQCN's alpha update on a CNP).
    double sample = 0;
    if (m_cnps > 0) sample = m_packets == 0 ? 1.0 : std::min(1.0, double(m_cnps) / m_packets);
    const double w = m_cfg.congestion_probability_weight;
    m_alpha = (1.0 - w) * m_alpha + w * sample;
}

void dcqcn_rate::clear_interval()
{
    m_cnps = 0;
    m_packets = 0;
}

}  // namespace uetsim
