// Nearest-rank percentiles: the value at rank ceil(p/100 * n) of a sorted sample, so every
// reported figure is one that was measured (no interpolation). The sweep summary and the Chakra
// collective records both use it. Pure logic.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace uetsim {

// `sorted` ascending, 0 < p <= 100; NaN for an empty sample. p/100 * n is taken a hair low
// before ceil, since 99.9/100 x 1000 is 999.0000000000001 in doubles (rank 999, not 1000).
inline double nearest_rank(const std::vector<double>& sorted, double p)
{
    if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double rank = std::ceil(p / 100.0 * double(sorted.size()) - 1e-9);
    const size_t i = rank < 1 ? 0 : std::min(sorted.size(), size_t(rank)) - 1;
    return sorted[i];
}

}  // namespace uetsim
