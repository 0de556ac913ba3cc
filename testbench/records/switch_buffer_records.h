// The switch buffer records of the output-files page: scala-switch-agg-buff-stats (per switch
// and pool, the egress queues and ingress occupancy of its uplink and downlink ports and the
// shared buffer as a whole) and the opt-in per-port scala-switch-buff-stats
// (Switch.ReportPerPortBufferStats), every Switch.BufferStatsReportInterval. The switches'
// buffer_manager samples the occupancy at each change (buffer_occupancy.h); these records only
// read the series and start the next interval.
#pragma once

#include "testbench/records/record_registry.h"

namespace uetsim {

const record_def& switch_agg_buff_record();
const record_def& switch_buff_record();

}  // namespace uetsim
