// Where an item stands among the model's wake-ups: its time and the place of the wake-up that
// brings it (wakeup::place_key: a link's wire, a pipeline). What a device keeps for work it
// applies later in the order the wake-ups would have run (a switch's frames taken ahead, their
// exits from its pipeline). Two items of one wire never share a time, so a pair names an item.
#pragma once

#include <cstdint>

namespace uetsim {

struct timed_place
{
    uint64_t ps;
    uint64_t place;
};

inline bool operator<(const timed_place& a, const timed_place& b)
{
    return a.ps != b.ps ? a.ps < b.ps : a.place < b.place;
}
inline bool operator==(const timed_place& a, const timed_place& b)
{
    return a.ps == b.ps && a.place == b.place;
}

}  // namespace uetsim
