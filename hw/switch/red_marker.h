// RED ECN marker for one egress queue (port + pool): an EWMA of the queue length updated at
// admission, and a marking decision when a packet starts transmitting.
#pragma once

#include <cstdint>

namespace uetsim {

struct red_params
{
    bool enabled = true;
    double ewma_weight = 0.1;
    double min_bytes = 0;  // MinThreshold x static limit
    double max_bytes = 0;  // MaxThreshold x static limit
    double max_probability = 1.0;
};

class red_marker
{
public:
    // At admission, with the queue's occupancy after the packet is counted.
    void on_admit(const red_params& p, uint64_t queue_bytes)
    {
        m_mean = (1.0 - p.ewma_weight) * m_mean + p.ewma_weight * double(queue_bytes);
    }

    // Marking probability for the current average (0 below min, 1 at or above max).
    double probability(const red_params& p) const
    {
        if (!p.enabled || m_mean < p.min_bytes) return 0.0;
        if (m_mean >= p.max_bytes) return 1.0;
        return p.max_probability * (m_mean - p.min_bytes) / (p.max_bytes - p.min_bytes);
    }

    // `draw` is uniform in [0,1).
    bool should_mark(const red_params& p, double draw) const
    {
        const double pr = probability(p);
        return pr >= 1.0 || (pr > 0.0 && draw < pr);
    }

    double mean_bytes() const { return m_mean; }

private:
    double m_mean = 0;
};

}  // namespace uetsim
