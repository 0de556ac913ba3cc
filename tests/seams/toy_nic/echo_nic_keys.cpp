// EchoNic.* keys: the echo NIC's configuration, stored in the scenario as its own section
// (nic_config::section<echo_nic_config>()).
#include "sim/config/keys_common.h"
#include "tests/seams/toy_nic/echo_nic_entry.h"

namespace uetsim::test {

void add_echo_nic_keys(config::scenario_schema& s)
{
    auto& k = s.keys;
    const auto cfg = [](auto& o) -> auto&
    {
        return o.nic.template section<echo_nic_config>();
    };
    k.bytes(
        "EchoNic.MSS", [cfg](auto& o) -> auto& { return cfg(o).mss; }, {1, 9000},
        "Largest payload of one data packet; each is echoed back as a header-only frame.");
    k.time(
        "EchoNic.Turnaround", [cfg](auto& o) -> auto& { return cfg(o).turnaround_s; }, {0, 1},
        "From a data packet's arrival to its echo's queueing at the receiver.");
    k.bytes(
        "EchoNic.EgressPoolSize", [cfg](auto& o) -> auto& { return cfg(o).egress_pool_bytes; },
        {9106, config::u32_max},
        "Transmit pool of each traffic class: a packet holds its wire size from its payload "
        "fetch until serialized.");
}

}  // namespace uetsim::test
