// Nic.* keys: what sits at each host's network port.
#include "sim/config/keys_common.h"

namespace uetsim::config {

void add_nic_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.choice("Nic.Type", UETSIM_FIELD(nic.type),
             {{"uet", nic_kind::uet}, {"raw", nic_kind::raw}, {"roce", nic_kind::roce}},
             "uet: a UET NIC at every host; raw: a NIC-less port that sends Flows packets at line "
             "rate with no transport (to exercise the fabric alone); roce: a RoCE v2 NIC at every "
             "host (reliable connected queue pairs, go-back-N, DCQCN-style rate per queue pair; "
             "RoceNic.*).");
}

}  // namespace uetsim::config
