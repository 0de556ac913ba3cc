// One stage of a NIC pipeline as a cycle-approximate unit, in plain arithmetic: an item arriving
// at time `at` waits in the stage's input FIFO until the stage is free (its previous item's start
// plus the initiation interval, plus any time the stage was stalled by a full FIFO downstream),
// is done `latency` later and leaves when the next stage's FIFO has room. No wake-ups of its own:
// the NIC asks a stage for times and schedules a wake-up only where something must happen.
// In-order: items enter a stage in the order they leave the one upstream. Times in ps.
#pragma once

#include <algorithm>
#include <cstdint>

#include "hw/common/occupancy_histogram.h"
#include "hw/common/ring.h"

namespace uetsim {

// A stage's configuration in NIC clock cycles (UetNic.<Stage>Cycles, IntervalCycles, QueueDepth).
struct pipeline_stage_timing
{
    uint32_t cycles = 0;           // latency: start of service -> done
    uint32_t interval_cycles = 0;  // initiation interval: 0 = a new item at any time
    uint32_t queue_depth = 0;      // input FIFO entries: 0 = unbounded
};

// What one item did in a stage.
struct stage_pass
{
    uint64_t start = 0;  // left the input FIFO, service begins
    uint64_t done = 0;   // service over; may leave when downstream has room
    uint64_t wait = 0;   // of which waiting in service for a resource (a context fetch)
};

// Sizing statistics of one stage (nic-pipeline-stats).
struct pipeline_stage_stats
{
    uint64_t items = 0;
    uint64_t busy_ps = 0;   // intervals served plus stalls: the stage could not take an item
    uint64_t stall_ps = 0;  // done but held by a full FIFO downstream
    uint64_t max_queue = 0;
};

class pipeline_stage
{
public:
    pipeline_stage() = default;
    pipeline_stage(const pipeline_stage_timing& t, uint64_t cycle_ps)
        : m_latency_ps(uint64_t(t.cycles) * cycle_ps)
        , m_interval_ps(uint64_t(t.interval_cycles) * cycle_ps)
        , m_depth(t.queue_depth)
    {
    }

    uint64_t latency_ps() const { return m_latency_ps; }
    uint64_t interval_ps() const { return m_interval_ps; }
    uint32_t queue_depth() const { return m_depth; }
    // The earliest time the stage can start a new item.
    uint64_t next_free_ps() const { return m_free_ps; }

    // The earliest time from `at` on at which the input FIFO has room for one more item: when
    // the item `queue_depth` places back has started.
    uint64_t room_at(uint64_t at) const
    {
        if (m_depth == 0) return at;
        const size_t n = waiting_after(at);
        if (n < m_depth) return at;
        return std::max(at, m_waiting.at(m_waiting.size() - m_depth));
    }
    bool has_room(uint64_t at) const { return room_at(at) == at; }

    // An item arrives at `at` (the FIFO has room then): it starts when the stage is free, no
    // earlier than `not_before` (a resource the stage waits for, e.g. a read tag).
    stage_pass enter(uint64_t at, uint64_t not_before = 0)
    {
        while (!m_waiting.empty() && m_waiting.front() <= at) {
            m_fifo.set(m_waiting.front(), uint32_t(m_waiting.size() - 1));
            m_waiting.pop_front();
        }
        const uint64_t start = std::max({at, m_free_ps, not_before});
        if (start > at) {
            m_waiting.push_back(start);
            m_fifo.set(at, uint32_t(m_waiting.size()));
            m_stats.max_queue = std::max<uint64_t>(m_stats.max_queue, m_waiting.size());
        }
        return {start, start + m_latency_ps};
    }
    // The item in service waits until `until` for something it needs (a PDC context from host
    // memory): it is done no earlier, and the stage takes no other item meanwhile, so items stay
    // in order.
    void wait_in_service(stage_pass& p, uint64_t until)
    {
        if (until <= p.done) return;
        p.wait += until - p.done;
        p.done = until;
    }
    // An item started by the scheduler's own wake-up at `at` (its interval is kept by the
    // wake-up that runs it, so the stage does not wait for itself).
    stage_pass enter_now(uint64_t at) { return {at, at + m_latency_ps}; }

