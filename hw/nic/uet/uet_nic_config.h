// Attributes of the UET NIC (scenario section `UetNic`): PDS manager, buffers, pipeline timing.
// Defaults are the UET NIC pages'; the pipeline latencies are uetsim's (docs/uet-nic.md).
#pragma once

#include <cstdint>

#include "hw/common/value_range.h"

namespace uetsim {

struct uet_nic_config
{
    // Transport (ScalaUETPdsManager).
    uint32_t rdma_data_mss = 4096;
    uint32_t ack_request_every_nth_packet = 1;
    bool ack_request_first_packet = true;
    bool ack_request_last_packet = true;
    double initial_retransmit_timeout_s = 150e-6;
    uint32_t max_exponential_rto_backoff_count = 5;
    static constexpr value_range max_exponential_rto_backoff_count_range{0, 15};
    bool fixed_rexmit_time_enable = false;
    double fixed_rexmit_timeout_s = 150e-6;
    bool trimming_enabled = false;
    bool use_distinct_dscp_for_retransmits = true;
    bool pdc_groups_enabled = true;
    // Data packets take their message's class (RdmaDataPacketTC, a Flows entry's TrafficClass).
    uint8_t control_traffic_class = 1;

    // Egress buffer pools (EgressBufferManager): data and control classes.
    uint32_t egress_data_pool_bytes = 230'400;
    // Ingress data pool (IngressBufferManager: 0.9 x 4 MB): the receiver penalty reads it.
    uint32_t ingress_data_pool_bytes = 3'600'000;

    // Pipeline: NIC clock and per-stage latencies in cycles.
    double clock_hz = 1e9;
    uint32_t doorbell_to_schedule_cycles = 15;  // transmit starts 15 ns after the doorbell
    uint32_t scheduler_cycles = 2;              // initiation interval of the transmit scheduler
    uint32_t entropy_lookup_cycles = 1;         // the group's load balancer picks the entropy value
    uint32_t header_build_cycles = 4;           // payload arrived -> packet in the egress queue
    uint32_t rx_process_cycles = 4;             // frame received -> PDC updated, payload written
    uint32_t ack_build_cycles = 2;              // ACK/NACK generation

    double cycle_s() const { return 1.0 / clock_hz; }
    uint32_t nominal_bytes(uint32_t payload) const { return payload + 88; }
};

}  // namespace uetsim
