// Link Level Retry on a link (link.h, docs/link-layer.md): the two directions' senders and
// receivers, their control ordered sets on the wires, and each end's serve.
#include "hw/link/link.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hw/kernel/activity.h"
#include "hw/kernel/model_scheduler.h"
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

// One end of the link, laid out by what one step touches: the end sending on wire `d` holds
// that wire's sender and timing, the control ordered sets it sends on it, and the receiver of
// the frames coming back to it on the other wire (whose ACKs it sends). A port's frame, an
// arrival and an ACK each touch one end, plus the ring the other end reads.
struct alignas(64) link::llr_end
{
    using wire_frame = llr_wire_frame;
    struct control_os
    {
        uint64_t arrive_ps;
        uint64_t seq;
        bool nack;
        bool good;
    };

    llr_end(link& l, direction d, uint64_t buffer_bytes)
        : tx(buffer_bytes)
        , wire("llr_wire", [&l, d](wire_frame f) { l.llr_arrive(d, f); })
        // After the model's wake-ups of its time (wakeup.h): what it sends at a time does not
        // depend on when it was scheduled, only on the state that time ends with.
        , serve(
              [&l, d] {
                  activity::tick();
                  l.llr_catch_up();
                  l.llr_serve(d, sim_now_ps());
              },
              wakeup::phase::control)
        , control_due([&l, d] {
            activity::tick();
            l.llr_control(d);
        })
        , timer([&l, d] {
            activity::tick();
            l.llr_timer(d);
        })
    {
    }

    // Every frame and every ACK: the wire's timing, what waits for it, the receiver.
    uint64_t wire_free_ps = 0;
    uint64_t next_ack_ps = 0;  // the earliest time the next ACK may start on this wire
    // This wire's control ordered set and ACK spacing in time at its rate (set_rate changes it).
    uint64_t control_ps = 0;
    uint64_t ack_spacing_ps = 0;
    packet* held = nullptr;      // the port's frame, kept until it can start
    bool peer_stalled = false;   // the other end holds a frame: it waits for this end's ACKs
    uint32_t nacks_on_wire = 0;  // NACKs in `control`: each must wake its sender as it arrives
    llr_receiver rx;             // of the other wire's frames
    // Control ordered sets this end sent on its wire, in arrival order (they answer the other
    // wire's frames). An ACK takes effect when its arrival time has passed and the other end's
    // sender next looks (settle): no event of its own. A NACK, a stalled sender or a traced
    // link wakes control_due at the arrival instead.
    ring<control_os> control;
    llr_sender tx;
    uint64_t timer_due_ps = never;
    uint64_t control_frames = 0;
    uint64_t control_bytes = 0;
    timed_fifo<wire_frame> wire;
    // Queued, or, when all it has to do is an ACK, held back (deferred below).
    wakeup serve;
    wakeup control_due;
    wakeup timer;
    uint64_t stall_from_ps = never;  // since when it waits for room in the replay buffer
    uint64_t stall_ps = 0;
    uint64_t timer_replays = 0;
};

// A serve that only sends an ACK changes nothing outside the link, and everything it does has
// its time written in it (the ACK's start and arrival). So it is held back rather than queued
// (wakeup::defer_at_ps), in its place among same-time wake-ups, and done when the link is next
// touched: every way in (a port's frame, an arrival, a wake-up of the link's, a reader) first
// does the held-back serves ordered before the wake-up being run (catch_up), and the scheduler
// does the rest before the samplers and at the end of its run. Most are never needed as events:
// the ACK goes out with the port's next frame, or a later serve covers it. A serve with more
// to do (a NACK, a replay, a held frame), one a stalled sender waits for, and a traced link's
// are queued.
struct link::llr_state final : deferred_owner
{
    llr_settings settings;
    std::unique_ptr<llr_end> end[2];
    link& owner;
    model_scheduler& scheduler;
    bool owed = false;  // listed with the scheduler: a serve is held back
    // No replay timer is armed (settings.timer_on_demand) until something could make it expire.
    bool timer_left_out = false;

    explicit llr_state(link& l) : owner(l), scheduler(model_scheduler::instance()) {}
    ~llr_state()
    {
        if (owed) scheduler.forget(this);
    }

