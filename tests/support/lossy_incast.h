// A loaded single switch with NIC-less hosts (Nic.Type raw, so what the switch drops stays
// lost): 4 senders of 64 x 4,096 B converge on host 0's 400 Gbps port, every class lossy, and a
// fixed egress limit of 10 data packets (QueueDropThreshold 1 x PlaneBDP 41,840 B). For the
// admission tests (switch_admission_test, tests/seams/budget_admission_test).
#pragma once

#include <string>

#include "testbench/scenario.h"

namespace uetsim::test {

inline scenario lossy_incast(const std::string& name)
{
    scenario sc;
    sc.simulation.name = name;
    sc.simulation.stop_time_s = 200e-6;
    sc.topology.kind = topology_kind::single_switch;
    sc.topology.hosts = 5;
    sc.nic.type = nic_kind::raw;
    sc.sw.buffer.enable_pfc.assign(8, 0);
    sc.sw.buffer.lossy_alpha = 0;
    sc.sw.buffer.queue_drop_threshold_enable = true;
    sc.sw.buffer.queue_drop_threshold = 1;
    sc.sw.buffer.plane_bdp_bytes = 10 * 4184;
    for (uint32_t s = 1; s <= 4; ++s) {
        flow_spec f;
        f.src = s;
        f.dst = 0;
        f.bytes = 64 * 4096;
        sc.flows.messages.push_back(f);
    }
    return sc;
}

}  // namespace uetsim::test
