// Link Level Retry on a link (link.h, docs/link-layer.md): the two directions' senders and
// receivers, their control ordered sets on the wires, and each end's serve.
#include "hw/link/link.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/kernel/wakeup.h"
#include "hw/link/llr_receiver.h"
#include "hw/link/llr_sender.h"

namespace uetsim {

namespace {

constexpr uint64_t never = ~uint64_t(0);

link::direction opposite(link::direction d)
{
    return d == link::a_to_b ? link::b_to_a : link::a_to_b;
}

}  // namespace

// A frame on an LLR wire: the frame as first sent (`first`: its replay buffer entry points at
// it), a replay's copy, or nullptr for a replay of a frame already delivered (a duplicate of its
// length).
struct link::llr_wire_frame
{
    packet* p;
    uint64_t seq;
    bool good;
    bool first;
};

// One direction's LLR: the sender at its sending end, the receiver at the other, the frames and
// the control ordered sets on its wire (the latter about the other direction's frames).
struct link::llr_lane
{
    using wire_frame = llr_wire_frame;
    struct control_os
    {
        uint64_t arrive_ps;
        uint64_t seq;
        bool nack;
        bool good;
    };

    llr_lane(link& l, direction d, uint64_t buffer_bytes)
        : tx(buffer_bytes)
        , wire("llr_wire", [&l, d](wire_frame f) { l.llr_arrive(d, f); })
        , control_due([&l, d] { l.llr_control(d); })
        // After the model's wake-ups of its time (wakeup.h): what it sends at a time does not
        // depend on when it was scheduled, only on the state that time ends with.
        , serve([&l, d] { l.llr_serve(d, sim_now_ps()); }, wakeup::phase::control)
        , timer([&l, d] { l.llr_timer(d); })
    {
    }

    // What every frame and every ACK touches first, together: the sender, this wire's timing,
    // the control ordered sets on it and the receiver at its far end.
    llr_sender tx;
    uint64_t wire_free_ps = 0;
    uint64_t next_ack_ps = 0;  // the earliest time the next ACK may start on this wire
    // This wire's control ordered set and ACK spacing in time at its rate (set_rate changes it).
    uint64_t control_ps = 0;
    uint64_t ack_spacing_ps = 0;
    packet* held = nullptr;  // the port's frame, kept until it can start
    uint64_t timer_due_ps = never;
    // Control ordered sets on this wire, in arrival order (they answer the other direction's
    // frames). An ACK takes effect when its arrival time has passed and the sender next looks
    // (settle): no event of its own. A NACK, a stalled sender or a traced link wakes control_due
    // at the arrival instead.
    ring<control_os> control;
    uint32_t nacks_on_wire = 0;  // NACKs in `control`: each must wake its sender as it arrives
    uint64_t control_frames = 0;
    uint64_t control_bytes = 0;
    llr_receiver rx;
    timed_fifo<wire_frame> wire;
    uint64_t stall_from_ps = never;  // since when it waits for room in the replay buffer
    uint64_t stall_ps = 0;
    uint64_t timer_replays = 0;
    wakeup control_due;
    wakeup serve;
    wakeup timer;
};

struct link::llr_state
{
    llr_settings settings;
    std::unique_ptr<llr_lane> lane[2];

    // Applies the control ordered sets that reached the sender of direction `s` by `now_ps`
    // (they travel on the other direction's wire), in order: ACKs free frames, a NACK starts a
    // replay; progress restarts the replay timer from the arrival. Returns whether a NACK came.
    bool settle(link& l, direction s, uint64_t now_ps)
    {
        llr_lane& S = *lane[s];
        llr_lane& W = *lane[opposite(s)];
        bool nacked = false;
        auto release = [&l](packet* p) { l.m_pool.release(p); };
        while (!W.control.empty() && W.control.front().arrive_ps <= now_ps) {
            const llr_lane::control_os c = W.control.front();
            W.control.pop_front();
            if (__builtin_expect(c.nack, 0)) --W.nacks_on_wire;
            if (__builtin_expect(!c.good, 0)) {
                ++l.m_dir[opposite(s)].fcs_errors;
                continue;
            }
            bool progress;
            if (__builtin_expect(c.nack, 0)) {
                S.tx.nack(c.seq, release);
                progress = nacked = true;
            } else {
                progress = S.tx.ack(c.seq, release);
            }
            if (progress)
                S.timer_due_ps = S.tx.held_frames() ? c.arrive_ps + settings.timeout_ps : never;
        }
        return nacked;
    }

