// A device at the end of a link that can take a frame when it starts on the wire, ahead of its
// arrival (docs/performance.md, "Frames handed over ahead"): the link then needs no wake-up of
// its own for the arrival. The device applies the arrival at its time and in the place the
// link's delivery would have had among same-time wake-ups (the wire's line place), before
// anything it does that could see it; it takes a frame only when nothing the arrival could do
// must happen at that time (a pause frame) or could fail (a drop).
#pragma once

#include <cstdint>
#include <functional>

#include "tlm/packet.h"

namespace uetsim {

class ahead_receiver
{
public:
    // What the link still carries to the receiver, to arrive before the frame offered.
    struct on_wire
    {
        uint32_t frames = 0;
        uint64_t bytes = 0;  // their wire bytes
    };
    // `p` arrives at `arrive_ps` in place `place_key` (a line's wakeup::place_key()), after
    // `ahead` on the wire: taken (true, the receiver owns it) or not (the link delivers it at
    // its time).
    virtual bool take_ahead(packet& p, uint64_t arrive_ps, uint64_t place_key,
                            const on_wire& ahead) = 0;
    // The link went down now: every frame taken whose arrival has not come yet is handed to
    // `lost`, in order (the link counts and frees it).
    virtual void recall_ahead(const std::function<void(packet*)>& lost) = 0;

protected:
    ~ahead_receiver() = default;
};

}  // namespace uetsim
