// The flow-perf record: one row per message of the Flows list that completes. The Flows source
// (flows.h) fills a flow_perf_row; the column table turns it into the header and the cells.
#pragma once

#include <cstdint>
#include <string>

#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

struct flow_perf_row
{
    std::string time_utc;
    double sim_time_s = 0;
    uint32_t flow_id = 0;
    uint32_t src_host = 0, dst_host = 0;
    uint64_t bytes = 0;
    uint32_t packets = 0;
    double start_s = 0;
    double finish_s = 0;
};

using flow_perf_csv = record_csv<flow_perf_row>;

const column_table<flow_perf_row>& flow_perf_columns();
const record_def& flow_perf_record();

}  // namespace uetsim