    // The item leaves at `handoff` (no earlier than p.done): a later handoff stalls the stage.
    void leave(const stage_pass& p, uint64_t handoff)
    {
        const uint64_t stall = handoff - p.done;
        m_free_ps = p.start + m_interval_ps + p.wait + stall;
        ++m_stats.items;
        m_stats.busy_ps += m_interval_ps + p.wait + stall;
        m_stats.stall_ps += stall;
    }

    // A stage without interval and FIFO limit never holds an item back or stalls: for items
    // arriving in time order it is a pure delay (pass_through_delays' fast path).
    bool delay_only() const { return m_interval_ps == 0 && m_depth == 0; }
    // The item passed a delay_only stage (its start was its arrival).
    void count_item() { ++m_stats.items; }

    const pipeline_stage_stats& stats() const { return m_stats; }
    // The input FIFO's occupancy over time up to `now`: the 99th percentile of items waiting.
    uint32_t fifo_p99(uint64_t now) const
    {
        occupancy_histogram h = m_fifo;  // the items that started by `now` leave it
        size_t left = m_waiting.size();
        for (size_t i = 0; i < m_waiting.size() && m_waiting.at(i) <= now; ++i)
            h.set(m_waiting.at(i), uint32_t(--left));
        return h.p99(now);
    }

private:
    size_t waiting_after(uint64_t at) const
    {
        size_t i = 0;
        while (i < m_waiting.size() && m_waiting.at(i) <= at) ++i;
        return m_waiting.size() - i;
    }

    uint64_t m_latency_ps = 0;
    uint64_t m_interval_ps = 0;
    uint32_t m_depth = 0;
    uint64_t m_free_ps = 0;
    ring<uint64_t> m_waiting;    // start times of items still in the input FIFO, in order
    occupancy_histogram m_fifo;  // items waiting, over time
    pipeline_stage_stats m_stats;
};

// Passes an item through `n` stages in order from its arrival at the first (which has room):
// each stage hands off when the next one's FIFO has room; the last hands off when done.
// Returns the time the item leaves the last stage.
inline uint64_t pass_through(pipeline_stage* stages, int n, uint64_t at)
{
    stage_pass p = stages[0].enter(at);
    for (int i = 0; i + 1 < n; ++i) {
        const uint64_t handoff = stages[i + 1].room_at(p.done);
        stages[i].leave(p, handoff);
        p = stages[i + 1].enter(handoff);
    }
    stages[n - 1].leave(p, p.done);
    return p.done;
}

// pass_through where the item, in service at stage `k`, waits until `ready(start)`: the time
// what it needs there (a PDC context) is on chip, given when its service starts.
template <class Ready>
uint64_t pass_through_waiting(pipeline_stage* stages, int n, uint64_t at, int k, Ready&& ready)
{
    stage_pass p = stages[0].enter(at);
    for (int i = 0;; ++i) {
        if (i == k) stages[i].wait_in_service(p, ready(p.start));
        if (i + 1 == n) break;
        const uint64_t handoff = stages[i + 1].room_at(p.done);
        stages[i].leave(p, handoff);
        p = stages[i + 1].enter(handoff);
    }
    stages[n - 1].leave(p, p.done);
    return p.done;
}

// pass_through for a chain of delay_only stages and items arriving in time order: the same
// times and statistics, without the per-stage bookkeeping (the hot path at the defaults).
inline uint64_t pass_through_delays(pipeline_stage* stages, int n, uint64_t at,
                                    uint64_t total_latency_ps)
{
    for (int i = 0; i < n; ++i) stages[i].count_item();
    return at + total_latency_ps;
}

}  // namespace uetsim
