// Attributes of the RoCE NIC (scenario section `RoceNic`): the queue pair manager, the transport
// layer, the ECN handler and the two buffers. Defaults and ranges are the RoCE NIC pages'
// (docs/roce-nic.md).
#pragma once

#include <array>
#include <cstdint>

#include "hw/common/value_range.h"
#include "hw/nic/common/nic_buffer_config.h"
#include "hw/nic/roce/dcqcn_config.h"

namespace uetsim {

struct roce_nic_config
{
    // ScalaRoceQpManager. MSS + 58 must be below the link MTU (RoceNic.Mtu).
    uint32_t mss = 4096;
    static constexpr value_range mss_range{1, 9216};
    // The link MTU the page's rule compares with (the platform's global Mtu).
    uint32_t mtu = 4184;

    // RoceTransportLayer.
    double retransmit_timeout_s = 64e-3;
    bool ack_coalescing_enabled = true;
    double ack_delay_s = 1e-3;
    uint32_t ack_threshold = 16;

    // ECNHandler.
    dcqcn_config ecn;

    // EgressBufferManager and IngressBufferManager (the RoCE buffers page; PFC on TC0 and TC1).
    nic_buffer_settings egress = roce_default_egress_buffer();
    nic_ingress_settings ingress = roce_default_ingress_buffer();
    std::array<double, 8> pfc_enable_vector{1, 1, 0, 0, 0, 0, 0, 0};

    // NIC: EnableBufferStats (its pools in net-buff-stats).
    bool enable_buffer_stats = false;

    // Acknowledgements and NAKs go on this class (RdmaControlPacketTC); data on the message's.
    uint8_t control_traffic_class = 1;
};

// The transport page: packet generation starts (and restarts) this long after it was idle.
inline constexpr uint64_t k_roce_generation_start_ps = 80'000;

}  // namespace uetsim
