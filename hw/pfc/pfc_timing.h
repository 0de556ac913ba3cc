// PFC's time arithmetic (UET and RoCE NIC buffers-and-PFC pages, switch packet-handling page):
// a pause of Q quanta lasts 512 x Q bit times at the link rate plus the link's propagation
// delay, and a paused sender's pause is refreshed every half of that. Kernel-free.
#pragma once

#include <cstdint>

namespace uetsim {

inline constexpr uint64_t pfc_bits_per_quantum = 512;

struct pfc_link
{
    double rate_bps = 400e9;
    uint64_t delay_ps = 0;  // propagation delay of the link
};

// Pause time of `quanta`, rounded to the nearest picosecond (0 quanta: no pause).
inline uint64_t pfc_pause_ps(uint16_t quanta, const pfc_link& l)
{
    if (quanta == 0) return 0;
    const double bits = double(pfc_bits_per_quantum) * double(quanta);
    return uint64_t(bits * 1e12 / l.rate_bps + 0.5) + l.delay_ps;
}

// The refresh interval of a pause the port sends: half its pause time.
inline uint64_t pfc_refresh_ps(uint16_t quanta, const pfc_link& l)
{
    return pfc_pause_ps(quanta, l) / 2;
}

}  // namespace uetsim
