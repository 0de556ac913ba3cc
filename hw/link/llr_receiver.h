// The receiving side of Link Level Retry on one link direction (UEC 1.0 §5.1, docs/link-layer.md):
// it delivers frames in sequence, acknowledges them with a cumulative LLR_ACK (the last good
// frame's number), and at the first missing or corrupted frame sends one LLR_NACK naming the last
// good frame, then discards everything, and sends no ACK or NACK, until the frame it expects
// arrives. Kernel-free: the link module wraps it and decides when a control ordered set goes out.
#pragma once

#include <cstdint>

namespace uetsim {

class llr_receiver
{
public:
    // A frame numbered `seq` arrived; `good`: it passed the FCS check. Whether to deliver it.
    bool on_frame(uint64_t seq, bool good)
    {
        if (good && seq == m_expected) {
            ++m_expected;
            m_nack_sent = false;
            m_ack_pending = true;
            return true;
        }
        if (m_nack_sent) return false;  // waiting for the replay: silent
        if (good && seq < m_expected) {
            m_ack_pending = true;  // a duplicate (a timer replay): acknowledge it again
            return false;
        }
        // Corrupted, or a gap before it: one NACK, then wait for the replay.
        m_nack_pending = true;
        m_nack_sent = true;
        m_ack_pending = false;
        ++m_nacks;
        return false;
    }

    bool nack_pending() const { return m_nack_pending; }
    bool ack_pending() const { return m_ack_pending; }
    // The number an ACK or NACK carries: the last frame delivered in sequence (0: none).
    uint64_t last_good() const { return m_expected - 1; }
    uint64_t expected() const { return m_expected; }
    // The control ordered set goes out: a NACK if one is pending (it acknowledges too), else an
    // ACK. Returns true for a NACK.
    bool take_control()
    {
        const bool nack = m_nack_pending;
        m_nack_pending = m_ack_pending = false;
        return nack;
    }
    uint64_t nacks() const { return m_nacks; }

private:
    uint64_t m_expected = 1;
    bool m_nack_sent = false;  // a NACK went out; waiting for the frame it asked for
    bool m_nack_pending = false;
    bool m_ack_pending = false;
    uint64_t m_nacks = 0;
};

}  // namespace uetsim
