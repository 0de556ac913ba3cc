// The perf record of the output files page: one row per application transaction that completes
// (a WQE of the RDMA application, a message of the Flows list), in completion order. The
// sources (flows.h, rdma_application.h) write perf_row values into it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

struct perf_row
{
    std::string_view job_id;
    std::string time_utc;
    double sim_time_s = 0;
    std::string_view metric_name;  // RDMA-WRITE, Flow
    double latency_us = 0;
    uint32_t node_id = 0;  // the sending side's host
    uint64_t transaction = 0;
    double start_s = 0;
    uint64_t bytes = 0;
    std::string_view application_name;
};

using perf_csv = record_csv<perf_row>;

const column_table<perf_row>& perf_columns();
const record_def& perf_record();

}  // namespace uetsim
