#include "hw/link/link.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

link::link(const sc_core::sc_module_name& name, double rate_bps, sc_core::sc_time delay,
           packet_pool& pool)
    : sc_core::sc_module(name)
    , from_a("from_a")
    , to_b("to_b")
    , from_b("from_b")
    , to_a("to_a")
    , m_nominal_rate_bps(rate_bps)
    , m_delay(delay)
    , m_delay_ps(delay.value())
    , m_pool(pool)
{
    for (auto& l : m_dir) l.rate_bps = rate_bps;
    m_dir[a_to_b].wire = std::make_unique<delay_line>("wire_a_to_b", [this](packet* p) {
        m_dir[a_to_b].wire_bytes -= p->wire_bytes;
        to_b.send(*p);
    });
    m_dir[b_to_a].wire = std::make_unique<delay_line>("wire_b_to_a", [this](packet* p) {
        m_dir[b_to_a].wire_bytes -= p->wire_bytes;
        to_a.send(*p);
    });
    for (auto& l : m_dir) l.wire_place = l.wire->place_key();
    from_a.on_receive([this](packet& p) { return transmit(a_to_b, p); });
    from_b.on_receive([this](packet& p) { return transmit(b_to_a, p); });
}

link::~link() = default;

sc_core::sc_time link::transmit(direction d, packet& p)
{
    if (__builtin_expect(m_llr != nullptr, 0)) return llr_transmit(d, p);
    lane& l = m_dir[d];
    double rate = l.rate_bps;
    if (__builtin_expect(p.tx_rate_bps != 0, 0)) {
        // A RoCE queue pair's allowed rate: this frame only, never above the link's.
        rate = std::min(rate, p.tx_rate_bps);
        p.tx_rate_bps = 0;
    }
    const uint64_t ser_ps = serialization_ps(p.wire_bytes, rate);
    const sc_core::sc_time ser = picoseconds(ser_ps);
    const uint64_t now_ps = sim_now_ps();
    if (__builtin_expect(!m_taps.empty(), 0)) {
        const sc_core::sc_time now = picoseconds(now_ps);
        for (auto& t : m_taps) t(p, d, now);
    }
    if (!l.up || (m_loss > 0 && m_loss_rng->uniform() < m_loss)) {
        ++l.lost;
        m_pool.release(&p);
        return ser;  // the transmitter still spends the frame's time on a dead link
    }
    if (__builtin_expect(m_check_fcs, 0) && corrupted(l, p.wire_bytes)) {
        // The frame takes its time on the wire; the receiver's FCS check drops it.
        ++l.fcs_errors;
        m_pool.release(&p);
        return ser;
    }
    const uint64_t arrive_ps = now_ps + ser_ps + m_delay_ps;
    if (l.ahead &&
        l.ahead->take_ahead(p, arrive_ps, l.wire_place, {uint32_t(l.wire->size()), l.wire_bytes}))
        return ser;
    l.wire_bytes += p.wire_bytes;
    l.wire->push(&p, arrive_ps);
    return ser;
}

bool link::corrupted(lane& l, uint32_t wire_bytes)
{
    if (l.corrupt_next) {
        l.corrupt_next = false;
        return true;
    }
    if (m_ber == 0) return false;
    // 1 - (1 - BER)^bits without cancellation for small BER.
    const double p = -std::expm1(double(wire_bytes) * 8.0 * m_log_good_bit);
    return l.bit_errors.uniform() < p;
}

bool link::corrupted_os(lane& l, uint32_t wire_bytes)
{
    const double p = -std::expm1(double(wire_bytes) * 8.0 * m_log_good_bit);
    return l.bit_errors.uniform() < p;
}

void link::set_bit_error_rate(double ber, uint64_t seed)
{
    if (m_llr) llr_need_timer();
    m_ber = ber;
    m_check_fcs = m_check_fcs || ber > 0;
    m_log_good_bit = std::log1p(-ber);
    const std::string n = basename();
    m_dir[a_to_b].bit_errors = random_stream(seed, "bit_errors." + n + ".a_to_b");
    m_dir[b_to_a].bit_errors = random_stream(seed, "bit_errors." + n + ".b_to_a");
}

void link::set_up(bool up)
{
    if (m_llr) {
        llr_catch_up();  // held-back ACKs go on the link as it was
        llr_need_timer();
    }
    for (int d = 0; d < 2; ++d) {
        lane& l = m_dir[d];
        l.up = up;
        if (up) continue;
        auto lose = [&](packet* p) {
            ++l.lost;
            m_pool.release(p);
        };
        if (l.ahead) l.ahead->recall_ahead(lose);  // taken ahead: they were on the wire too
        l.wire->drain(lose);
        l.wire_bytes = 0;
        if (m_llr) llr_link_down(direction(d));
    }
    if (m_probe) m_probe->changed();
}

void link::set_rate(double rate_bps)
{
    if (m_llr) {
        llr_catch_up();
        llr_need_timer();
    }
    for (auto& l : m_dir) l.rate_bps = rate_bps;
    if (m_llr) llr_rate_changed();
    if (m_probe) m_probe->changed();
}

}  // namespace uetsim
