// net-buff-stats (the NIC records and buffers pages): one row per receive and transmit pool of
// every NIC whose EnableBufferStats is on (UetNic.EnableBufferStats, RoceNic.EnableBufferStats),
// every Simulation.NetworkBufferStatsReportingInterval, when Records.Enabled lists the record
// (the reference's global EnableNetworkBufferStatsReporting). The pools are the generic NIC
// port's (nic_port), so the record serves any host_nic; the port counts their traffic only once
// the record asks (nic_port::keep_buffer_stats), and the record adds no wake-up.
#pragma once

#include "testbench/records/record_registry.h"

namespace uetsim {

const record_def& net_buff_stats_record();

}  // namespace uetsim
