// When a periodic record (nd-stats, uet-transport-stats, pcie-stats) writes its first row: the
// UET NIC records page puts it at StartTime + ClientStartOffset + one interval (0.003 s at the
// defaults), the time the clients have started plus an interval. Those two times belong to
// the RDMA application's timeline; a Flows-only run has no clients and no such offset (its
// messages start at their own Start), so its first row stays one interval after t = 0, as the
// rule gives with both times 0.
#pragma once

#include "testbench/scenario.h"

namespace uetsim {

inline double first_periodic_row_s(const scenario& sc, double interval_s)
{
    const double offset = sc.rdma.enabled ? sc.simulation.timeline.start_time +
                                                sc.simulation.timeline.client_start_offset
                                          : 0.0;
    return offset + interval_s;
}

}  // namespace uetsim