    // Whether the receiver of the other direction has an ACK or NACK to send on wire `d` at
    // `at_ps` (ACKs no closer than the spacing).
    bool control_due(direction d, uint64_t at_ps) const
    {
        const llr_receiver& rx = lane[opposite(d)]->rx;
        return rx.nack_pending() || (rx.ack_pending() && at_ps >= lane[d]->next_ack_ps);
    }

    // Sends that ACK or NACK on wire `d` from `start_ps`; returns when the wire is free again.
    uint64_t send_control(link& l, direction d, uint64_t start_ps)
    {
        link::lane& w = l.m_dir[d];
        llr_lane& L = *lane[d];
        llr_lane& R = *lane[opposite(d)];  // its receiver answers; its sender is acted on
        const bool nack = R.rx.take_control();
        L.wire_free_ps = start_ps + L.control_ps;
        if (!nack) L.next_ack_ps = start_ps + L.ack_spacing_ps;
        ++L.control_frames;
        L.control_bytes += settings.control_bytes;
        const bool good = w.up && !(__builtin_expect(l.m_ber > 0, 0) &&
                                    l.corrupted_os(w, settings.control_bytes));
        const uint64_t arrive = L.wire_free_ps + l.m_delay_ps;
        L.control.push_back({arrive, R.rx.last_good(), nack, good});
        if (nack) ++L.nacks_on_wire;
        // The sender acts on a NACK at once; on an ACK when it next looks, unless it waits for
        // one or the link is traced.
        if (__builtin_expect(nack || R.held || l.m_probe, 0)) L.control_due.notify_at_ps(arrive);
        return L.wire_free_ps;
    }

