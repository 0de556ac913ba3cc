// Nearest-rank percentiles for the sweep summary: the value at rank ceil(p/100 * n) of the sorted
// sample, so every reported figure is one that was measured (no interpolation). Pure logic.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace uetsim::sweep {

// `sorted` ascending and not empty; 0 < p <= 100.
inline double nearest_rank(const std::vector<double>& sorted, double p)
{
    const double rank = std::ceil(p / 100.0 * double(sorted.size()));
    const size_t i = rank < 1 ? 0 : std::min(sorted.size(), size_t(rank)) - 1;
    return sorted[i];
}

}  // namespace uetsim::sweep
