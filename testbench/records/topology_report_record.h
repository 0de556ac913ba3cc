// The topology-report record: the fabric's links, written once when the run starts (the output
// files page's static topology: one row per link, the upper device first).
#pragma once

#include <cstdint>
#include <string>

#include "testbench/elab/topology.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

struct topology_report_row
{
    const device* dev = nullptr;  // the link's upper end (nearer the spine)
    uint32_t dev_port = 0;
    const device* peer = nullptr;  // its lower end
    uint32_t peer_port = 0;
    double rate_gbps = 0;
    double delay_ns = 0;
    const std::string* link_name = nullptr;
};

const column_table<topology_report_row>& topology_report_columns();
const record_def& topology_report_record();

}  // namespace uetsim