    // The held-back serves ordered before the wake-up being run, in their order.
    void catch_up()
    {
        if (__builtin_expect(owed, 0))
            settle_before(scheduler.current_ps(), scheduler.current_key());
    }
    bool settle_before(uint64_t at_ps, uint64_t key) override
    {
        for (;;) {
            wakeup* first = nullptr;
            int d_first = 0;
            for (int d = 0; d < 2; ++d) {
                wakeup& w = end[d]->serve;
                if (!w.deferred() || !wakeup_queue::before(w.due_ps(), w.key(), at_ps, key))
                    continue;
                if (!first ||
                    wakeup_queue::before(w.due_ps(), w.key(), first->due_ps(), first->key())) {
                    first = &w;
                    d_first = d;
                }
            }
            if (!first) break;
            const uint64_t due = first->due_ps();
            first->take_deferred();
            owner.llr_serve(direction(d_first), due);
        }
        owed = end[0]->serve.deferred() || end[1]->serve.deferred();
        return owed;
    }
    // Direction `d`'s serve at `at_ps` (or earlier, if one is due earlier); `ack_only`: all it
    // has to do is an ACK, so it may be held back.
    void serve_at(direction d, uint64_t at_ps, bool ack_only)
    {
        wakeup& w = end[d]->serve;
        if (w.deferred() && w.due_ps() <= at_ps) {
            if (!ack_only) queue(w, w.due_ps(), true);
            return;
        }
        if (ack_only && !w.pending() && owner.m_probe == nullptr && !end[d]->peer_stalled &&
            scheduler.may_defer(at_ps)) {
            w.defer_at_ps(at_ps);
            if (!owed) {
                owed = true;
                scheduler.owe(this);
            }
            return;
        }
        queue(w, at_ps, false);
    }
    // Work held back was done before anything touched the link (catch_up), so nothing is queued
    // for a time the scheduler has passed; a serve that were would run late.
    void queue(wakeup& w, uint64_t at_ps, bool deferred)
    {
        if (__builtin_expect(at_ps < scheduler.current_ps(), 0)) owner.llr_serve_late();
        if (deferred)
            w.realize();
        else
            w.notify_at_ps(at_ps);
    }

