#include "testbench/trace/trace_recorder.h"

#include <algorithm>

namespace uetsim {

uint32_t trace_recorder::add(const std::string& dotted_name, unsigned bits, bool hidden,
                             trace_fire_rule fire)
{
    const uint32_t wid = hidden ? no_writer : m_w.declare(dotted_name, bits);
    m_sig.push_back({dotted_name, bits, wid, fire});
    return uint32_t(m_sig.size() - 1);
}

void trace_recorder::begin()
{
    m_w.begin();
}

void trace_recorder::write(uint64_t t, uint32_t id, uint64_t value)
{
    const uint32_t wid = m_sig[id].writer_id;
    if (wid == no_writer) return;
    m_w.change(t, wid, value);
    ++m_written;
}

void trace_recorder::open_at(uint64_t t)
{
    m_state = state::open;
    m_open_ps = t;
    for (uint32_t i = 0; i < m_sig.size(); ++i) write(t, i, m_sig[i].base);
    for (const change& c : m_ring) write(c.t, c.id, c.value);
    m_ring.clear();
}

void trace_recorder::close_at(uint64_t t)
{
    m_state = state::closed;
    m_close_ps = t;
}

// Changes older than PreTrigger fold into the base values: the ring holds only the window that a
// trigger now would write.
void trace_recorder::prune(uint64_t now_ps)
{
    const uint64_t from = now_ps > m_win.pre_ps ? now_ps - m_win.pre_ps : 0;
    while (!m_ring.empty() && m_ring.front().t < from) {
        m_sig[m_ring.front().id].base = m_ring.front().value;
        m_ring.pop_front();
    }
}

void trace_recorder::set(uint32_t id, uint64_t now_ps, uint64_t value)
{
    signal& s = m_sig[id];
    if (s.value == value) return;
    const uint64_t before = s.value;
    s.value = value;
    if (m_state == state::open) {
        const uint64_t end = m_win.triggered ? m_fired_ps + m_win.post_ps : m_win.stop_ps;
        if (now_ps > end) {
            close_at(end);
        } else {
            write(now_ps, id, value);
        }
    } else if (m_state == state::waiting) {
        if (!m_win.triggered) {
            if (now_ps >= m_win.start_ps && m_win.start_ps <= m_win.stop_ps) {
                open_at(m_win.start_ps);
                if (now_ps <= m_win.stop_ps)
                    write(now_ps, id, value);
                else
                    close_at(m_win.stop_ps);
            } else {
                s.base = value;
            }
        } else {
            prune(now_ps);
            m_ring.push_back({now_ps, id, value});
        }
    }
    if (m_win.triggered && !m_fired) {
        const bool hit = s.fire.when == trace_fire_rule::kind::rises ? value > before
                         : s.fire.when == trace_fire_rule::kind::reaches
                             ? value >= s.fire.threshold && before < s.fire.threshold
                             : false;
        if (hit) fire(now_ps);
    }
}

void trace_recorder::fire(uint64_t now_ps)
{
    if (!m_win.triggered || m_fired) return;
    m_fired = true;
    m_fired_ps = now_ps;
    prune(now_ps);
    const uint64_t from = now_ps > m_win.pre_ps ? now_ps - m_win.pre_ps : 0;
    open_at(from);
}

void trace_recorder::finish(uint64_t end_ps)
{
    if (m_state == state::waiting && !m_win.triggered && m_win.start_ps <= end_ps &&
        m_win.start_ps <= m_win.stop_ps)
        open_at(m_win.start_ps);
    if (m_state == state::open) {
        const uint64_t end = m_win.triggered ? m_fired_ps + m_win.post_ps : m_win.stop_ps;
        close_at(std::min(end, end_ps));
    }
    m_w.close(opened() ? m_close_ps : 0);
}

}  // namespace uetsim
