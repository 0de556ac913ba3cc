// The frame ends an owner's transmitters hold back (frame_end_deferral, transmitter.h), in the
// order their wake-ups would have run. The owner settles them before each thing it does, so
// that everything it does sees the state those frame ends would have left: the frame ends
// ordered before the wake-up being run are done first, in order; the others stay held back
// until something needs them, or are queued (realize_all) when the owner's conditions for
// holding back end. One per switch (its ports share the buffer and the random stream).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "hw/kernel/model_scheduler.h"
#include "hw/link/transmitter.h"

namespace uetsim {

class deferred_frame_ends final : public deferred_owner
{
public:
    deferred_frame_ends() : m_scheduler(model_scheduler::instance()) {}
    ~deferred_frame_ends()
    {
        if (m_owed && !m_list) m_scheduler.forget(this);
    }
    deferred_frame_ends(const deferred_frame_ends&) = delete;
    deferred_frame_ends& operator=(const deferred_frame_ends&) = delete;

    bool may_defer(uint64_t end_ps) const { return m_scheduler.may_defer(end_ps); }
    // The owner settles these with other held-back work of its own, in one order: when a
    // frame end is held back, `list` is called instead of listing this with the scheduler.
    void list_through(std::function<void()> list) { m_list = std::move(list); }
    // `t`'s frame end was just held back.
    void add(transmitter& t);
    // Before the owner's work in the wake-up being run.
    void settle()
    {
        // Inline, as most calls find nothing due: the earliest entry is compared in place.
        if (m_first == m_held.size()) return;
        const entry& e = m_held[m_first];
        const uint64_t now = m_scheduler.current_ps();
        if (e.at_ps > now) return;
        const uint64_t key = m_scheduler.current_key();
        if (e.at_ps == now && e.key > key) return;
        settle_before(now, key);
    }
    // Whether any frame end is held back (stale entries may say yes).
    bool holding() const { return m_first != m_held.size(); }
    // Whether a frame end ordered before (at_ps, key) is held back (a stale entry may say yes).
    bool holds_before(uint64_t at_ps, uint64_t key) const
    {
        if (m_first == m_held.size()) return false;
        const entry& e = m_held[m_first];
        return e.at_ps < at_ps || (e.at_ps == at_ps && e.key < key);
    }
    // Every held-back frame end is queued as a wake-up (their work may now send something).
    void realize_all();
    bool settle_before(uint64_t at_ps, uint64_t key) override;

private:
    model_scheduler& m_scheduler;
    // In the order they fall due, from m_first on. An entry whose transmitter queued its
    // frame end since (kick() realises it) no longer matches the key: stale, skipped.
    struct entry
    {
        uint64_t at_ps;
        uint64_t key;
        transmitter* t;
        bool live() const { return t->frame_end().deferred() && t->frame_end().key() == key; }
    };
    std::vector<entry> m_held;
    size_t m_first = 0;
    bool m_owed = false;  // listed with the scheduler (or through m_list)
    std::function<void()> m_list;
};

}  // namespace uetsim
