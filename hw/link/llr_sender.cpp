#include "hw/link/llr_sender.h"

namespace uetsim {

uint64_t llr_sender::push(packet* frame, uint32_t bytes)
{
    const uint64_t seq = m_next++;
    const bool was_replaying = replaying();
    m_buf.push_back({seq, bytes, frame, false});
    // A replay in progress ends where it started: frames sent after it began are not part of it.
    if (!was_replaying) m_cursor = m_buf.size();
    m_held += bytes;
    if (m_held > m_peak) m_peak = m_held;
    return seq;
}

void llr_sender::start_replay()
{
    m_cursor = 0;
    if (!m_buf.empty()) ++m_replays;
}

const llr_sender::entry* llr_sender::next_replay()
{
    if (m_cursor >= m_buf.size()) return nullptr;
    const entry& e = m_buf.at(m_cursor++);
    ++m_replayed_frames;
    m_replayed_bytes += e.bytes;
    return &e;
}

}  // namespace uetsim
