// The sending side of Link Level Retry on one link direction (UEC 1.0 §5.1, docs/link-layer.md):
// it numbers each new frame, holds it in the replay buffer until the receiver's cumulative
// LLR_ACK covers it, and replays go-back-N from the first frame after the one an LLR_NACK names,
// or every held frame when the replay timer expires. A frame that does not fit in the buffer waits
// (the port stalls). Kernel-free: the link module wraps it and owns the timing.
//
// No copy is made as a frame goes out: an entry points at the frame itself, which nothing changes
// while it is on the wire. A frame that arrives in sequence goes on with its packet, and nothing
// is written here (a replay of it can only be a duplicate, which the receiver discards unread:
// its length is all it needs). A frame that does not (corrupted, after a gap, lost) is handed
// back: keep(), and the buffer owns it until its ACK.
#pragma once

#include <cstdint>

#include "hw/common/ring.h"

namespace uetsim {

struct packet;

class llr_sender
{
public:
    struct entry
    {
        uint64_t seq;
        uint32_t bytes;
        // The frame as first sent: valid while it is on the wire, and once `kept`; gone once it
        // was delivered without being kept.
        packet* frame;
        bool kept;  // the buffer owns `frame`
    };

    explicit llr_sender(uint64_t buffer_bytes) : m_capacity(buffer_bytes) {}

    // Whether a new frame of `bytes` fits in the replay buffer now.
    bool has_room(uint32_t bytes) const { return m_held + bytes <= m_capacity; }
    // A new frame goes out: its number (1, 2, ...); the buffer holds it until acknowledged.
    uint64_t push(packet* frame, uint32_t bytes);
    // Frame `seq` is the buffer's from now on, as `frame`: the frame as first sent, which did
    // not arrive in sequence, or a copy of it kept when it did. `seq` is held: no ACK covers a
    // frame before it arrives in sequence.
    void keep(uint64_t seq, packet* frame)
    {
        entry& e = m_buf.at(size_t(seq - m_buf.front().seq));
        e.frame = frame;
        e.kept = true;
    }

    // LLR_ACK of `seq` (the receiver's last good frame): every frame up to it leaves the buffer,
    // each frame it owns handed to `release`. Returns whether anything left (progress).
    template <class F>
    bool ack(uint64_t seq, F&& release)
    {
        bool freed = false;
        while (!m_buf.empty() && m_buf.front().seq <= seq) {
            m_held -= m_buf.front().bytes;
            if (m_buf.front().kept) release(m_buf.front().frame);
            m_buf.pop_front();
            if (m_cursor > 0) --m_cursor;
            freed = true;
        }
        if (seq > m_acked && seq < m_next) m_acked = seq;
        return freed;
    }
    // LLR_NACK of `seq`: acknowledges up to `seq` and replays from seq + 1 (go-back-N).
    template <class F>
    void nack(uint64_t seq, F&& release)
    {
        ack(seq, release);
        start_replay();
    }
    // The replay timer expired: every held frame again, from the oldest. False if none is held.
    bool timeout()
    {
        if (m_buf.empty()) return false;
        start_replay();
        return true;
    }

    // The next frame of a replay in progress (it stays held), or nullptr when none is left.
    const entry* next_replay();
    bool replaying() const { return m_cursor < m_buf.size(); }

    uint64_t next_seq() const { return m_next; }    // the number the next new frame gets
    uint64_t acked_seq() const { return m_acked; }  // the highest number acknowledged (0: none)
    uint64_t held_bytes() const { return m_held; }
    size_t held_frames() const { return m_buf.size(); }
    uint64_t capacity() const { return m_capacity; }
    uint64_t replays() const { return m_replays; }  // replays started (NACK or timer)
    uint64_t replayed_frames() const { return m_replayed_frames; }
    uint64_t replayed_bytes() const { return m_replayed_bytes; }
    // The most bytes held since the last take_peak(), which restarts it from what is held now.
    uint64_t peak() const { return m_peak; }
    uint64_t take_peak()
    {
        const uint64_t p = m_peak;
        m_peak = m_held;
        return p;
    }

private:
    void start_replay();

    uint64_t m_capacity;
    ring<entry> m_buf;
    size_t m_cursor = 0;  // index in m_buf of the next frame to replay; size(): none
    uint64_t m_next = 1;
    uint64_t m_acked = 0;
    uint64_t m_held = 0;
    uint64_t m_peak = 0;
    uint64_t m_replays = 0;
    uint64_t m_replayed_frames = 0;
    uint64_t m_replayed_bytes = 0;
};

}  // namespace uetsim
