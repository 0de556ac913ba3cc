// The echo NIC's entry and keys: add_echo_nic() registers Nic.Type echo and the EchoNic section
// (before the scenario schema is first used).
#pragma once

#include "sim/config/scenario_keys.h"
#include "testbench/scenario.h"
#include "tests/seams/toy_nic/echo_nic.h"

namespace uetsim::test {

inline constexpr nic_kind echo_nic_kind{"echo"};

void add_echo_nic();
// EchoNic.MSS, EchoNic.Turnaround, EchoNic.EgressPoolSize (echo_nic_keys.cpp).
void add_echo_nic_keys(config::scenario_schema& s);

}  // namespace uetsim::test
