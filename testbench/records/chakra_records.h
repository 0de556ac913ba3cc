// The Chakra workload's records (the Chakra records page): placement (chakra-capable-hosts,
// chakra-mapping, chakra-apps), transfers (chakra-perf), rank completion
// (chakra-completion-stats, chakra-cdf), collectives (chakra-comm-collective-stats,
// chakra-comm-collective-percentiles-stats) and uetsim's chakra-busbw; with them the annotated
// traces under post_annotated/. Defined in chakra_placement_records.cpp, chakra_rank_records.cpp
// and chakra_collective_records.cpp (profiling files: traffic/chakra/chakra_profiler.h).
#pragma once

#include "testbench/records/record_registry.h"

namespace uetsim {

const record_def& chakra_capable_hosts_record();
const record_def& chakra_mapping_record();
const record_def& chakra_apps_record();
const record_def& chakra_perf_record();
const record_def& chakra_completion_stats_record();
const record_def& chakra_cdf_record();
const record_def& chakra_collective_stats_record();
const record_def& chakra_collective_percentiles_record();
const record_def& chakra_busbw_record();

}  // namespace uetsim
