// The throughput each UET NIC pipeline stage allows (inspect --json `nic_pipeline`): a stage that
// accepts an item every `IntervalCycles` passes at most ClockFrequency / IntervalCycles packets
// per second, RdmaDataMSS bytes of payload each; the stage with the lowest bound binds first.
// Plain arithmetic on the configuration, so an architect reads the answer without simulating.
#pragma once

#include <array>
#include <cstdint>
#include <limits>

#include "hw/nic/uet/uet_nic_config.h"

namespace uetsim {

struct named_stage
{
    const char* name;  // the key stem: UetNic.<name>Cycles
    pipeline_stage_timing timing;
};

inline constexpr int k_uet_pipeline_stages = 10;

// Every stage in pipeline order: transmit, then receive.
inline std::array<named_stage, k_uet_pipeline_stages> uet_pipeline_stages(const uet_nic_settings& c)
{
    return {{{"Doorbell", c.doorbell},
             {"Scheduler", c.scheduler},
             {"PayloadFetch", c.payload_fetch},
             {"EntropyLookup", c.entropy_lookup},
             {"HeaderBuild", c.header_build},
             {"RxParse", c.rx_parse},
             {"PdcLookup", c.pdc_lookup},
             {"SackUpdate", c.sack_update},
             {"HostWrite", c.host_write},
             {"AckBuild", c.ack_build}}};
}

struct stage_bound
{
    named_stage stage;
    double bound_pps;   // infinity for a stage without an interval
    double bound_gbps;  // payload: bound_pps x RdmaDataMSS x 8
};

struct pipeline_bounds
{
    std::array<stage_bound, k_uet_pipeline_stages> stages;
    int binding = 0;  // index of the stage with the lowest bound (the first on a tie)
};

inline pipeline_bounds derive_pipeline_bounds(const uet_nic_settings& c)
{
    pipeline_bounds b;
    const auto st = uet_pipeline_stages(c);
    double lowest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < k_uet_pipeline_stages; ++i) {
        const uint32_t ii = st[i].timing.interval_cycles;
        const double pps = ii ? c.clock_hz / ii : std::numeric_limits<double>::infinity();
        b.stages[i] = {st[i], pps, pps * c.rdma_data_mss * 8 / 1e9};
        if (pps < lowest) lowest = pps, b.binding = i;
    }
    return b;
}

}  // namespace uetsim
