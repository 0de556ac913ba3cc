// Counters every host network port keeps (a NIC or a NIC-less raw port), read by nd-stats.
#pragma once

#include <cstdint>

namespace uetsim {

struct host_port_stats
{
    uint64_t tx_packets = 0;
    uint64_t tx_bytes = 0;
    uint64_t rx_packets = 0;
    uint64_t rx_bytes = 0;
    uint64_t rx_drops = 0;
};

}  // namespace uetsim
