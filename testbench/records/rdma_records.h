// The RDMA application's records: rdma-perf (one row per completed WQE) and beacon (running
// totals every BeaconReportInterval). The application (testbench/traffic/app/rdma_application.h)
// fills the row structs; the column tables here turn them into the header and the cells.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

struct rdma_perf_row
{
    std::string_view job_id;
    std::string time_utc;
    double sim_time_s = 0;
    double perf_metric_usec = 0;
    uint64_t transfer_size = 0;
    double start_time_s = 0;
    std::string_view application_name;
    uint32_t node_id = 0;
    uint32_t wqe_id = 0;
    uint32_t num_wqe_sent = 0;
    uint32_t num_wqe_complete = 0;
    uint32_t responder_node_id = 0;
};

struct beacon_row
{
    std::string_view job_id;
    std::string time_utc;
    double sim_time_s = 0;
    double interval_duration_s = 0;
    uint64_t tx_client = 0;
    uint64_t rx_client = 0;
};

using rdma_perf_csv = record_csv<rdma_perf_row>;
using beacon_csv = record_csv<beacon_row>;

const column_table<rdma_perf_row>& rdma_perf_columns();
const column_table<beacon_row>& beacon_columns();
const record_def& rdma_perf_record();
const record_def& beacon_record();

}  // namespace uetsim