    void set_control_times(const link& l)
    {
        for (int d = 0; d < 2; ++d) {
            lane[d]->control_ps = serialization_ps(settings.control_bytes, l.m_dir[d].rate_bps);
            lane[d]->ack_spacing_ps =
                serialization_ps(settings.ack_spacing_bytes, l.m_dir[d].rate_bps);
        }
    }
};

// The replay buffers' copies stay in the pool's slabs, which free them with the pool.
void link::llr_state_deleter::operator()(llr_state* s) const
{
    delete s;
}

void link::enable_llr(const llr_settings& s)
{
    m_llr.reset(new llr_state);
    m_llr->settings = s;
    for (int d = 0; d < 2; ++d)
        m_llr->lane[d] = std::make_unique<llr_lane>(*this, direction(d), s.buffer_bytes);
    m_llr->set_control_times(*this);
}

void link::offered_while_held() const
{
    throw std::logic_error(std::string(name()) + ": a frame offered while one is held");
}

sc_core::sc_time link::llr_transmit(direction d, packet& p)
{
    llr_lane& L = *m_llr->lane[d];
    const uint64_t now = sim_now_ps();
    if (__builtin_expect(L.held != nullptr, 0)) offered_while_held();
    if (__builtin_expect(m_llr->settle(*this, d, now), 0)) llr_kick(d, now);
    if (__builtin_expect(!L.tx.replaying() && L.tx.has_room(p.wire_bytes), 1)) {
        // The frame follows what the wire carries already and a control ordered set due then;
        // the port's transmitter is free when it ends (the END_REQ delay).
        uint64_t start = std::max(now, L.wire_free_ps);
        if (m_llr->control_due(d, start)) {
            start = m_llr->send_control(*this, d, start);
            llr_reconsider_serve(d, now);
        }
        const uint64_t ser = llr_new_frame(d, p, start);
        return picoseconds(start - now + ser);
    }
    // A replay goes first, or the buffer is full: the link keeps the frame.
    L.held = &p;
    llr_kick(d, now);
    return end_req_later();
}

uint64_t link::llr_new_frame(direction d, packet& p, uint64_t start_ps)
{
    llr_lane& L = *m_llr->lane[d];
    const uint64_t seq = L.tx.push(&p, p.wire_bytes);
    if (__builtin_expect(L.timer_due_ps == never, 0)) {
        L.timer_due_ps = start_ps + m_llr->settings.timeout_ps;
        L.timer.notify_at_ps(L.timer_due_ps);
    }
    return llr_start(d, &p, p.wire_bytes, seq, start_ps, true);
}

// A RoCE queue pair's rate applies to the frame's first sending only: it is cleared here, so a
// replay, made from the frame as held, goes at the link's rate.
uint64_t link::llr_start(direction d, packet* p, uint32_t bytes, uint64_t seq, uint64_t start_ps,
                         bool first)
{
    lane& l = m_dir[d];
    llr_lane& L = *m_llr->lane[d];
    double rate = l.rate_bps;
    if (__builtin_expect(p && p->tx_rate_bps != 0, 0)) {
        rate = std::min(rate, p->tx_rate_bps);
        p->tx_rate_bps = 0;
    }
    const uint64_t ser_ps = serialization_ps(bytes, rate);
    if (__builtin_expect(!m_taps.empty(), 0)) {
        const sc_core::sc_time start = picoseconds(start_ps);
        for (auto& t : m_taps) t(*p, d, start);  // a tapped link keeps a copy of every frame
    }
    L.wire_free_ps = start_ps + ser_ps;
    if (__builtin_expect(!l.up || (m_loss > 0 && m_loss_rng->uniform() < m_loss), 0)) {
        ++l.lost;  // never arrives: the next frame shows the gap, or the replay timer fires
        if (first)
            L.tx.keep(seq, p);
        else if (p)
            m_pool.release(p);
    } else {
        const bool good = !(__builtin_expect(m_check_fcs, 0) && corrupted(l, bytes));
        L.wire.push({p, seq, good, first}, start_ps + ser_ps + m_delay_ps);
    }
    if (__builtin_expect(m_probe != nullptr, 0)) m_probe->changed();
    return ser_ps;
}

// Schedules direction `d`'s serve for the first time from `now_ps` at which it has work: the
// wire free, and a NACK, a replay or a held frame waiting, or an ACK once its spacing allows.
// Serves run in the control phase, placed by the link (wakeup.h): a serve that would find
// nothing to do is never needed, and when one was scheduled changes nothing.
void link::llr_kick(direction d, uint64_t now_ps)
{
    llr_lane& L = *m_llr->lane[d];
    const llr_receiver& rx = m_llr->lane[opposite(d)]->rx;
    const uint64_t at = std::max(now_ps, L.wire_free_ps);
    if (rx.nack_pending() || L.tx.replaying() || L.held)
        L.serve.notify_at_ps(at);
    else if (rx.ack_pending())
        L.serve.notify_at_ps(std::max(at, L.next_ack_ps));
}

// The control ordered set a serve was scheduled for went out with a port frame or an arrival:
// the serve is scheduled again for its remaining work, if any (most often none: a serve that
// would find nothing to do is left out).
void link::llr_reconsider_serve(direction d, uint64_t now_ps)
{
    llr_lane& L = *m_llr->lane[d];
    if (!L.serve.pending()) return;
    L.serve.cancel();
    llr_kick(d, now_ps);
}

// Direction `d`'s serve at `now_ps`: the control ordered set due first, then a replay, then the
// port's held frame.
void link::llr_serve(direction d, uint64_t now)
{
    llr_lane& L = *m_llr->lane[d];
    m_llr->settle(*this, d, now);
    if (L.wire_free_ps > now) {
        llr_kick(d, now);
        return;
    }
    if (m_llr->control_due(d, now)) {
        m_llr->send_control(*this, d, now);
    } else if (L.tx.replaying()) {
        const llr_sender::entry* e = L.tx.next_replay();
        // A frame delivered as first sent and not kept is a duplicate now: its length goes.
        const bool content = e->kept || e->seq >= L.rx.expected();
        llr_start(d, content ? m_pool.copy_of(*e->frame) : nullptr, e->bytes, e->seq, now, false);
    } else if (L.held && L.tx.has_room(L.held->wire_bytes)) {
        packet* p = L.held;
        L.held = nullptr;
        if (L.stall_from_ps != never) {
            L.stall_ps += now - L.stall_from_ps;
            L.stall_from_ps = never;
        }
        const uint64_t ser = llr_new_frame(d, *p, now);
        // The port's transmitter is free when this frame's serialization ends.
        from(d).end_req(*p, picoseconds(ser));
    } else {
        if (L.held) {
            // Waits for room: from the next control ordered set on its way, if any.
            if (L.stall_from_ps == never) L.stall_from_ps = now;
            llr_lane& W = *m_llr->lane[opposite(d)];
            if (!W.control.empty()) W.control_due.notify_at_ps(W.control.front().arrive_ps);
            // The ACK still goes once its spacing allows (not due now, or it would have).
            if (m_llr->lane[opposite(d)]->rx.ack_pending()) L.serve.notify_at_ps(L.next_ack_ps);
            return;
        }
    }
    llr_kick(d, now);
}

void link::llr_arrive(direction d, const llr_wire_frame& f)
{
    lane& l = m_dir[d];
    llr_lane& L = *m_llr->lane[d];
    if (__builtin_expect(!f.good, 0)) ++l.fcs_errors;
    if (__builtin_expect(L.rx.on_frame(f.seq, f.good), 1)) {
        // A tapped link's replays show the frame: a copy is kept.
        if (__builtin_expect(!m_taps.empty(), 0) && f.first) L.tx.keep(f.seq, m_pool.copy_of(*f.p));
        (d == a_to_b ? to_b : to_a).send(*f.p);
    } else if (f.first) {
        L.tx.keep(f.seq, f.p);
    } else if (f.p) {
        m_pool.release(f.p);  // a replay's copy
    }
    // The answer goes on the other wire: at once if it is free (no event), else when it is.
    const direction back = opposite(d);
    llr_lane& B = *m_llr->lane[back];
    const uint64_t now = sim_now_ps();
    if (B.wire_free_ps <= now && m_llr->control_due(back, now)) {
        m_llr->send_control(*this, back, now);
        llr_reconsider_serve(back, now);
    } else if (L.rx.nack_pending() || L.rx.ack_pending())
        llr_kick(back, now);
}

void link::llr_control(direction d)
{
    // Control ordered sets on wire `d` reached the sender of the other direction.
    const direction s = opposite(d);
    const uint64_t now = sim_now_ps();
    if (m_llr->settle(*this, s, now) || m_llr->lane[s]->held || m_llr->lane[s]->tx.replaying())
        llr_kick(s, now);
    // Still to come: a NACK (its notify was dropped if this wake-up was pending earlier), or
    // the ACK a stalled sender waits for.
    llr_lane& W = *m_llr->lane[d];
    if (!W.control.empty() && (m_probe || W.nacks_on_wire || m_llr->lane[s]->held))
        W.control_due.notify_at_ps(W.control.front().arrive_ps);
    if (m_probe) m_probe->changed();
}

void link::llr_timer(direction d)
{
    llr_lane& L = *m_llr->lane[d];
    const uint64_t now = sim_now_ps();
    if (m_llr->settle(*this, d, now)) llr_kick(d, now);
    if (L.timer_due_ps == never) return;
    if (now < L.timer_due_ps) {
        L.timer.notify_at_ps(L.timer_due_ps);
        return;
    }
    if (!L.tx.timeout()) {
        L.timer_due_ps = never;
        return;
    }
    ++L.timer_replays;
    L.timer_due_ps = now + m_llr->settings.timeout_ps;
    L.timer.notify_at_ps(L.timer_due_ps);
    llr_kick(d, now);
    if (m_probe) m_probe->changed();
}

void link::llr_link_down(direction d)
{
    // LLR's frames and control ordered sets in flight are lost too; the replay timer sends the
    // frames again once the link is back.
    llr_lane& L = *m_llr->lane[d];
    L.wire.drain([&](llr_lane::wire_frame f) {
        ++m_dir[d].lost;
        if (f.first)
            L.tx.keep(f.seq, f.p);
        else if (f.p)
            m_pool.release(f.p);
    });
    while (!L.control.empty()) L.control.pop_front();
    L.nacks_on_wire = 0;
}

void link::llr_rate_changed()
{
    m_llr->set_control_times(*this);
}

link::llr_counters link::llr_stats(direction d) const
{
    llr_counters c;
    if (!m_llr) return c;
    // What the sender knows now: the ACKs that have arrived are applied first.
    m_llr->settle(const_cast<link&>(*this), d, sim_now_ps());
    const llr_lane& L = *m_llr->lane[d];
    c.next_seq = L.tx.next_seq();
    c.acked_seq = L.tx.acked_seq();
    c.held_bytes = L.tx.held_bytes();
    c.replaying = L.tx.replaying();
    c.replays = L.tx.replays();
    c.timer_replays = L.timer_replays;
    c.replayed_frames = L.tx.replayed_frames();
    c.replayed_bytes = L.tx.replayed_bytes();
    c.stall_ps = L.stall_ps;
    if (L.stall_from_ps != never) c.stall_ps += sim_now_ps() - L.stall_from_ps;
    c.control_frames = L.control_frames;
    c.control_bytes = L.control_bytes;
    return c;
}

// The control ordered sets that reached the far end of `wire` by now are applied (a corrupted
// one counts in fcs_errors when it arrives, not when its sender next looks).
void link::llr_settle_arrived(direction wire) const
{
    m_llr->settle(const_cast<link&>(*this), opposite(wire), sim_now_ps());
}

uint64_t link::llr_take_peak(direction d)
{
    if (!m_llr) return 0;
    m_llr->settle(*this, d, sim_now_ps());
    return m_llr->lane[d]->tx.take_peak();
}

}  // namespace uetsim
