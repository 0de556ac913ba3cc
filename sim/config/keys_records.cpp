// Records.* keys: which records the run writes, and the record names Records.Enabled accepts.
#include "sim/config/keys_common.h"

namespace uetsim::config {

void add_records_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.boolean("Records.UetMonitor", UETSIM_FIELD(records.uet_monitor),
              "Write uet-monitor: one row per UET packet sent or received (large).");
    k.choice_list("Records.Enabled", UETSIM_FIELD(records.enabled), record_names(),
                  "Records the run writes.");
}

const std::vector<std::string>& record_names()
{
    return enabled_record_names();  // the records registry
}

}  // namespace uetsim::config
