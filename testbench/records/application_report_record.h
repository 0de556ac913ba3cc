// The application-report record: every application instance of the run, on which host, its
// role, its peer and how its data is marked, written once when the run starts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

struct application_report_row
{
    std::string_view job_id;
    std::string_view time_utc;
    std::string_view host;
    uint32_t node_id = 0;
    bool client = true;  // CLIENT (sends) or SERVER (receives)
    std::string_view app_typeid;
    std::string app_name;
    uint32_t dscp = 0;
    bool ect = false;
    uint32_t peer_node_id = 0;
};

const column_table<application_report_row>& application_report_columns();
const record_def& application_report_record();

}  // namespace uetsim
