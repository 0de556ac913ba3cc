// The frames a switch holds between their arrival and their exit from its forwarding pipeline,
// one FIFO per port plus one for the frames that entered at their arrival. A frame taken ahead
// (fabric_switch::take_ahead) enters its port's FIFO when it starts on the link, its arrival to
// be applied at its time; one that entered at its arrival has it applied already. Each FIFO is
// in arrival order (a wire delivers in order; the at-arrival one is filled in the order the
// wake-ups run), so two merges over the same FIFOs give the next arrival to apply (from each
// port's first frame not yet applied) and the next exit (from each FIFO's front): the exit is
// the arrival plus the switch's one forwarding latency, so arrival order is exit order. A frame
// is kept once, whichever of the two it waits for. Plain logic: no kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hw/common/ring.h"
#include "hw/common/source_heap.h"
#include "hw/kernel/timed_place.h"

namespace uetsim {

template <typename T>
class frames_in_flight
{
public:
    struct entry
    {
        timed_place arrival;  // its arrival's time and the place of the wire that brings it
        T item;
    };

    // Ports 0 to `ports` - 1 hand frames over ahead.
    explicit frames_in_flight(size_t ports) : m_fifos(ports + 1), m_arrived(uint32_t(ports)) {}

    // A frame that entered at its arrival. Returns whether it is the next exit now.
    bool push_arrived(const timed_place& arrival, const T& item)
    {
        fifo& f = m_fifos[m_arrived];
        f.q.push_back({arrival, item});
        ++f.applied;
        return entered(f, m_arrived, arrival);
    }
    // A frame taken ahead from `port`'s link, after every frame taken from it before. Returns
    // whether it is the next exit now.
    bool push_ahead(size_t port, const timed_place& arrival, const T& item)
    {
        fifo& f = m_fifos[port];
        f.q.push_back({arrival, item});
        if (f.applied + 1 == f.q.size()) m_arrivals.push(arrival, uint32_t(port));
        return entered(f, uint32_t(port), arrival);
    }

    // The next arrival to apply, in (time, place) order over the ports.
    bool arrivals_waiting() const { return !m_arrivals.empty(); }
    const entry& next_arrival() const
    {
        const fifo& f = m_fifos[m_arrivals.top().source];
        return f.q.at(f.applied);
    }
    void arrival_applied()
    {
        fifo& f = m_fifos[m_arrivals.top().source];
        if (++f.applied < f.q.size())
            m_arrivals.replace_top(f.q.at(f.applied).arrival);
        else
            m_arrivals.pop();
    }

    // The next exit (exited() only once its arrival is applied: it leaves after it).
    bool empty() const { return m_exits.empty(); }
    const entry& next_exit() const { return m_fifos[m_exits.top().source].q.front(); }
    bool next_exit_arrived() const { return m_fifos[m_exits.top().source].applied > 0; }
    void exited()
    {
        fifo& f = m_fifos[m_exits.top().source];
        f.q.pop_front();
        --f.applied;
        if (!f.q.empty())
            m_exits.replace_top(f.q.front().arrival);
        else
            m_exits.pop();
    }

    // Takes out the frames of `port` whose arrival is not applied (its link went down), giving
    // each to `lost` in arrival order; rare. Returns whether there were any.
    template <typename F>
    bool recall(size_t port, F&& lost)
    {
        fifo& f = m_fifos[port];
        if (f.applied == f.q.size()) return false;
        for (size_t i = f.applied; i < f.q.size(); ++i) lost(f.q.at(i).item);
        while (f.q.size() > f.applied) f.q.pop_back();
        m_arrivals.clear();
        m_exits.clear();
        for (uint32_t s = 0; s < m_fifos.size(); ++s) {
            const fifo& g = m_fifos[s];
            if (!g.q.empty()) m_exits.push(g.q.front().arrival, s);
            if (g.applied < g.q.size()) m_arrivals.push(g.q.at(g.applied).arrival, s);
        }
        return true;
    }

private:
    struct fifo
    {
        ring<entry, 4> q;    // in arrival order: the first `applied` have arrived
        size_t applied = 0;  // entries whose arrival is applied
    };

    bool entered(const fifo& f, uint32_t source, const timed_place& arrival)
    {
        if (f.q.size() > 1) return false;  // behind this FIFO's front
        m_exits.push(arrival, source);
        return m_exits.top().source == source;
    }

    std::vector<fifo> m_fifos;
    uint32_t m_arrived;  // the FIFO of the frames that entered at their arrival
    source_heap<timed_place> m_arrivals;
    source_heap<timed_place> m_exits;
};

}  // namespace uetsim
