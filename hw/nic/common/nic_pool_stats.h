// The traffic of one NIC buffer pool, for the net-buff-stats record (the NIC buffers pages):
// packets and bytes charged and released since the start, the greatest occupancy since the start
// and since the current interval began, and packets the pool could not hold. Kept by the
// receive buffer and the NIC port only while the record asks for it. Pure counters.
#pragma once

#include <algorithm>
#include <cstdint>

namespace uetsim {

// One pool as a row of the record reads it.
struct nic_pool_sample
{
    uint64_t pool_bytes = 0;  // the pool's size
    uint64_t occupancy = 0;
    uint64_t max_occupancy = 0;
    uint64_t ivl_max_occupancy = 0;
    uint64_t enq = 0, deq = 0;              // packets charged, released
    uint64_t enq_bytes = 0, deq_bytes = 0;  // their bytes
    uint64_t overflow = 0;                  // packets refused (the pool full)
};

struct nic_pool_counters
{
    uint64_t enq = 0, deq = 0, enq_bytes = 0, deq_bytes = 0;
    uint64_t max_occupancy = 0, ivl_max_occupancy = 0;

    // `bytes` charged, leaving `occupancy` in the pool.
    void charged(uint64_t bytes, uint64_t occupancy)
    {
        ++enq;
        enq_bytes += bytes;
        max_occupancy = std::max(max_occupancy, occupancy);
        ivl_max_occupancy = std::max(ivl_max_occupancy, occupancy);
    }
    void released(uint64_t bytes)
    {
        ++deq;
        deq_bytes += bytes;
    }
    // A new interval starts with `occupancy` in the pool.
    void start_interval(uint64_t occupancy) { ivl_max_occupancy = occupancy; }

    nic_pool_sample sample(uint64_t pool_bytes, uint64_t occupancy, uint64_t overflow) const
    {
        return {pool_bytes, occupancy, max_occupancy, ivl_max_occupancy, enq,
                deq,        enq_bytes, deq_bytes,     overflow};
    }
};

}  // namespace uetsim
