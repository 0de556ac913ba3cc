// `uetsim inspect`'s `chakra` member: the ranks and where they run, and per collective instance
// its algorithm, its transfers and bytes after expansion and its ideal time.
#pragma once

#include <nlohmann/json.hpp>

#include "testbench/traffic/chakra/chakra_workload.h"

namespace uetsim::chakra {

nlohmann::ordered_json chakra_json(const loaded_workload& w, double link_bps);

}  // namespace uetsim::chakra
