// Loads a block library (rtl_library.h) for Rtl.<Block>Library and checks it before the run:
// the file, dlopen (dlerror's text), the entry point, the interface version, the uetsim version,
// the block key, and every port against the key's pin contract (rtl_contract.h). Each path is
// loaded once per process and never unloaded (the blocks it makes live until the process ends).
#pragma once

#include <string>

#include "rtl/library/rtl_library.h"

namespace uetsim {

// `path` as the scenario resolved it; `block_key` the registry's key (EntropyLoadBalancer);
// `key_name` the scenario key for messages (Rtl.EntropyLoadBalancerLibrary). Throws
// std::invalid_argument "<key_name>: '<path>' <what is wrong>; <what to do>".
const rtl_library_descriptor& load_rtl_library(const std::string& path,
                                               const std::string& block_key,
                                               const std::string& key_name);

}  // namespace uetsim