    // Applies the control ordered sets that reached the sender of direction `s` by `now_ps`
    // (they travel on the other direction's wire), in order: ACKs free frames, a NACK starts a
    // replay; progress restarts the replay timer from the arrival. Returns whether a NACK came.
    bool settle(link& l, direction s, uint64_t now_ps)
    {
        llr_end& S = *end[s];
        llr_end& W = *end[opposite(s)];
        bool nacked = false;
        auto release = [&l](packet* p) { l.m_pool.release(p); };
        while (!W.control.empty() && W.control.front().arrive_ps <= now_ps) {
            const llr_end::control_os c = W.control.front();
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
        const llr_end& E = *end[d];
        return E.rx.nack_pending() || (E.rx.ack_pending() && at_ps >= E.next_ack_ps);
    }

    // Sends that ACK or NACK on wire `d` from `start_ps`; returns when the wire is free again.
    uint64_t send_control(link& l, direction d, uint64_t start_ps)
    {
        link::lane& w = l.m_dir[d];
        llr_end& L = *end[d];  // its receiver answers the other end's frames
        const bool nack = L.rx.take_control();
        L.wire_free_ps = start_ps + L.control_ps;
        if (!nack) L.next_ack_ps = start_ps + L.ack_spacing_ps;
        ++L.control_frames;
        L.control_bytes += settings.control_bytes;
        const bool good = w.up && !(__builtin_expect(l.m_ber > 0, 0) &&
                                    l.corrupted_os(w, settings.control_bytes));
        const uint64_t arrive = L.wire_free_ps + l.m_delay_ps;
        L.control.push_back({arrive, L.rx.last_good(), nack, good});
        if (nack) ++L.nacks_on_wire;
        // The sender acts on a NACK at once; on an ACK when it next looks, unless it waits for
        // one or the link is traced.
        if (__builtin_expect(nack || L.peer_stalled || l.m_probe, 0))
            L.control_due.notify_at_ps(arrive);
        return L.wire_free_ps;
    }

    void set_control_times(const link& l)
    {
        for (int d = 0; d < 2; ++d) {
            end[d]->control_ps = serialization_ps(settings.control_bytes, l.m_dir[d].rate_bps);
            end[d]->ack_spacing_ps =
                serialization_ps(settings.ack_spacing_bytes, l.m_dir[d].rate_bps);
        }
    }
};

// The frames the replay buffers still hold stay in the pool's slabs, which free them with the
// pool.
void link::llr_state_deleter::operator()(llr_state* s) const
{
    delete s;
}

void link::enable_llr(const llr_settings& s)
{
    m_llr.reset(new llr_state(*this));
    m_llr->settings = s;
    m_llr->timer_left_out = s.timer_on_demand;
    for (int d = 0; d < 2; ++d)
        m_llr->end[d] = std::make_unique<llr_end>(*this, direction(d), s.buffer_bytes);
    m_llr->set_control_times(*this);
}

void link::llr_serve_late() const
{
    throw std::logic_error(std::string(name()) + ": an LLR serve queued for a time already run");
}

void link::offered_while_held() const
{
    throw std::logic_error(std::string(name()) + ": a frame offered while one is held");
}

void link::llr_catch_up()
{
    m_llr->catch_up();
}

sc_core::sc_time link::llr_transmit(direction d, packet& p)
{
    m_llr->catch_up();
    llr_end& L = *m_llr->end[d];
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
    // A replay goes first, or the buffer is full: the link keeps the frame. The ACKs it may wait
    // for must wake it as they arrive: a serve that sends one is queued.
    L.held = &p;
    llr_end& answering = *m_llr->end[opposite(d)];
    answering.peer_stalled = true;
    if (answering.serve.deferred()) m_llr->queue(answering.serve, answering.serve.due_ps(), true);
    llr_kick(d, now);
    return end_req_later();
}

uint64_t link::llr_new_frame(direction d, packet& p, uint64_t start_ps)
{
    llr_end& L = *m_llr->end[d];
    const uint64_t seq = L.tx.push(&p, p.wire_bytes);
    if (__builtin_expect(L.timer_due_ps == never, 0)) {
        L.timer_due_ps = start_ps + m_llr->settings.timeout_ps;
        if (!m_llr->timer_left_out) L.timer.notify_at_ps(L.timer_due_ps);
    }
    return llr_start(d, &p, p.wire_bytes, seq, start_ps, true);
}

// A RoCE queue pair's rate applies to the frame's first sending only: it is cleared here, so a
// replay, made from the frame as held, goes at the link's rate.
uint64_t link::llr_start(direction d, packet* p, uint32_t bytes, uint64_t seq, uint64_t start_ps,
                         bool first)
{
    lane& l = m_dir[d];
    llr_end& L = *m_llr->end[d];
    double rate = l.rate_bps;
    if (__builtin_expect(p && p->tx_rate_bps != 0, 0)) {
        rate = std::min(rate, p->tx_rate_bps);
        p->tx_rate_bps = 0;
        if (rate < l.rate_bps) llr_need_timer();  // its ACK may come later than the timeout
    }
    const uint64_t ser_ps = serialization_ps(bytes, rate);
    if (__builtin_expect(!m_taps.empty(), 0)) {
        const sc_core::sc_time start = picoseconds(start_ps);
        for (auto& t : m_taps) t(*p, d, start);  // never null: a tapped link keeps copies
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
    llr_end& L = *m_llr->end[d];
    const uint64_t at = std::max(now_ps, L.wire_free_ps);
    if (L.rx.nack_pending() || L.tx.replaying() || L.held)
        m_llr->serve_at(d, at, false);
    else if (L.rx.ack_pending())
        m_llr->serve_at(d, std::max(at, L.next_ack_ps), true);
}

// The control ordered set a serve was scheduled for went out with a port frame or an arrival:
// the serve is scheduled again for its remaining work, if any (most often none: a serve that
// would find nothing to do is left out).
void link::llr_reconsider_serve(direction d, uint64_t now_ps)
{
    llr_end& L = *m_llr->end[d];
    if (!L.serve.pending() && !L.serve.deferred()) return;
    L.serve.cancel();
    llr_kick(d, now_ps);
}

// Direction `d`'s serve at `now_ps`: the control ordered set due first, then a replay, then the
// port's held frame.
void link::llr_serve(direction d, uint64_t now)
{
    llr_end& L = *m_llr->end[d];
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
        const bool content = e->kept || e->seq >= m_llr->end[opposite(d)]->rx.expected();
        llr_start(d, content ? m_pool.copy_of(*e->frame) : nullptr, e->bytes, e->seq, now, false);
    } else if (L.held && L.tx.has_room(L.held->wire_bytes)) {
        packet* p = L.held;
        L.held = nullptr;
        m_llr->end[opposite(d)]->peer_stalled = false;
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
            llr_end& W = *m_llr->end[opposite(d)];
            if (!W.control.empty()) W.control_due.notify_at_ps(W.control.front().arrive_ps);
            // The ACK still goes once its spacing allows (not due now, or it would have).
            if (L.rx.ack_pending()) L.serve.notify_at_ps(L.next_ack_ps);
            return;
        }
    }
    llr_kick(d, now);
}

