// A switch's forwarding pipeline: each packet leaves a fixed latency after its arrival, in the
// order the packets arrived (time, then the place of the link delivery that brought it among
// same-time wake-ups, then the order that delivery handed them over). A FIFO would do while
// packets enter at their arrival; a packet taken ahead (fabric_switch::take_ahead) enters when
// it starts on its link, before packets of other links that arrive earlier, so the pipeline
// merges FIFOs instead (merged_fifos.h): one per port for the packets taken ahead (in order per
// link), one for those that entered at their arrival (in order of arrival). Its deliveries run
// in the line phase, placed by the pipeline (wakeup.h), as a timed_fifo's do.
#pragma once

#include <cstdint>
#include <functional>

#include "hw/common/merged_fifos.h"
#include "hw/kernel/activity.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/timed_place.h"
#include "hw/kernel/wakeup.h"

namespace uetsim {

template <typename T>
class forwarding_pipeline
{
public:
    using handler = std::function<void(const T&)>;

    // `ports`: the sources of packets taken ahead (0 to ports - 1).
    forwarding_pipeline(handler on_due, size_t ports)
        : m_on_due(std::move(on_due)), m_items(ports + 1), m_arrived(ports)
    {
    }

    // `item` leaves at `due_ps`; `place`: its arrival's place among the same-time wake-ups
    // (the key of the link delivery that brought it). `port`: taken ahead from that port's
    // link (in order per port), or none: entered at its arrival (in order of arrival).
    static constexpr size_t at_arrival = SIZE_MAX;
    void push(const T& item, uint64_t due_ps, uint64_t place, size_t port = at_arrival)
    {
        const uint64_t seq = m_next_seq++;
        m_items.push(port == at_arrival ? m_arrived : port, {{due_ps, place, seq}, item});
        if (m_items.front().order.seq == seq) m_due.notify_at_ps(due_ps);  // a new first
    }
    // Takes out the packets taken ahead from `port` that `lost` says are lost; rare.
    template <typename F>
    void remove_if(size_t port, F&& lost)
    {
        m_items.remove_if(port, [&](const entry& e) { return lost(e.item); });
        if (m_items.empty())
            m_due.cancel();
        else
            m_due.reschedule_at_ps(m_items.front().order.ps);
    }
    size_t size() const { return m_items.size(); }

private:
    struct entry
    {
        timed_place order;  // its exit time, its arrival's place, the order pushed
        T item;
    };

    void fire()
    {
        activity::tick();
        const uint64_t now = sim_now_ps();
        while (!m_items.empty() && m_items.front().order.ps <= now) {
            const T item = m_items.front().item;
            m_items.pop_front();
            m_on_due(item);
        }
        if (!m_items.empty()) m_due.notify_at_ps(m_items.front().order.ps);
    }

    handler m_on_due;
    merged_fifos<entry, by_timed_place> m_items;
    size_t m_arrived;  // the source of the packets that entered at their arrival
    uint64_t m_next_seq = 0;
    wakeup m_due{[this] { fire(); }, wakeup::phase::line};
};

}  // namespace uetsim
