// The names of the records that Records.Enabled lists, without the registry's dependencies, so
// that the scenario struct and the key schema can take their default and allowed values from
// the records registry (record_registry.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace uetsim {

// Every name Records.Enabled accepts, in its published order.
const std::vector<std::string>& enabled_record_names();

// The default of Records.Enabled: every record it lists.
std::vector<std::string> default_enabled_records();

// Renamed records whose old name Records.Enabled still reads, for one release: (old, current).
std::vector<std::pair<std::string, std::string>> renamed_records();

}  // namespace uetsim
