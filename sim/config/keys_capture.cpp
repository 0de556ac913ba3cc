// Capture.* keys: packet captures (pcap) of chosen links.
#include "sim/config/keys_common.h"

namespace uetsim::config {

void add_capture_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.name_list("Capture.Links", UETSIM_FIELD(capture.links), link_name,
                "Links whose frames go to {Name}-{link}.pcap in the output folder.");
}

}  // namespace uetsim::config
