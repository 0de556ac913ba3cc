// The RoCE v2 NIC (the five RoCE NIC pages): reliable connected queue pairs, one message at a
// time per queue pair, segmentation at MSS with FIRST/MIDDLE/LAST/ONLY opcodes, cumulative and
// coalesced ACKs, go-back-N with one NAK per gap, one transport timer per queue pair, CNPs for
// CE-marked packets and a DCQCN-style rate per queue pair (dcqcn_rate), on the common port
// (egress pools and transmit scheduling, receive pools and PFC) and the common host side.
#pragma once

#include <cstdint>

#include <systemc>

#include "hw/nic/common/host_nic.h"
#include "hw/nic/roce/roce_nic_config.h"
#include "hw/nic/roce/roce_transport_counters.h"

namespace uetsim {

class roce_nic : public host_nic
{
public:
    // `line_rate_bps`: the host link's rate (the NIC's DataRate), the base of the rate loop's
    // floor and of the PFC pause time.
    roce_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
             const roce_nic_config& cfg, double line_rate_bps);

    // A message of `bytes` to `dst_host` on queue pair `queue_pair` (its data packets carry
    // `traffic_class`); k_no_queue_pair (a Flows message) gets a queue pair of its own.
    void post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                      uint8_t traffic_class, uint32_t queue_pair) override;

    const char* kind_name() const override { return "roce"; }
    uint64_t data_packets_sent() const override
    {
        return m_counters.rdma_write_cnt + m_counters.rdma_send_cnt;
    }

    roce_transport_counters& counters() { return m_counters; }
    const roce_transport_counters& counters() const { return m_counters; }
    const roce_nic_config& config() const { return m_cfg; }

private:
    // nic_port_client.
    void on_receive(packet* p) override;
    void on_sent(const sent_frame& f) override;
    void on_pool_free() override;

    roce_nic_config m_cfg;
    double m_line_rate_bps;
    roce_transport_counters m_counters;
};

}  // namespace uetsim
