// The cpu-mem-stats record: the simulator process's CPU time and memory, and the machine's
// memory, every Simulation.NDStatsReportInterval of simulated time (process_usage.h).
#pragma once

#include <cstdint>
#include <string_view>

#include "testbench/records/column_table.h"
#include "testbench/records/process_usage.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

struct cpu_mem_stats_row
{
    std::string_view job_id;
    std::string_view time_utc;
    double sim_time_s = 0;
    std::string_view host_name;
    int64_t pid = 0;
    cpu_mem_usage u;
};

const column_table<cpu_mem_stats_row>& cpu_mem_stats_columns();
const record_def& cpu_mem_stats_record();

}  // namespace uetsim