void link::llr_arrive(direction d, const llr_wire_frame& f)
{
    m_llr->catch_up();
    // The frame reaches the end that sends on the other wire, `back`: its receiver, and its
    // answer on that wire, at once if it is free (no event), else when it is.
    const direction back = opposite(d);
    llr_end& B = *m_llr->end[back];
    if (__builtin_expect(!f.good, 0)) ++m_dir[d].fcs_errors;
    if (__builtin_expect(B.rx.on_frame(f.seq, f.good), 1)) {
        // A tapped link's replays show the frame: a copy is kept.
        if (__builtin_expect(!m_taps.empty(), 0) && f.first)
            m_llr->end[d]->tx.keep(f.seq, m_pool.copy_of(*f.p));
        (d == a_to_b ? to_b : to_a).send(*f.p);
    } else if (f.first) {
        m_llr->end[d]->tx.keep(f.seq, f.p);
    } else if (f.p) {
        m_pool.release(f.p);  // a replay's copy
    }
    const uint64_t now = sim_now_ps();
    if (B.wire_free_ps <= now && m_llr->control_due(back, now)) {
        m_llr->send_control(*this, back, now);
        llr_reconsider_serve(back, now);
    } else if (B.rx.nack_pending() || B.rx.ack_pending())
        llr_kick(back, now);
}

void link::llr_control(direction d)
{
    // Control ordered sets on wire `d` reached the sender of the other direction.
    m_llr->catch_up();
    const direction s = opposite(d);
    const uint64_t now = sim_now_ps();
    if (m_llr->settle(*this, s, now) || m_llr->end[s]->held || m_llr->end[s]->tx.replaying())
        llr_kick(s, now);
    // Still to come: a NACK (its notify was dropped if this wake-up was pending earlier), or
    // the ACK a stalled sender waits for.
    llr_end& W = *m_llr->end[d];
    if (!W.control.empty() && (m_probe || W.nacks_on_wire || m_llr->end[s]->held))
        W.control_due.notify_at_ps(W.control.front().arrive_ps);
    if (m_probe) m_probe->changed();
}

void link::llr_timer(direction d)
{
    m_llr->catch_up();
    llr_end& L = *m_llr->end[d];
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
    llr_end& L = *m_llr->end[d];
    L.wire.drain([&](llr_end::wire_frame f) {
        ++m_dir[d].lost;
        if (f.first)
            L.tx.keep(f.seq, f.p);
        else if (f.p)
            m_pool.release(f.p);
    });
    while (!L.control.empty()) L.control.pop_front();
    L.nacks_on_wire = 0;
}

// Something that could lose a frame or hold an ACK back past the timeout (docs/link-layer.md,
// "What LLR costs"): from now on the timer runs as on any link. It wakes at the due time
// the sender knows (ACKs not yet applied may have moved it later: it then goes on as after any
// early wake-up).
void link::llr_need_timer()
{
    if (!m_llr->timer_left_out) return;
    m_llr->timer_left_out = false;
    const uint64_t now = sim_now_ps();
    for (auto& e : m_llr->end)
        if (e->timer_due_ps != never) e->timer.notify_at_ps(std::max(e->timer_due_ps, now));
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
    m_llr->catch_up();
    m_llr->settle(const_cast<link&>(*this), d, sim_now_ps());
    const llr_end& L = *m_llr->end[d];
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
    m_llr->catch_up();
    m_llr->settle(const_cast<link&>(*this), opposite(wire), sim_now_ps());
}

uint64_t link::llr_take_peak(direction d)
{
    if (!m_llr) return 0;
    m_llr->catch_up();
    m_llr->settle(*this, d, sim_now_ps());
    return m_llr->end[d]->tx.take_peak();
}

}  // namespace uetsim
