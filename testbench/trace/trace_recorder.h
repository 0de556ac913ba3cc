// The logic-analyser part of the trace layer: signals hold their last value and pass on only
// changes; the changes reach the trace_writer inside a window, either Start..Stop, or around the
// first trigger (the last PreTrigger of changes kept in a ring buffer, written when the trigger
// fires, then PostTrigger more). A window opens with every signal's value at its start, so the
// file shows the state from the first instant. Pure: no SystemC (times in ps from the caller).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "testbench/trace/trace_writer.h"

namespace uetsim {

struct trace_window
{
    uint64_t start_ps = 0;
    uint64_t stop_ps = UINT64_MAX;
    bool triggered = false;  // the window follows the trigger, not start..stop
    uint64_t pre_ps = 0;
    uint64_t post_ps = 0;
};

// When a signal's change fires the trigger.
struct trace_fire_rule
{
    enum class kind { never, rises, reaches } when = kind::never;
    uint64_t threshold = 0;  // reaches: value >= threshold (and the previous value was below)
};

class trace_recorder
{
public:
    trace_recorder(trace_writer& w, const trace_window& win) : m_w(w), m_win(win) {}

    // Before begin(). A hidden signal is not written but can still fire the trigger (a trigger
    // on a signal Trace.Signals leaves out).
    uint32_t add(const std::string& dotted_name, unsigned bits, bool hidden = false,
                 trace_fire_rule fire = {});
    void begin();

    // Signal `id` holds `value` from `now_ps` on; equal values are ignored.
    void set(uint32_t id, uint64_t now_ps, uint64_t value);
    // Fires the trigger now (the first time only; ignored without a triggered window).
    void fire(uint64_t now_ps);
    // The end of the run: writes a window that has not opened yet if it lies before `end_ps`.
    void finish(uint64_t end_ps);

    bool fired() const { return m_fired; }
    uint64_t fired_at_ps() const { return m_fired_ps; }
    // The window written: [opened, closed]; nothing when opened() is false.
    bool opened() const { return m_state != state::waiting; }
    uint64_t window_start_ps() const { return m_open_ps; }
    uint64_t window_end_ps() const { return m_close_ps; }
    uint64_t changes_written() const { return m_written; }
    size_t signal_count() const { return m_sig.size(); }
    const std::string& name(uint32_t id) const { return m_sig[id].name; }
    bool hidden(uint32_t id) const { return m_sig[id].writer_id == no_writer; }

private:
    static constexpr uint32_t no_writer = UINT32_MAX;
    enum class state { waiting, open, closed };
    struct signal
    {
        std::string name;
        unsigned bits;
        uint32_t writer_id;
        trace_fire_rule fire;
        uint64_t value = 0;  // now
        uint64_t base = 0;   // at the oldest change kept in the ring (triggered, waiting)
    };
    struct change
    {
        uint64_t t;
        uint32_t id;
        uint64_t value;
    };

    void open_at(uint64_t t);  // writes every signal's value at t (the base values)
    void write(uint64_t t, uint32_t id, uint64_t value);
    void prune(uint64_t now_ps);
    void close_at(uint64_t t);

    trace_writer& m_w;
    trace_window m_win;
    std::vector<signal> m_sig;
    std::deque<change> m_ring;  // triggered, waiting: the changes of the last PreTrigger
    state m_state = state::waiting;
    bool m_fired = false;
    uint64_t m_fired_ps = 0;
    uint64_t m_open_ps = 0, m_close_ps = 0;
    uint64_t m_written = 0;
};

}  // namespace uetsim
