#include "hw/nic/roce/roce_responder.h"

namespace uetsim {

roce_responder::verdict roce_responder::on_data(uint32_t psn, bool solicited, uint64_t now_ps)
{
    verdict v;
    const int32_t d = roce::psn_diff(psn, m_expected);
    if (d > 0) {
        if (m_nak_outstanding) {
            v.what = arrival::after_nak;
            return v;
        }
        // One NAK per gap; it cancels the acknowledgement held for coalescing.
        v.what = arrival::gap;
        v.nak = true;
        m_nak_outstanding = true;
        m_held = 0;
        m_running = false;
        return v;
    }
    if (d == 0) {
        m_expected = roce::psn_add(m_expected, 1);
        m_nak_outstanding = false;
        if (solicited) m_msn = (m_msn + 1) & roce::psn_mask;
    } else {
        v.what = arrival::duplicate;
    }
    coalesce(solicited, now_ps, v);
    return v;
}

void roce_responder::coalesce(bool solicited, uint64_t now_ps, verdict& v)
{
    if (!m_policy.coalescing) {
        v.ack = true;
        return;
    }
    if (solicited || m_held >= m_policy.threshold) {
        // By the flag or by the count: ACK now; the timer restarts.
        v.ack = true;
        m_held = 0;
        m_deadline = now_ps + m_policy.delay_ps;
        m_running = true;
        v.timer_armed = true;
        return;
    }
    ++m_held;
    if (!m_running) {
        m_deadline = now_ps + m_policy.delay_ps;
        m_running = true;
        v.timer_armed = true;
    }
}

bool roce_responder::on_ack_timer()
{
    m_running = false;
    if (m_held == 0) return false;
    m_held = 0;
    return true;
}

}  // namespace uetsim
