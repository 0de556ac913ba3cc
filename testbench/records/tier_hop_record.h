// The tier-hop record: the packets that went through each tier of switches, since the start and
// in the interval, every Simulation.NDStatsReportInterval.
#pragma once

#include <cstdint>
#include <string_view>

#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

struct tier_hop_row
{
    std::string_view job_id;
    std::string_view time_utc;
    double sim_time_s = 0;
    uint64_t total[3] = {};     // by tier: 0 spine, 1 fabric, 2 rack
    uint64_t interval[3] = {};  // the same since the previous row
};

const column_table<tier_hop_row>& tier_hop_columns();
const record_def& tier_hop_record();

}  // namespace uetsim
