// The link-stats record: every link, each direction, every Simulation.NDStatsReportInterval: what
// the sending end put on the wire and what the receiving end's FCS check dropped (docs/
// link-layer.md). A row reads the link and its ends' counters; nothing is counted per frame for
// it. A column that reads a new counter of the link is one line in link_stats_columns().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "hw/link/link.h"
#include "testbench/elab/topology.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

// One link direction at the row's time.
struct link_stats_row
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const link_spec* spec = nullptr;
    const link* lk = nullptr;
    link::direction dir = link::a_to_b;
    const device* from = nullptr;  // the sending end
    const device* to = nullptr;
    uint64_t frames = 0;  // started by the sending end's port, since the start
    uint64_t bytes = 0;
    uint64_t interval_bytes = 0;
    double interval_s = 0;
    link::llr_counters llr;        // the sender at `from`, the receiver at `to` (zeros: off)
    uint64_t llr_buffer_peak = 0;  // the most bytes its replay buffer held in the interval
    // CBFC on the link, per VC of the sending end (';' between VCs; empty without CBFC).
    uint64_t cbfc_updates = 0;  // credit updates and syncs the sending end put on this direction
    std::string cbfc_stall_usec;
    std::string cbfc_outstanding_min;
    std::string cbfc_outstanding_max;
};

const column_table<link_stats_row>& link_stats_columns();
const record_def& link_stats_record();

}  // namespace uetsim
