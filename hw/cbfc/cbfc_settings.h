// Credit-based flow control (CBFC) on one link end: which traffic classes ride which virtual
// channel (VC), the credit unit, the receiver's advertised buffer per VC and the credit update
// frames' schedule and size (docs/link-layer.md). Kernel-free.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace uetsim {

inline constexpr int cbfc_max_vcs = 8;
inline constexpr uint8_t cbfc_no_vc = 0xFF;  // vc_of_tc: the class does not use CBFC
// Credit counts travel modulo 2^16 (cumulative, as InfiniBand's FCCL/FCTBS): a sender may have
// at most half the counter's range outstanding, so an update is never ambiguous.
inline constexpr uint32_t cbfc_max_vc_credits = 32767;

struct cbfc_settings
{
    bool enabled = false;
    std::array<uint8_t, 8> vc_of_tc = {cbfc_no_vc, cbfc_no_vc, cbfc_no_vc, cbfc_no_vc,
                                       cbfc_no_vc, cbfc_no_vc, cbfc_no_vc, cbfc_no_vc};
    uint32_t credit_unit_bytes = 64;
    uint32_t vc_credits = 0;          // advertised per VC by the receiver, in credit units
    uint64_t update_interval_ps = 0;  // at most one credit update per interval
    uint32_t update_frame_bytes = 64;
    // A VC stalled with no update for this long sends a credit sync, and again every interval
    // while it lasts (0: never).
    uint64_t sync_interval_ps = 0;

    // Bit c: class c rides a VC.
    uint8_t classes() const
    {
        uint8_t m = 0;
        for (int c = 0; c < 8; ++c)
            if (vc_of_tc[size_t(c)] != cbfc_no_vc) m |= uint8_t(1u << c);
        return m;
    }
    // The classes of VC `vc`.
    uint8_t classes_of(int vc) const
    {
        uint8_t m = 0;
        for (int c = 0; c < 8; ++c)
            if (vc_of_tc[size_t(c)] == vc) m |= uint8_t(1u << c);
        return m;
    }
    // One more than the highest VC in use (0: none).
    int vcs() const
    {
        int n = 0;
        for (uint8_t v : vc_of_tc)
            if (v != cbfc_no_vc && v + 1 > n) n = v + 1;
        return n;
    }
    // Credits a frame of `wire_bytes` takes: its whole frame, rounded up to credit units.
    uint32_t credits_for(uint32_t wire_bytes) const
    {
        return (wire_bytes + credit_unit_bytes - 1) / credit_unit_bytes;
    }
    uint64_t vc_buffer_bytes() const { return uint64_t(vc_credits) * credit_unit_bytes; }
};

// The receiver's buffer per VC that keeps a sender at line rate: a credit spent at the start of
// a frame comes back one round trip later at the earliest: the frame's serialization and flight,
// its residence in the receiver (a switch: the forwarding latency and its serialization out,
// `residence_ps`), the receiver's wait for its update slot (up to the interval), the update
// behind at most one frame on the reverse wire, its serialization and flight. So the buffer
// must cover
//   rate x (2 x delay + interval + residence) + 2 x largest frame + update frame,
// rounded up to whole credit units.
inline uint64_t cbfc_line_rate_buffer_bytes(double rate_bps, uint64_t delay_ps,
                                            uint64_t interval_ps, uint64_t residence_ps,
                                            uint32_t largest_frame_bytes,
                                            uint32_t update_frame_bytes, uint32_t unit_bytes)
{
    const double flight_bytes =
        rate_bps * double(2 * delay_ps + interval_ps + residence_ps) * 1e-12 / 8.0;
    const uint64_t bytes =
        uint64_t(std::ceil(flight_bytes - 1e-6)) + 2ull * largest_frame_bytes + update_frame_bytes;
    return (bytes + unit_bytes - 1) / unit_bytes * unit_bytes;
}

}  // namespace uetsim
