// Least, greatest and mean of a stream of samples, cumulative and for the current interval
// (the *_min_*, *_mean_*, *_max_* columns of the periodic records).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace uetsim {

struct sample_window
{
    uint64_t count = 0;
    double sum = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();

    void add(double v)
    {
        ++count;
        sum += v;
        min = std::min(min, v);
        max = std::max(max, v);
    }
    // An interval with no samples reads 0.
    double least() const { return count ? min : 0.0; }
    double greatest() const { return count ? max : 0.0; }
    double mean() const { return count ? sum / double(count) : 0.0; }
};

struct sample_stats
{
    sample_window total;
    sample_window interval;
    void add(double v)
    {
        total.add(v);
        interval.add(v);
    }
    void next_interval() { interval = sample_window{}; }
};

}  // namespace uetsim
