// The scenario `uetsim run` runs without a file. Its source is sim/default_scenario.yaml,
// embedded at build time.
#pragma once

#include <string_view>

namespace uetsim {

std::string_view default_scenario_yaml();

}  // namespace uetsim
