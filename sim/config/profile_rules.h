// The rules of UET profiles and jobs (docs/jobs-and-profiles.md): a scenario asks a UET NIC only
// for the optional features its UetNic.Profile has, and UetNic.JobTable holds 24-bit JobIDs.
#pragma once

#include "testbench/scenario.h"

namespace uetsim::config {

// Throws (fail_rule) naming the key, the host, its profile and what is allowed.
void check_profiles_and_jobs(const scenario& sc);

}  // namespace uetsim::config
