// A FIFO of items (packets, host-interface commands) that each become due at a time no earlier than
// the one before them (constant latency after an in-order source). Only the head has a pending
// event, so the event count stays flat however many packets are in flight. Its deliveries run in
// the line phase (wakeup.h): after the model's other wake-ups of their time, lines in the order
// they were made, so their order depends on no line's history (when its head was queued).
#pragma once

#include <functional>
#include <cstdint>

#include "hw/kernel/activity.h"
#include "hw/common/ring.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup.h"
#include "tlm/packet.h"

namespace uetsim {

template <typename T>
class timed_fifo
{
public:
    using handler = std::function<void(T)>;

    // `name` says what the FIFO is where it is built; it is not a SystemC object.
    timed_fifo(const char* /*name*/, handler on_due) : m_on_due(std::move(on_due)) {}

    // Due at `due_ps` (simulated ps), no earlier than the last pushed item.
    // Inline at every caller (the switch's arrival and each link's transmit, per frame).
    [[gnu::always_inline]] void push(T p, uint64_t due_ps)
    {
        bool was_empty = m_items.empty();
        m_items.push_back({p, due_ps});
        m_last_due_ps = due_ps;
        if (was_empty) m_due.notify_at_ps(due_ps);
    }

    // Takes every waiting packet out (e.g. a link going down) and hands each to `f`.
    template <typename F>
    void drain(F&& f)
    {
        while (!m_items.empty()) {
            f(m_items.front().p);
            m_items.pop_front();
        }
        m_due.cancel();
    }

    size_t size() const { return m_items.size(); }
    // The place of this line's deliveries among same-time wake-ups (wakeup::place_key).
    uint64_t place_key() const { return m_due.place_key(); }
    // Takes back the last item pushed (one that will not arrive after all).
    T pop_back()
    {
        T p = m_items.back().p;
        m_items.pop_back();
        if (m_items.empty()) m_due.cancel();
        m_last_due_ps = m_items.empty() ? 0 : m_items.back().due_ps;
        return p;
    }
    // Due time (ps) of the last item pushed: pushing no earlier keeps the FIFO order.
    uint64_t last_due_ps() const { return m_last_due_ps; }

private:
    struct item
    {
        T p;
        uint64_t due_ps;
    };

    void fire()
    {
        activity::tick();
        const uint64_t now = sim_now_ps();
        while (!m_items.empty() && m_items.front().due_ps <= now) {
            T p = std::move(m_items.front().p);
            m_items.pop_front();
            m_on_due(p);
        }
        if (!m_items.empty()) m_due.notify_at_ps(m_items.front().due_ps);
    }

    handler m_on_due;
    ring<item> m_items;
    wakeup m_due{[this] { fire(); }, wakeup::phase::line};
    uint64_t m_last_due_ps = 0;
};

using delay_line = timed_fifo<packet*>;

}  // namespace uetsim
