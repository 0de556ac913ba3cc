// A toy third NIC type, built in the test tree only, to measure the NIC seam: a NIC that echoes.
// The sender cuts a message at EchoNic.MSS into UET-framed data packets (payload fetched over
// PCIe, in order through the egress data pool); the receiver writes each payload to its host
// and echoes a header-only frame of the same message and offset back after EchoNic.Turnaround;
// the sender completes the message when every byte has been echoed. No loss recovery: the echo
// NIC needs a lossless fabric (PFC) or an idle one.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

#include "hw/nic/common/host_nic.h"

namespace uetsim::test {

struct echo_nic_config
{
    uint32_t mss = 2048;
    double turnaround_s = 100e-9;
    uint32_t egress_pool_bytes = 64 * 1024;
};

class echo_nic : public host_nic
{
public:
    echo_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
             const echo_nic_config& cfg);

    void post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                      uint8_t traffic_class, uint32_t queue_pair,
                      delivery_mode mode = delivery_mode::rud) override;
    void work_request_posted() override {}
    const char* kind_name() const override { return "echo"; }
    uint64_t data_packets_sent() const override { return m_data_packets; }

private:
    struct message
    {
        uint64_t id = 0;
        uint32_t dst_host = 0, dst_ip = 0;
        uint64_t bytes = 0;
        uint64_t next_offset = 0;  // the next segment to send
        uint64_t echoed = 0;       // bytes echoed back
        uint8_t traffic_class = 0;
    };

    void on_receive(packet* p) override;
    void on_sent(const sent_frame& f) override { (void)f; }
    void on_pool_free(int) override { send(); }
    // Queues the next segments while the egress data pool has room.
    void send();

    echo_nic_config m_cfg;
    std::deque<uint64_t> m_waiting;  // messages with segments to send, in order
    std::unordered_map<uint64_t, message> m_messages;
    uint64_t m_last_ready_ps = 0;  // the data frames' payloads arrive in order
    uint64_t m_data_packets = 0;
};

}  // namespace uetsim::test
