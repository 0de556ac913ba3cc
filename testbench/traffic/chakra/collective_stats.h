// What the collective records report of each collective instance: its start, end and validity
// from the participants' times, the percentiles per (type, algorithm, size, group size) with
// their ratios to the ideal time, and bus bandwidth. Pure logic, kernel-free.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "testbench/traffic/chakra/collective_plan.h"
#include "testbench/traffic/chakra/prepared_workload.h"

namespace uetsim::chakra {

// One collective instance's times as the replay saw them (barrier excluded).
struct collective_times
{
    double first_start_s = -1, last_start_s = -1;  // over its participants' starts
    double end_s = -1;  // the latest acknowledgment or receive of its transfers
    uint32_t participants_done = 0;
};

struct collective_result
{
    uint32_t id = 0;
    collective_type type = collective_type::all_reduce;
    algorithm alg = algorithm::ring;
    uint64_t comm_size = 0;
    std::string pg_name;
    uint32_t pg_size = 0;
    double start_s = 0, end_s = 0;
    // Some participant finished its part (the records page: invalid when none did).
    bool valid = false;
    double run_s() const { return end_s - start_s; }
};

std::vector<collective_result> collective_results(
    const prepared_workload& w, const std::function<const collective_times&(uint32_t)>& times,
    bool use_max_start);

struct percentile_row
{
    collective_type type;
    algorithm alg;
    uint64_t comm_size;
    uint32_t pg_size;
    uint64_t count;
    double mean_us, p50_us, p99_us, p999_us, p100_us;
    double ideal_us;  // NaN for a Barrier
};

// Percentiles are nearest-rank (hw/common/nearest_rank.h).

// The valid collectives grouped by (type, algorithm, size, group size), in that order.
std::vector<percentile_row> percentile_rows(const std::vector<collective_result>& results,
                                            double link_bps);

struct busbw_row
{
    collective_result c;
    double run_us, ideal_us;
    double algbw_gbps, busbw_gbps;
    double link_gbps, link_fraction;
};

// algbw = data × 8 / run time, with data = S, or N × S for AllGather and Gather (what every
// rank ends up with); busbw = algbw × busbw_factor.
busbw_row busbw_of(const collective_result& c, double link_bps);

// value / ideal as a record cell: "NA" when the ideal time is NaN or 0 (a Barrier).
std::string ratio_text(double value, double ideal);

}  // namespace uetsim::chakra
