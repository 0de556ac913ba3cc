// The waveform probe of a link, both directions, and the signals it writes (docs/waveforms.md,
// "Per link direction").
#pragma once

#include <string>
#include <systemc>

#include "hw/common/state_probe.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/kernel/wakeup.h"
#include "hw/link/link.h"
#include "testbench/trace/signal_table.h"

namespace uetsim {

inline const signal_table& link_signals()
{
    static const signal_table t{
        "Per link direction",
        "host0-leaf0.a_to_b.*, .b_to_a.*",
        "A is the lower tier.",
        {
            {"busy", 1, false, "flag", "a frame is serialising"},
            {"up", 1, false, "flag", "the direction is up (Faults)"},
            {"rate_mbps", 32, false, "Mbit/s", "the direction's rate (Faults: degrade)"},
        }};
    return t;
}

inline const signal_table& llr_link_signals()
{
    static const signal_table t{
        "Per link direction with LLR",
        "leaf0-spine0.a_to_b.*, .b_to_a.*",
        "Only on links with `Link.Llr: true`: the direction's LLR sender (at its sending end) "
        "([link-layer.md](link-layer.md)).",
        {
            {"llr_next_seq", 32, false, "count", "the number the next new frame gets"},
            {"llr_acked_seq", 32, false, "count",
             "the highest frame number an LLR_ACK or LLR_NACK acknowledged"},
            {"llr_replay_bytes", 32, false, "bytes", "bytes held in the replay buffer"},
            {"llr_replaying", 1, false, "flag", "a replay (go-back-N) is in progress"},
        }};
    return t;
}

// A link, both directions: busy while a frame serialises, up, rate. The end of a frame is an
// event of this probe's own (it exists only when the link is traced).
class link_probe : public sc_core::sc_module, public state_probe
{
public:
    link_probe(const sc_core::sc_module_name& n, waveform_signals& w, const std::string& c, link& l)
        : sc_core::sc_module(n), m_w(w), m_link(l)
    {
        for (int d = 0; d < 2; ++d) {
            const signal_table& t = link_signals();
            const std::string dir = d == link::a_to_b ? "a_to_b." : "b_to_a.";
            m_dir[d].busy = t.add(w, c, dir, "busy");
            m_dir[d].up = t.add(w, c, dir, "up");
            m_dir[d].rate = t.add(w, c, dir, "rate_mbps");
            if (!l.llr()) continue;
            const signal_table& lt = llr_link_signals();
            m_dir[d].next_seq = lt.add(w, c, dir, "llr_next_seq");
            m_dir[d].acked_seq = lt.add(w, c, dir, "llr_acked_seq");
            m_dir[d].replay_bytes = lt.add(w, c, dir, "llr_replay_bytes");
            m_dir[d].replaying = lt.add(w, c, dir, "llr_replaying");
        }
        l.add_tap([this](const packet& p, link::direction d, const sc_core::sc_time& start) {
            lane& ln = m_dir[d];
            const sc_core::sc_time ser = serialization(p.wire_bytes, m_link.rate_bps(d));
            ln.busy_until = start + ser;
            m_w.set(ln.busy, 1);
            m_end[d].notify(ser);
        });
    }

    void start_of_simulation() override { changed(); }

    void changed() override
    {
        for (int d = 0; d < 2; ++d) {
            m_w.set(m_dir[d].up, m_link.is_up(link::direction(d)) ? 1 : 0);
            m_w.set(m_dir[d].rate, uint64_t(m_link.rate_bps(link::direction(d)) / 1e6));
            if (!m_link.llr()) continue;
            const link::llr_counters c = m_link.llr_stats(link::direction(d));
            m_w.set(m_dir[d].next_seq, c.next_seq);
            m_w.set(m_dir[d].acked_seq, c.acked_seq);
            m_w.set(m_dir[d].replay_bytes, c.held_bytes);
            m_w.set(m_dir[d].replaying, c.replaying ? 1 : 0);
        }
    }

private:
    struct lane
    {
        uint32_t busy, up, rate;
        uint32_t next_seq = 0, acked_seq = 0, replay_bytes = 0, replaying = 0;  // LLR only
        sc_core::sc_time busy_until;
    };
    void end(int d)
    {
        lane& ln = m_dir[d];
        const sc_core::sc_time now = sim_now();
        if (now >= ln.busy_until)
            m_w.set(ln.busy, 0);
        else
            m_end[d].notify(ln.busy_until - now);
    }

    waveform_signals& m_w;
    link& m_link;
    lane m_dir[2];
    wakeup m_end[2]{wakeup{[this] { end(0); }, wakeup::phase::sample},
                    wakeup{[this] { end(1); }, wakeup::phase::sample}};
};

}  // namespace uetsim
