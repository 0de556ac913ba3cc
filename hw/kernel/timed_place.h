// Where an item stands among the model's wake-ups: its time, the place of the wake-up that
// brings it (wakeup::place_key: a link's wire, a pipeline), and the order it was handed over in
// by that wake-up. What a device keeps for work it applies later in the order the wake-ups would
// have run (a switch's frames taken ahead, their exits from its pipeline).
#pragma once

#include <cstdint>

namespace uetsim {

struct timed_place
{
    uint64_t ps;
    uint64_t place;
    uint64_t seq;
};

inline bool operator<(const timed_place& a, const timed_place& b)
{
    if (a.ps != b.ps) return a.ps < b.ps;
    if (a.place != b.place) return a.place < b.place;
    return a.seq < b.seq;
}

// Orders items by their `order` member (merged_fifos' `Before`).
struct by_timed_place
{
    template <typename T>
    bool operator()(const T& a, const T& b) const
    {
        return a.order < b.order;
    }
};

}  // namespace uetsim
