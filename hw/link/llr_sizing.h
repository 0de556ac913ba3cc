// The numbers LLR's `auto` settings are derived from (docs/link-layer.md, "Replay buffer"): the
// LLR round trip of a link, the replay buffer that covers it, and the replay timeout.
// Kernel-free.
#pragma once

#include <cmath>
#include <cstdint>

namespace uetsim {

struct llr_link_params
{
    double rate_bps = 0;
    double delay_s = 0;
    uint32_t max_frame_bytes = 0;    // the largest frame on the link (the data MSS + headers)
    uint32_t control_bytes = 8;      // one control ordered set (LLR_ACK, LLR_NACK) on the wire
    uint32_t ack_spacing_bytes = 0;  // at most one ACK per this many byte times
};

// From the start of a frame to the arrival of the ACK that covers it, with nothing lost and the
// reverse direction busy: the frame's serialization, the propagation delay, the wait for the
// next ACK slot (the ACK spacing), a largest frame already on the reverse wire, the ACK's own
// serialization, the propagation delay back.
inline double llr_round_trip_s(const llr_link_params& p)
{
    const double bytes = 2.0 * p.max_frame_bytes + p.ack_spacing_bytes + p.control_bytes;
    return 2 * p.delay_s + bytes * 8 / p.rate_bps;
}

// The replay buffer that lets a sender run at line rate without waiting for ACKs: the round
// trip's bytes, rounded up to whole largest frames.
inline uint64_t llr_auto_buffer_bytes(const llr_link_params& p)
{
    const double bytes = llr_round_trip_s(p) * p.rate_bps / 8;
    const uint64_t frames = uint64_t(std::ceil(bytes / p.max_frame_bytes - 1e-9));
    return frames * p.max_frame_bytes;
}

// Twice the round trip: a timer replay never starts while the ACKs of a healthy link are due.
inline double llr_auto_timeout_s(const llr_link_params& p)
{
    return 2 * llr_round_trip_s(p);
}

}  // namespace uetsim
